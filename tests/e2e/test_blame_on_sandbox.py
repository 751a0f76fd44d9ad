"""Which pick turned the release branch red, which commits grew a wheel (#29 section 3), on the sandbox: the
CI detail names the one pick between the last green commit and the red head, with the trunk PR it came
from; the wheel that jumped from rc1 to rc2 lists the commits between the two tags; both are in the
reports the JSON is made of."""

from __future__ import annotations

import subprocess

import pytest

from cockpit.bootstrap import build_backend
from cockpit.sandbox.demo import seed_rc_sizes
from cockpit.services.report_render import to_jsonable
from cockpit.ui.panes.ci_detail import CIDetailScreen
from tests.e2e.driving import running

pytestmark = pytest.mark.anyio


async def test_the_ci_detail_names_the_one_pick_between_green_and_red(sandbox, sandbox_world):
    head = sandbox_world.truth["ci_detail"][sandbox_world.repository]["head"]
    async with running(build_backend(sandbox.config, read_only=True), pane="ci") as (app, pilot):
        (blame,) = app.query_one("#pane-ci").report.blames
        assert [c.sha for c in blame.commits] == [head] and blame.commits[0].picked_from
        assert to_jsonable(app.query_one("#pane-ci").report)["blames"][0]["commits"][0]["sha"] == head
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CIDetailScreen)
        header = "\n".join(str(s.render()) for s in app.screen.query(".detail-line"))
        assert "Blame: one commit lies between the last green commit" in header and head[:12] in header
        await pilot.press("escape")


def test_the_wheel_that_jumped_between_rcs_lists_the_commits_between_the_tags(sandbox, sandbox_world):
    seed_rc_sizes(sandbox.config, sandbox_world)
    backend = build_backend(sandbox.config, read_only=True)
    try:
        report = backend.load_storage()
    finally:
        backend.state.close()
    (jump,) = report.size_jumps
    assert (jump.variant, jump.before, jump.after) == ("torchlet cu126", "v2.5.0-rc1", "v2.5.0-rc2")
    between = subprocess.run(
        ["git", "-C", sandbox_world.clone_path, "rev-list", "v2.5.0-rc1..v2.5.0-rc2"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert [c.sha for c in jump.commits] == between and jump.netted == 0
    assert to_jsonable(report)["size_jumps"][0]["filename"] == jump.filename
