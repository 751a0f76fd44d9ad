"""A PyTorch-sized tracker has 600 request rows: filtering them must not cost a pass over the table
per hidden row (removing rows one by one walked every row; 600 of them took seconds a keystroke):
the pane hands the table the rows it keeps, in one step."""

from __future__ import annotations

import pytest
from fake_backend import FakeBackend
from pane_alone import PaneAlone, settle

from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.table_sort import Column, TableRow, text_key

pytestmark = pytest.mark.anyio
ROWS = 600


class LongTable(TablePane):
    """A table pane over a report of ``ROWS`` request-like rows."""

    PANE = "long"
    COLUMNS = (Column("number", "PR", lambda row: text_key(row[0])), Column("status", "Status", lambda row: row[1]))

    def fetch(self) -> list[tuple[str, str]]:
        return [(f"#{90000 + k}", "under review" if k % 10 == 0 else "accepted") for k in range(ROWS)]

    def show(self, report: list[tuple[str, str]]) -> None:
        self.draw_rows(TableRow(number, (number, status), (number, status)) for number, status in report)


async def test_filtering_600_rows_drops_the_hidden_ones_in_one_rebuild():
    app = PaneAlone(FakeBackend(), LongTable)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        table = app.query_one(".pane-table", RowsTable)
        assert table.row_count == ROWS
        await pilot.press("slash", *"review")
        assert table.row_count == ROWS // 10
        assert [str(table.get_row_at(i)[0]) for i in range(2)] == ["#90000", "#90010"]
        await pilot.press("escape")
        assert table.row_count == ROWS
