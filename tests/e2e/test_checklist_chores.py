"""`x` on the checklist's validation steps runs the milestone pane's chores (`N` and `V`) on the real app over
the sandbox: the same preview, one send once confirmed, the same refusal the second time; an issue with the
validation title already on the tracker is found and recorded, never opened twice."""

from __future__ import annotations

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running
from tests.e2e.test_picks_and_milestone import notes
from tests.e2e.test_release_chores_keys import non_reads, press_and_settle

pytestmark = pytest.mark.anyio


def select_step(app, step_id: str) -> None:

    table = app.query_one("#pane-checklist .pane-table", RowsTable)
    table.move_cursor(row=table.get_row_index(step_id))


@pytest.mark.usefixtures("validation_not_started")
async def test_x_on_the_validation_issue_step_previews_opens_it_once_then_refuses(sandbox):
    repo = sandbox.world.repository
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        select_step(app, "validation_issue")
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "x")
        assert isinstance(app.screen, ConfirmScreen), notes(app)
        assert (
            f"POST /repos/{repo}/issues with the title" in app.screen.dry_run
            and "## Milestone Issues\n\n- [ ] " in app.screen.dry_run
        )
        assert non_reads(sandbox) == [], "the preview only reads"
        await press_and_settle(app, pilot, "y")
        assert non_reads(sandbox) == [("POST", f"/repos/{repo}/issues")]
        assert "opened the validation issue #" in notes(app)

        select_step(app, "validation_issue")
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "x")
        assert not isinstance(app.screen, ConfirmScreen) and "the validation issue is already open" in notes(app)
        assert non_reads(sandbox) == []


async def test_x_on_the_validation_issue_step_finds_the_issue_already_on_the_tracker_and_opens_none(sandbox):
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        select_step(app, "validation_issue")
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "x")
        assert isinstance(app.screen, ConfirmScreen), notes(app)
        await press_and_settle(app, pilot, "y")
        assert non_reads(sandbox) == []
        assert "the validation issue already exists: #" in notes(app) and "not opened again" in notes(app)


@pytest.mark.usefixtures("validation_not_started")
async def test_x_on_the_validation_comments_step_posts_each_missing_comment_once_then_refuses(sandbox):
    repo = sandbox.world.repository
    async with running(build_backend(sandbox.config), pane="checklist") as (app, pilot):
        select_step(app, "validation_comments")
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "x")
        assert isinstance(app.screen, ConfirmScreen), notes(app)
        assert f"POST /repos/{repo}/issues/" in app.screen.dry_run and "skip #" in app.screen.dry_run
        await press_and_settle(app, pilot, "y")
        posts = non_reads(sandbox)
        assert posts and {m for m, _ in posts} == {"POST"} and all(p.endswith("/comments") for _, p in posts)
        assert f"validation comment posted on {len(posts)} issue(s)" in notes(app)

        select_step(app, "validation_comments")
        sandbox.github.request_log.clear()
        await press_and_settle(app, pilot, "x")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "already has its validation comment or is skipped" in notes(app)
        assert non_reads(sandbox) == []
