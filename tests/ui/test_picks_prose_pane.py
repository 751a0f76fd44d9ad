"""A request read from prose in the cherry-pick pane: its flags say "read from prose", its detail
shows the sentence it was read from, and ``v`` confirms the reading (again: withdraws it)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import NOW, FakeBackend
from fake_world import picks_report
from pane_alone import PaneAlone, settle

from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef, ReadingConfirmed
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio

SENTENCE = "Could #22909 be accepted in v2.5.0 as well?"


class ProseBackend(FakeBackend):
    def load_picks(self):
        request = PickRequest(
            21,
            "vish",
            SENTENCE + " It only touches the docs build.",
            trunk_prs=(PRRef(22909),),
            free_form=True,
            prose=(SENTENCE,),
            created_at=NOW - timedelta(days=1),
        )
        confirmed = "acme/torchlet#comment-21" in self.state.pick_readings()
        flags = (PickFlag.NO_RELEASE_PR,) + (() if confirmed else (PickFlag.READ_FROM_PROSE,))
        row = PickRow(request, PickStatus.NO_RELEASE_PR, flags, 1.0, notes=("read from prose (trunk #22909)",))
        report = picks_report(NOW)
        return self._load("picks", lambda: replace(report, rows=(*report.rows, row)))


async def test_a_prose_request_says_so_shows_its_sentence_and_is_confirmed_with_v():
    backend = ProseBackend()
    app = PaneAlone(backend, PicksPane)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table = app.query_one("#pane-picks .pane-table", RowsTable)
        assert "read from prose" in str(table.get_cell("21", "flags"))
        table.move_cursor(row=table.get_row_index("21"))
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, DetailScreen)
        assert f"Read from prose: \u201c{SENTENCE}\u201d" in screen.lines
        assert "Check the reading against the sentence, then confirm it: v" in screen.lines
        await pilot.press("escape")
        await pilot.press("v")
        await settle(app, pilot)
        assert backend.actions.runs[-1] == (
            "picks.confirm_reading",
            ReadingConfirmed("acme/torchlet#comment-21", "trunk #22909"),
        )
        table = app.query_one("#pane-picks .pane-table", RowsTable)
        assert "read from prose" not in str(table.get_cell("21", "flags"))
        table.move_cursor(row=table.get_row_index("21"))
        await pilot.press("v")
        await settle(app, pilot)
        assert backend.actions.runs[-1] == ("picks.confirm_reading", ReadingConfirmed("acme/torchlet#comment-21", None))


async def test_v_on_a_request_not_read_from_prose_confirms_nothing():
    backend = ProseBackend()
    app = PaneAlone(backend, PicksPane)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table = app.query_one("#pane-picks .pane-table", RowsTable)
        table.move_cursor(row=0)
        await pilot.press("v")
        await settle(app, pilot)
        assert not any(run[0] == "picks.confirm_reading" for run in backend.actions.runs)
