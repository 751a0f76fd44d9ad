"""The help screen draws its key tables with the panes' table (``RowsTable``, on Textual's public
Line API): what it shows must be exactly what ``DataTable`` showed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_backend import NOW, FakeBackend
from textual.widgets import DataTable

import cockpit.ui.help
from cockpit.ui.app import CockpitApp
from cockpit.ui.help import HelpScreen
from cockpit.ui.rows_table import RowsTable
from tests.pilot import settle

pytestmark = pytest.mark.anyio


async def help_shot(monkeypatch: pytest.MonkeyPatch, table_class: type[DataTable | RowsTable]) -> str:
    monkeypatch.setattr(cockpit.ui.help, "RowsTable", table_class)
    backend = FakeBackend()
    backend.config = replace(backend.config, keymap={"table.sort": "o", "picks.merge": ""})
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=(160, 60)) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert all(type(table) is table_class for table in app.screen.query(".help-table"))
        return app.export_screenshot()


async def test_the_help_screen_looks_as_it_did_with_datatable(monkeypatch):
    quick = await help_shot(monkeypatch, cockpit.ui.help.RowsTable)
    assert quick == await help_shot(monkeypatch, DataTable)
