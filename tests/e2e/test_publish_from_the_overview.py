"""``P`` on the overview: the release manager sees the Markdown and its diff, confirms, and the tracker
holds one status comment; after signing a step, the second publish shows that change in the diff and
edits the same comment."""

from __future__ import annotations

import pytest
from textual.widgets import Static

import cockpit.actions.publish as publishing
from cockpit.bootstrap import build_backend
from cockpit.services.status_comment import is_status_comment
from cockpit.ui.app import CockpitApp
from cockpit.ui.publish_preview import PublishPreviewScreen
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, settle

pytestmark = pytest.mark.anyio
SIZE = (160, 48)


def status_comments(sandbox) -> list:
    world = sandbox.world
    with sandbox.github.lock:
        comments = sandbox.github.repos[world.repository.lower()].comments_on(world.tracker_issue)
        return [c for c in comments if is_status_comment(c.body, world.version)]


async def preview_after_p(app, pilot) -> str:
    await pilot.press("0")
    await pilot.press("P")
    for _ in range(200):
        await pilot.pause(0.05)
        if isinstance(app.screen, PublishPreviewScreen):
            return str(app.screen.query_one("#publish-preview-text", Static).render())
    raise AssertionError("no preview appeared")


async def checklist_row(app, pilot, step: str) -> tuple[RowsTable, int]:
    """Every pane loaded, the checklist shown; its table and the row of the step titled ``step``."""
    await settle(app, pilot)
    await pilot.press("5")
    await settle(app, pilot)
    table = app.query_one("#pane-checklist .pane-table", RowsTable)
    return table, next(i for i in range(table.row_count) if step in str(table.get_row_at(i)[1]))


async def test_p_previews_publishes_and_a_second_publish_shows_the_new_sign_off_in_the_diff(sandbox, monkeypatch):
    monkeypatch.setattr(publishing, "SETTLE_S", 0.01)
    backend = build_backend(sandbox.config)
    async with running(backend) as (app, pilot):
        preview = await preview_after_p(app, pilot)
        assert "Would post a new status comment" in preview and "--- Markdown ---" in preview
        assert "(no status comment yet: this publish creates it)" in preview
        await pilot.press("n")
        await settle(app, pilot)
        assert status_comments(sandbox) == [], "cancelled: nothing sent"

        await preview_after_p(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        (first,) = status_comments(sandbox)

        table, row = await checklist_row(app, pilot, "Tutorials submitted")
        table.move_cursor(row=row)
        await pilot.press("space")
        await settle(app, pilot)

        preview = await preview_after_p(app, pilot)
        assert f"Would edit comment {first.id}" in preview
        assert "+| Tutorials submitted two weeks before the release | ✅ done |" in preview
        await pilot.press("y")
        await settle(app, pilot)
    (again,) = status_comments(sandbox)
    assert again.id == first.id and "signed: Tutorials submitted two weeks before the release" in again.body
    actions = [e.action for e in backend.state.audit_log() if e.outcome != "started"]
    assert actions[-3:] == ["overview.publish_status", "checklist.toggle", "overview.publish_status"]


async def test_a_viewer_elsewhere_sees_the_published_sign_off_without_the_managers_state_file(
    sandbox, monkeypatch, tmp_path
):
    """A viewer on another machine (its own empty state file, as a browser viewer served from elsewhere has)
    shows the step the release manager signed and published: the team's sign-offs come from the tracker."""
    from dataclasses import replace

    monkeypatch.setattr(publishing, "SETTLE_S", 0.01)
    step = "Tutorials submitted two weeks before the release"
    manager = build_backend(sandbox.config)
    app = CockpitApp(manager)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        table, row = await checklist_row(app, pilot, step)
        table.move_cursor(row=row)
        if str(table.get_row_at(row)[0]).strip() != "✔":  # not signed by an earlier test of this world yet
            await pilot.press("space")
            await settle(app, pilot)
        assert str(table.get_row_at(row)[0]).strip() == "✔"
        await preview_after_p(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
    manager.state.close()

    elsewhere = replace(sandbox.config, state_path=tmp_path / "viewer-state.toml")
    viewer = build_backend(elsewhere, read_only=True)
    app = CockpitApp(viewer)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        table, row = await checklist_row(app, pilot, step)
        assert str(table.get_row_at(row)[0]).strip() == "✔", table.get_row_at(row)
    viewer.state.close()
    assert not (tmp_path / "viewer-state.toml").exists() or viewer.state.signoffs() == {}
