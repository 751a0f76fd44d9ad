"""The release-day tracking issue on the sandbox: opened once with its label (an issue of that title is adopted),
each step that turned done ticked with its run's URL, a manual box ticked by hand on GitHub recorded as signed,
and `I` on the checklist does the same behind its preview; a viewer never writes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.actions.tracking_issue import ledger_key
from cockpit.bootstrap import build_backend
from cockpit.sandbox.demo import seed_dispatches
from cockpit.services.tracking_issue import boxes, title
from cockpit.ui.confirm import ConfirmScreen
from tests.e2e.driving import running
from tests.e2e.test_picks_and_milestone import notes
from tests.e2e.test_release_chores_keys import press_and_settle

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.slow


def issue_state(sandbox):
    return sandbox.github.repos[sandbox.world.repository.lower()]


def tracking(sandbox):
    found = [i for i in issue_state(sandbox).repo.issues if i.title == title(sandbox.config.release.version)]
    return found


@pytest.fixture(autouse=True)
def not_opened_yet(sandbox):
    """The sandbox before the tracking issue was opened (the demo world has one, with a box ticked by hand)."""
    state = issue_state(sandbox)
    gone = {i.number for i in tracking(sandbox)}
    state.repo.issues[:] = [i for i in state.repo.issues if i.number not in gone]
    for number in gone:
        state.items.pop(number, None)


def judged(backend):
    backend.load_checklist({})  # the actions read the checklist last judged


def test_opened_once_then_each_done_step_is_ticked_and_a_hand_tick_is_recorded(sandbox, sandbox_world):
    backend = build_backend(sandbox.config, clock=lambda: NOW)
    try:
        judged(backend)
        result = backend.actions.run("checklist.tracking_issue", None, confirmed=True)
        assert result.ok and "opened the tracking issue #" in result.message, result.message
        (issue,) = tracking(sandbox)
        assert issue.labels == ["release tracker"]
        assert not boxes(issue.body)["stage_pypi_run"].ticked
        assert backend.state.ledger_get(ledger_key(sandbox.config.release.repository, sandbox.config.release.version))
        again = backend.actions.run("checklist.tracking_issue", None, confirmed=True)
        assert not again.ok and "the tracking issue is #" in again.message
        assert len(tracking(sandbox)) == 1

        # bob ticks the release notes by hand on GitHub; the staging run is found done (the journal says so)
        issue.body = issue.body.replace(
            "- [ ] PyTorch release notes published", "- [x] PyTorch release notes published"
        )
        line = next(line for line in issue.body.splitlines() if "PyTorch release notes published" in line)
        hand = line.rsplit("cockpit:", 1)[1].split()[0]
        assert boxes(issue.body)[hand].ticked
    finally:
        backend.state.close()
    assert seed_dispatches(sandbox.config, sandbox_world) == 5
    backend = build_backend(sandbox.config, clock=lambda: NOW)
    try:
        judged(backend)
        preview = backend.actions.dry_run("checklist.tracking_sync", None)
        assert "tick" in preview and "record as signed" in preview
        result = backend.actions.run("checklist.tracking_sync", None, confirmed=True)
        assert result.ok, result.message
        assert "ticked 1 box(es)" in result.message and "recorded 1 step(s)" in result.message
        body = tracking(sandbox)[0].body
        assert boxes(body)["stage_pypi_run"].ticked
        staged = sandbox_world.truth["release_day"]["staged"]
        assert f"/actions/runs/{staged}" in next(line for line in body.splitlines() if "cockpit:stage_pypi_run" in line)
        assert boxes(body)[hand].ticked, "bob's tick kept"
        signoff = backend.state.signoffs()[hand]
        assert signoff.done and signoff.note == "ticked by hand in the tracking issue"
        calm = backend.actions.run("checklist.tracking_sync", None, confirmed=True)
        assert calm.ok and "in step with the checklist" in calm.message
    finally:
        backend.state.close()


@pytest.mark.anyio
async def test_I_on_the_checklist_previews_the_issue_and_opens_it(sandbox):
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        await press_and_settle(app, pilot, "I")
        assert isinstance(app.screen, ConfirmScreen), notes(app)
        assert "with the title '[v." in app.screen.dry_run and "'release tracker'" in app.screen.dry_run
        assert tracking(sandbox) == []
        await press_and_settle(app, pilot, "y")
        assert len(tracking(sandbox)) == 1 and "opened the tracking issue #" in notes(app)


@pytest.mark.anyio
async def test_a_viewer_opens_no_tracking_issue(sandbox):
    async with running(build_backend(sandbox.config, read_only=True), pane="checklist") as (app, pilot):
        await press_and_settle(app, pilot, "I")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "read-only session" in notes(app)
        assert tracking(sandbox) == []
