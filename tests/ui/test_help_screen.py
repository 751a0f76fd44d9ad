"""The help screen lists every key of the pane and of the app with its whole description, at any size
(issue 32: descriptions were cut mid-sentence at the dialog's edge)."""

from __future__ import annotations

import re

import pytest
from fake_backend import NOW, FakeBackend
from rich.console import Console
from textual.widgets import Static

from cockpit.ui.app import CockpitApp
from cockpit.ui.help import HelpScreen, key_table
from tests.pilot import settle

pytestmark = pytest.mark.anyio


def shown_text(screen: HelpScreen) -> str:
    """The help's tables as drawn at the width their widgets have, whitespace collapsed (a wrapped
    description reads on)."""
    out = []
    tables = list(screen.query(".help-table").results(Static))
    for (_title, rows), widget in zip(screen.sections, tables, strict=True):
        console = Console(width=widget.content_size.width, color_system=None)
        with console.capture() as captured:
            console.print(key_table(rows))
        out.append(captured.get())
    return re.sub(r"\s+", " ", " ".join(out))


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_every_description_is_shown_whole_at_every_size(size):
    app = CockpitApp(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("5", "question_mark")  # the checklist: the longest descriptions
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = shown_text(screen)
        rows = [row for _title, section in screen.sections for row in section]
        assert len(rows) > 20
        for key, description, binding_id in rows:
            assert " ".join(filter(None, (key, binding_id, description))) in text, (size, key, binding_id)
        for table in screen.query(".help-table").results(Static):  # nothing sticks out of the dialog
            assert table.content_size.width <= screen.query_one(".dialog").content_size.width
