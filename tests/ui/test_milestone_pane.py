"""The milestone pane as the release manager narrows it down: by state, kind and label, sorted by
any column, with the items skipped by label kept apart and the PRs linked to each item shown."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import NOW, FakeBackend
from fake_world import milestone_report
from pane_alone import PaneAlone, settle
from textual.widgets import Static

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.milestone import MilestonePane
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio


URL = "https://github.com/acme/torchlet"


class MilestoneBackend(FakeBackend):
    """The hand-made milestone plus a PR that fixes issue #91240, and a validated closed issue."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.state.ledger_put("acme/torchlet#90877:validation", 555)

    def load_milestone(self):
        report = milestone_report(NOW)
        fix = MilestoneItem(
            91245,
            ItemKind.PULL,
            "Fix the A100 compile regression",
            ItemState.OPEN,
            f"{URL}/pull/91245",
            ("regression", "module: inductor"),
            ("bob",),
            updated_at=NOW - timedelta(days=1),
            linked_prs=(91240,),
            body="Fixes #91240",
        )
        return self._load("milestone", lambda: replace(report, items=(*report.items, fix)))


def make_app() -> PaneAlone:
    app = PaneAlone(MilestoneBackend(), MilestonePane)
    return app


def numbers(app) -> list[str]:
    table = app.query_one("#pane-milestone .pane-table", RowsTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


def filter_line(app) -> str:
    return str(app.query_one("#pane-milestone .pane-filter", Static).render())


async def test_the_label_key_cycles_through_the_labels_present_and_back_to_all():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        everything = numbers(app)
        assert len(everything) == 7
        await pilot.press("l")  # labels sorted: module: cuda, module: docs, module: inductor, module: nn, ...
        assert "label module: cuda" in filter_line(app) and numbers(app) == ["#91301"]
        for _ in range(4):
            await pilot.press("l")
        assert "label regression" in filter_line(app)
        assert numbers(app) == ["#91240", "#91245"]
        await pilot.press("f", "p")
        assert numbers(app) == ["#91245"]
        await pilot.press("f", "p")
        for _ in range(3):  # regression -> release notes -> triaged -> all
            await pilot.press("l")
        assert "(open and closed, issues and PRs)" in filter_line(app) and numbers(app) == everything


async def test_s_cycles_the_sort_column_and_a_header_click_sorts_and_reverses():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        assert "sorted by number" in filter_line(app)
        assert numbers(app) == sorted(numbers(app), key=lambda n: int(n[1:]))
        await pilot.press("S")
        assert numbers(app)[0] == "#91301" and "reversed" in filter_line(app)
        await pilot.press("s", "s")
        assert "sorted by state" in filter_line(app)
        assert numbers(app)[:3] == ["#91234", "#91240", "#91245"]  # open first
        await pilot.click("#pane-milestone .pane-table", offset=(3, 0))  # the "#" header
        assert "sorted by number" in filter_line(app) and "reversed" not in filter_line(app)
        await pilot.click("#pane-milestone .pane-table", offset=(3, 0))
        assert "reversed" in filter_line(app)


async def test_skipped_items_are_named_apart_and_a_shows_them_instead_of_the_counted_ones():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        assert "1 skipped by label, apart: #91000 (a)" in filter_line(app)
        assert "#91000" not in numbers(app)
        await pilot.press("a")
        assert numbers(app) == ["#91000"] and "not counted by the gate" in filter_line(app)
        await pilot.press("a")
        assert "#91000" not in numbers(app)


async def test_linked_prs_and_the_validation_mark_show_in_the_row_and_the_detail():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table = app.query_one("#pane-milestone .pane-table", RowsTable)
        assert str(table.get_cell("91240", "linked")) == "#91245"
        assert str(table.get_cell("91245", "linked")) == "#91240"
        assert str(table.get_cell("90877", "state")) == "closed ✓ validated"
        assert str(table.get_cell("91102", "state")) == "merged"
        table.move_cursor(row=table.get_row_index("91240"))
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        assert "Linked PRs: #91245" in app.screen.lines


async def test_long_titles_are_cut_so_the_other_columns_stay_on_screen():
    app = make_app()
    long_title = "A very long title " * 8
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        pane = app.pane("milestone")
        item = pane.report.items[0]
        pane.report = replace(pane.report, items=(replace(item, title=long_title), *pane.report.items[1:]))
        pane.show(pane.report)
        cell = str(pane.table.get_cell(str(item.number), "title"))
        assert cell.endswith("…") and len(cell) == 48
