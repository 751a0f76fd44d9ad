"""`x` on a checklist step a release workflow performs opens its start form (the workflow file's own inputs),
starts the dry run through a confirmation and watches it; `W` watches a failed dry run with its log tail and
re-runs it with `r`; the real run stays disabled until a dry run with the same inputs succeeded."""

from __future__ import annotations

import pytest
from textual.widgets import Button, Select

from cockpit.bootstrap import build_backend
from cockpit.sandbox.demo import seed_dispatches
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.workflow_screens import RunWatchScreen, StartWorkflowScreen
from tests.e2e.driving import running
from tests.e2e.test_checklist_chores import select_step
from tests.e2e.test_picks_and_milestone import notes
from tests.e2e.test_release_chores_keys import press_and_settle
from tests.pilot import wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def dispatches(sandbox) -> list[dict]:
    return [e for e in sandbox.github.log() if e["method"] == "POST" and e["path"].endswith("/dispatches")]


def form_shown(app) -> bool:
    """The start form is on screen with its fields (the screen is current at its push, its fields mount after)."""
    return isinstance(app.screen, StartWorkflowScreen) and bool(app.screen.query("#start-real"))


def body(app) -> str:
    return str(app.screen.query_one("#watch-body").render())


async def test_x_opens_the_form_starts_the_dry_run_once_confirmed_and_watches_it(sandbox):
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        select_step(app, "stage_pypi_run")
        await pilot.press("x")
        await wait_until(pilot, lambda: form_shown(app))
        form = app.screen
        package = form.query_one("#in-package", Select)
        assert package.value == sandbox.config.evidence.release_workflows.packages[0]
        assert form.query_one("#start-real", Button).disabled, "no dry run with these inputs yet"
        assert "Real run not yet: no dry run" in " ".join(str(why.render()) for why in form.query(".workflow-why"))
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "start a dry run of acme/test-infra release-stage-pypi.yml on main" in app.screen.dry_run
        assert dispatches(sandbox) == [], "nothing is sent before the confirmation"
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, RunWatchScreen), seconds=30)
        assert len(dispatches(sandbox)) == 1
        await wait_until(pilot, lambda: "success" in body(app))
        assert "started the dry run of release-stage-pypi.yml: run" in notes(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, RunWatchScreen))

        select_step(app, "stage_pypi_run")  # the dry run succeeded: the real run is offered now
        await pilot.press("x")
        await wait_until(pilot, lambda: form_shown(app))
        assert not app.screen.query_one("#start-real", Button).disabled
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, StartWorkflowScreen))
        assert len(dispatches(sandbox)) == 1


async def test_W_shows_the_failed_dry_run_with_its_log_tail_and_r_re_runs_it(sandbox, sandbox_world):
    seed_dispatches(sandbox.config, sandbox_world)
    truth = sandbox_world.truth["release_day"]
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        select_step(app, "promote_pypi_run")
        await pilot.press("W")
        await wait_until(pilot, lambda: isinstance(app.screen, RunWatchScreen))
        await wait_until(pilot, lambda: truth["log_line"] in body(app))
        assert f"run {truth['dry_run_failed']}" in body(app) and "failure" in body(app)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert f"/actions/runs/{truth['dry_run_failed']}/rerun-failed-jobs" in app.screen.dry_run
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, RunWatchScreen))
        # nothing was staged since: the re-run fails again on the same check, and says what to do
        await wait_until(pilot, lambda: "stage it again" in body(app))
        assert "· failure ·" in body(app)


async def test_a_viewer_is_told_at_once_that_nothing_is_started(sandbox):
    async with running(build_backend(sandbox.config, read_only=True), pane="checklist") as (app, pilot):
        select_step(app, "stage_pypi_run")
        await press_and_settle(app, pilot, "x")
        assert not isinstance(app.screen, StartWorkflowScreen)
        assert "read-only session" in notes(app)
        assert dispatches(sandbox) == []
