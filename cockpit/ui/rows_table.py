"""The table of every table pane: a ``DataTable`` whose rows are replaced all at once.

``DataTable`` adds rows one by one (each ``add_row`` re-validates the cursor and schedules an idle
pass) and then measures every cell of every new row to size its columns, rendering each through
Rich: on 600 rows of nine columns, about a hundred milliseconds for every filter or sort keystroke.
``replace_rows`` puts the rows in place in one step without measuring them; the pane measures its
rows once per report with ``fit_columns`` (a ``Text``'s width is its longest line, nothing is
rendered), so a filter or a sort costs only the frame that shows it. Column widths only grow, as
with ``clear()`` and ``add_row``, and fit every row of the report: they do not jump while a filter
is typed. Each row's key objects and cells are kept until the next report (lookups by identity).

Its lines are drawn the quick way of ``cockpit.ui.table_lines``. This reaches into ``DataTable``'s
bookkeeping (``_data``, ``rows``, ``_row_locations``, its caches); Textual is pinned, and
``tests/ui/test_rows_table.py`` checks the rows and the frames drawn against ``DataTable``'s own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import zip_longest
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual._two_way_dict import TwoWayDict
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.render import measure
from textual.widgets._data_table import Row, RowKey, default_cell_formatter

from cockpit.ui.table_lines import QuickLines, empty_cache

__all__ = ["RowsTable", "cell_width", "empty_cache"]


def cell_width(cell: Any, console: Any) -> int:
    """The width ``DataTable`` measures for ``cell`` on one line (a ``Text``'s widest line)."""
    if isinstance(cell, Text):
        lines = cell.plain.splitlines()
        return max(map(cell_len, lines)) if lines else 0
    return measure(console, default_cell_formatter(cell, wrap=False, height=1), 1)


class RowsTable(QuickLines):
    """A ``DataTable`` whose rows a pane replaces in one step: ``fit_columns`` then ``replace_rows``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[str, tuple[Sequence[Any], Row, dict[Any, Any]]] = {}  # per row key: its last cells
        self._kept_columns: tuple[Any, ...] = ()

    def fit_columns(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Widen the auto-width columns to fit the cells of ``rows`` (key, cells); never narrows them."""
        cells_of = [cells for _key, cells in rows]
        self._plain_lines.clear()  # a new report: the lines and rows kept for the last one's cells are done with
        self._kept.clear()
        if not cells_of:
            return
        console = self.app.console
        for index, column in enumerate(self.ordered_columns):
            widest = max((cell_width(cells[index], console) for cells in cells_of if index < len(cells)), default=0)
            column.content_width = max(column.content_width, measure(console, column.label, 1), widest)
        self._require_update_dimensions = True
        self.check_idle()

    def replace_rows(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Show ``rows`` (key, cells), in this order, instead of the rows shown now; one line each.

        Their cells are not measured (``fit_columns`` them first). The cursor stays on the same row
        number, within the new count; the caller moves it. Raises ``ValueError`` on a repeated key or
        more cells than columns, as ``add_row`` does.
        """
        column_keys = tuple(column.key for column in self.ordered_columns)
        if column_keys != self._kept_columns:
            self._kept.clear()
            self._kept_columns = column_keys
        data: dict[RowKey, dict[Any, Any]] = {}
        table_rows: dict[RowKey, Row] = {}
        kept = self._kept
        for key, cells in rows:
            # The same key objects (and cells) as last time, when the pane gives the same cells: the
            # table's many lookups by key then find them by identity, not by comparing them.
            row = kept.get(key)
            if row is None or row[0] is not cells:
                if len(cells) > len(column_keys):
                    raise ValueError("More values provided than there are columns.")
                row_key = row[1].key if row is not None else RowKey(key)
                row = kept[key] = (cells, Row(row_key, 1), dict(zip_longest(column_keys, cells)))
            row_key = row[1].key
            if row_key in data:
                raise ValueError(f"The row key {key!r} is given twice.")
            data[row_key] = row[2]
            table_rows[row_key] = row[1]
        self._clear_caches()
        self._data = data
        self.rows = table_rows
        self._row_locations = TwoWayDict({row_key: index for index, row_key in enumerate(data)})
        self._new_rows.clear()  # nothing to measure
        self._update_count += 1
        # Sized here, as DataTable's idle pass would: that pass also forgets every line drawn and
        # lays the screen out again, which drew each filter or sort keystroke's rows twice.
        header_height = self.header_height if self.show_header else 0
        width = sum(column.get_render_width(self) for column in self.columns.values()) + self._row_label_column_width
        self.virtual_size = Size(width, self._total_row_height + header_height)
        cursor_row = min(self.cursor_coordinate.row, max(0, len(data) - 1))
        self.cursor_coordinate = Coordinate(cursor_row, self.cursor_coordinate.column)
        self.refresh()
