"""The chores from the keyboard on the real app over the sandbox: `V` and `N` on the milestone pane,
`M` on the cherry-picks pane. Each shows its preview, does it once confirmed, and refuses the
second time saying why."""

from __future__ import annotations

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.confirm import ConfirmScreen
from tests.e2e.driving import running, settle
from tests.e2e.test_picks_and_milestone import notes, select

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("validation_not_started")]


def non_reads(sandbox) -> list[tuple[str, str]]:
    return [(e["method"], e["path"].split("?")[0]) for e in sandbox.github.log() if e["method"] not in ("GET", "HEAD")]


async def press_and_settle(app, pilot, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(app, pilot)


async def test_the_milestone_chores_preview_then_act_once_then_refuse(sandbox):
    repo = sandbox.world.repository
    async with running(build_backend(sandbox.config)) as (app, pilot):
        await press_and_settle(app, pilot, "1", "V")
        assert isinstance(app.screen, ConfirmScreen)
        assert f"POST /repos/{repo}/issues/" in app.screen.dry_run and "skip #" in app.screen.dry_run
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "y")
        posts = non_reads(sandbox)
        assert posts and {m for m, _ in posts} == {"POST"} and all(p.endswith("/comments") for _, p in posts)
        assert f"validation comment posted on {len(posts)} issue(s)" in notes(app)
        await press_and_settle(app, pilot, "V")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "already has its validation comment or is skipped" in notes(app)

        await press_and_settle(app, pilot, "N")
        assert isinstance(app.screen, ConfirmScreen) and "## Milestone Issues\n\n- [ ] " in app.screen.dry_run
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "y")
        assert non_reads(sandbox) == [("POST", f"/repos/{repo}/issues")]
        assert "opened the validation issue #" in notes(app)
        await press_and_settle(app, pilot, "N")
        assert not isinstance(app.screen, ConfirmScreen) and "the validation issue is already open" in notes(app)


async def test_the_merge_key_merges_the_ready_pr_and_names_why_the_other_is_refused(sandbox):
    merges, repo = sandbox.world.truth["merges"], sandbox.world.repository
    async with running(build_backend(sandbox.config), pane="picks") as (app, pilot):
        rows = {r.request.release_prs[0].number: r for r in app.pane("picks").report.rows if r.request.release_prs}
        sandbox.github.request_log.clear()
        select(app, "picks", rows[merges["blocked"]].request.comment_id)
        await press_and_settle(app, pilot, "M")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "changes requested by" in notes(app) and "required checks not green" in notes(app)
        assert non_reads(sandbox) == []

        select(app, "picks", rows[merges["ready"]].request.comment_id)
        await press_and_settle(app, pilot, "M")
        assert isinstance(app.screen, ConfirmScreen) and "merge method: squash" in app.screen.dry_run
        await press_and_settle(app, pilot, "y")
        # the demo's ready request came in after the phase-1 cut-off: the tracker speaks against it, so M asks again
        assert isinstance(app.screen, ConfirmScreen) and "phase 2" in app.screen.dry_run, app.screen
        assert non_reads(sandbox) == []
        await press_and_settle(app, pilot, "y")
        assert non_reads(sandbox) == [("PUT", f"/repos/{repo}/pulls/{merges['ready']}/merge")]
        assert f"merged #{merges['ready']}" in notes(app)
        select(app, "picks", rows[merges["ready"]].request.comment_id)
        await press_and_settle(app, pilot, "M")  # the pane reloaded: the request is now accepted
        assert not isinstance(app.screen, ConfirmScreen) and "already merged" in notes(app)
