"""Every table answers the keys release managers know from gh-dash and k9s: ``/`` filters by a
regular expression (``!`` inverts, ``esc`` clears), ``j``/``k``/``g``/``G`` move, ``s``/``S`` sort,
``y`` copies the row's URL or SHA. Each pane is mounted alone: quicker than the whole app."""

from __future__ import annotations

import pytest
from fake_backend import FakeBackend
from pane_alone import PaneAlone, settle
from textual.widgets import Static

from cockpit.ui.panes.branch_diff import BranchDiffPane
from cockpit.ui.panes.ci import CIPane
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio
SIZE = (160, 40)


def column(app, index: int) -> list[str]:
    table = app.query_one(".pane-table", RowsTable)
    return [str(table.get_row_at(i)[index]) for i in range(table.row_count)]


def tools_status(app) -> str:
    return str(app.query_one(".tools-status", Static).render())


async def test_a_filter_narrows_the_requests_inverts_with_a_bang_and_esc_brings_every_row_back():
    app = PaneAlone(FakeBackend(), PicksPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        everyone = column(app, 9)  # the author, after the Pick column
        assert {"alice", "bob", "carol"} <= set(everyone)
        await pilot.press("slash", *"carol|bob")
        assert sorted(column(app, 9)) == ["bob", "carol"]
        assert tools_status(app) == f"2 of {len(everyone)} rows"
        await pilot.press("enter", "j")  # the keys go back to the table at once
        assert app.query_one(".pane-table", RowsTable).cursor_row == 1
        await pilot.press("slash", "ctrl+u", *"!carol|bob")
        assert "carol" not in column(app, 9) and "bob" not in column(app, 9)
        assert len(column(app, 9)) == len(everyone) - 2
        await pilot.press("escape")
        assert column(app, 9) == everyone
        assert not app.query_one(".table-tools").display


async def test_an_invalid_regex_says_so_beside_the_input_and_hides_nothing():
    app = PaneAlone(FakeBackend(), PicksPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        rows = len(column(app, 0))
        await pilot.press("slash", *"fix(")
        assert tools_status(app).startswith("invalid regex: missing ), unterminated subpattern")
        assert len(column(app, 0)) == rows
        assert app.is_running


async def test_j_k_g_and_G_move_through_the_ci_rows_and_y_copies_the_head_sha():
    app = PaneAlone(FakeBackend(), CIPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        table = app.query_one(".pane-table", RowsTable)
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g", "y")
        assert app.clipboard == "a" * 40
        assert any(n.message == f"Copied: {'a' * 40}" for n in app.notices.said)


async def test_s_sorts_any_table_by_the_next_column_and_S_reverses_it():
    app = PaneAlone(FakeBackend(), CIPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        loaded = column(app, 0)
        await pilot.press("s")
        assert column(app, 0) == sorted(loaded)
        assert tools_status(app).startswith("sorted by Repository ▲")
        await pilot.press("S")
        assert column(app, 0) == sorted(loaded, reverse=True)
        await pilot.press(*"s" * len(app.query_one(".pane-table", RowsTable).columns))
        assert column(app, 0) == loaded, "past the last column the pane's own order comes back"


async def test_the_branch_pane_keeps_y_for_the_pick_command_and_copies_the_sha_with_Y():
    app = PaneAlone(FakeBackend(), BranchDiffPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"91305", "enter")
        await pilot.press("y")
        assert app.clipboard == f"git cherry-pick -x {'4' * 40}"
        await pilot.press("Y")
        assert app.clipboard == "4" * 40
