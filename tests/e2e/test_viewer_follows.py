"""Someone watches the release in the viewer while the release manager ticks steps elsewhere:
the viewer shows each tick within a couple of seconds, without touching the file."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from cockpit.bootstrap import build_backend
from cockpit.state.store import StateStore
from cockpit.ui.rows_table import RowsTable

from .driving import running

pytestmark = pytest.mark.anyio


def step_row(app, step_id: str) -> str:
    table = app.query_one("#pane-checklist .pane-table", RowsTable)
    return " ".join(str(c) for c in table.get_row(step_id))


async def wait_for(pilot, condition, seconds: float = 3.0) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        if condition():
            return True
        await pilot.pause(0.05)
    return condition()


async def test_the_viewer_shows_the_release_managers_tick_within_seconds(sandbox):
    config = sandbox.config
    manager = StateStore(config.resolved_state_path)  # the release manager's session holds the lock
    manager.set_signoff("rc_health", done=False, who="Release Manager")
    viewer = build_backend(config, read_only=True)
    try:
        async with running(viewer) as (app, pilot):
            await pilot.press("5")
            assert "signed by" not in step_row(app, "perf_no_regression")

            manager.set_signoff("perf_no_regression", done=True, who="Release Manager", note="no regression vs 2.4.1")
            assert await wait_for(pilot, lambda: "signed by Release Manager" in step_row(app, "perf_no_regression"))
            assert "no regression vs 2.4.1" in step_row(app, "perf_no_regression")

            manager.set_signoff("perf_no_regression", done=False, who="Release Manager")
            assert await wait_for(pilot, lambda: "signed by" not in step_row(app, "perf_no_regression"))
            assert not app.unexpected_errors
    finally:
        manager.close()
    assert viewer.state.read_only


def test_cockpit_view_state_follows_the_named_file_read_only(sandbox, tmp_path, monkeypatch):
    from cockpit.cli import commands

    opened = {}
    monkeypatch.setattr(
        commands, "open_app", lambda config, *, read_only: opened.update(config=config, ro=read_only) or 0
    )
    other = tmp_path / "elsewhere" / "their-state.toml"
    args = argparse.Namespace(config=sandbox.config_path, state=other, read_only=False, debug=False)
    assert commands.run_view(args) == 0
    assert opened["ro"] is True
    assert opened["config"].resolved_state_path == other
