"""What every table pane shares, as in gh-dash and k9s: ``/`` filter (regex, ``!`` inverts, ``Esc``
clears), ``j``/``k``/``g``/``G`` to move, ``s``/``S`` (or a header click) to sort by a column, and
``y`` to copy the row's URL or SHA (OSC 52, so it works over ssh).

A pane declares its columns (``COLUMNS``, or ``columns()`` when it lays them out per report), each
with the key its rows sort by, and hands its rows to ``draw_rows`` in its own order: the filter
(over the text drawn) and the sort (over the row objects, ``cockpit.ui.table_sort``) apply there,
and the rows are put in the table at once (``cockpit.ui.rows_table``). A pane also says which text
is its row's link (``selected_link``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input, Static

from cockpit.domain.gates import Gate
from cockpit.ui.panes.base import Pane
from cockpit.ui.row_filter import RowFilter, parse_filter, row_text
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.table_parts import HeaderSelected
from cockpit.ui.table_sort import Column, TableRow, sort_rows


class FilterInput(Input):
    """The filter's input line; ``enter`` hands the keys back to the table at once (keys typed
    right after it must move the cursor, not extend the filter)."""

    async def action_submit(self) -> None:
        pane = next(a for a in self.ancestors if isinstance(a, TablePane))
        self.screen.set_focus(pane.table)  # now, not after the queued keys (Widget.focus defers)
        await super().action_submit()


class TablePane(Pane):
    """A pane whose body is a ``RowsTable`` of rows (every pane but the overview)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "slash",
            "start_filter",
            "Filter",
            key_display="/",
            id="table.filter",
            tooltip="Filter the rows by a regular expression (! in front hides the matches)",
        ),
        Binding(
            "escape",
            "clear_filter",
            "Clear filter",
            show=False,
            id="table.clear_filter",
            tooltip="Clear the filter and show every row",
        ),
        Binding("j", "cursor('down')", "Down", show=False, id="table.down", tooltip="Move down one row"),
        Binding("k", "cursor('up')", "Up", show=False, id="table.up", tooltip="Move up one row"),
        Binding("g", "cursor('first')", "First", show=False, id="table.first", tooltip="Go to the first row"),
        Binding("G", "cursor('last')", "Last", show=False, id="table.last", tooltip="Go to the last row"),
        Binding("s", "cycle_sort", "Sort", id="table.sort", tooltip="Sort by the next column (or click a header)"),
        Binding("S", "reverse_sort", "Reverse", show=False, id="table.sort_reverse", tooltip="Reverse the sort order"),
        Binding(
            "y",
            "copy_link",
            "Copy",
            id="table.copy",
            tooltip="Copy the selected row's URL or SHA to the clipboard (OSC 52)",
        ),
    ]
    LINK_NAME: ClassVar[str] = "URL"
    """What ``y`` copies, in words ("URL", "SHA", "command")."""
    SUMMARY_CLASSES: ClassVar[str] = ""
    """Classes of the one-line summary above the table (``pane-filter`` and the pane's own); "" for none."""
    COLUMNS: ClassVar[tuple[Column[Any], ...]] = ()
    """The columns added when the pane is built; a pane that lays its columns out per report adds
    them itself and says which they are in ``columns()``."""

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.row_filter = RowFilter()
        self.sort_column: int | None = None
        self.sort_reverse = False
        self._rows: list[TableRow[Any]] = []  # the rows the pane drew last, in its own order
        self._texts: list[str] = []  # their text, as the filter reads it
        self._drawn = 0  # rows the pane drew before the filter
        self._sort_keys: dict[int, list[Any]] = {}  # per column sorted by: each drawn row's sort key

    def compose_body(self) -> ComposeResult:
        if self.SUMMARY_CLASSES:
            yield Static("", classes=self.SUMMARY_CLASSES)
        with Horizontal(classes="table-tools"):
            yield Static("/", classes="tools-prompt")
            filter_input = FilterInput(
                placeholder="regex (!regex hides)", compact=True, select_on_focus=False, classes="filter-input"
            )
            filter_input.can_focus = False  # until / is pressed: tab and the first focus go to the table
            yield filter_input
            yield Static("", classes="tools-status")
        yield from super().compose_body()

    @property
    def table(self) -> RowsTable:
        return self.query_one(".pane-table", RowsTable)

    def on_mount(self) -> None:
        table = next(iter(self.query(".pane-table").results(RowsTable)), None)
        if table is None:  # the app closed while the pane was being mounted: its widgets are gone
            return
        for column in self.columns():
            table.add_column(column.title, key=column.id)

    def columns(self) -> Sequence[Column[Any]]:
        """The columns as drawn now, in order: what ``s``, ``S`` and a header click sort by (the
        repository column first in a release of several repositories)."""
        from cockpit.ui.repo_rows import REPO_COLUMN, spans_repositories

        return (REPO_COLUMN, *self.COLUMNS) if self.COLUMNS and spans_repositories(self) else self.COLUMNS

    def _show_gate_line(self, gate: Gate | None) -> None:
        """The pane's gate, or, with the repository filter on one domain library, that library's
        gate of the same name (``Cherry-picks clear [vision]``) once it is known."""
        from cockpit.domain.repos import repo_gate_name
        from cockpit.ui.host import host_of
        from cockpit.ui.repo_rows import repo_choice

        choice = repo_choice(self) if self.backend.config.repos else ""
        if gate is not None and choice and choice != self.backend.config.core.name:
            host = host_of(self)
            gates = host.gates if host is not None else {}
            gate = gates.get(repo_gate_name(gate.name, choice), gate)
        super()._show_gate_line(gate)

    def show_repository(self) -> None:
        """The repository filter or the libraries' reports changed: the rows and the gate line again."""
        self.rerender()
        self._show_gate_line(self._last_gate)

    def drawn_item(self, key: str | None) -> Any:
        """The row object drawn under ``key`` (None when no such row is drawn)."""
        if key is None:
            return None
        return next((row.item for row in self._rows if row.key == key), None)

    def sorted_by(self) -> Column[Any] | None:
        """The column the rows are sorted by, or None for the pane's own order."""
        columns = self.columns()
        if self.sort_column is not None and self.sort_column < len(columns):
            return columns[self.sort_column]
        return None

    @property
    def filter_input(self) -> Input:
        return self.query_one(".filter-input", Input)

    def draw_rows(self, rows: Iterable[TableRow[Any]]) -> None:
        """Fill the table with ``rows``, given in the pane's own order, under the ``/`` filter and the
        chosen sort: the columns are fitted to every row and the rows are put in place at once."""
        self._rows = list(rows)
        self._texts = [row_text(row.cells) for row in self._rows]
        self._sort_keys.clear()
        self.table.fit_columns((row.key, row.cells) for row in self._rows)
        self._fill()

    def _fill(self) -> None:
        rows = self._rows
        self._drawn = len(rows)
        shown: Sequence[int] = range(len(rows))
        if self.row_filter.active:
            keeps = self.row_filter.keeps
            shown = [index for index, text in enumerate(self._texts) if keeps(text)]
        column = self.sorted_by()
        if column is not None and self.sort_column is not None:
            keys = self._sort_keys.get(self.sort_column)
            if keys is None:  # once per column and report: a keystroke only compares them
                keys = self._sort_keys[self.sort_column] = [column.sort_key(row.item) for row in rows]
            shown = sort_rows(shown, keys.__getitem__, reverse=self.sort_reverse)
        self.table.replace_rows((rows[index].key, rows[index].cells) for index in shown)

    def render_report(self) -> None:
        self.show(self.report)
        self._show_tools()

    def sort_status(self) -> str:
        """ "sorted by State ▲" for the line beside the filter; "" when unsorted or said elsewhere."""
        column = self.sorted_by()
        if column is None or self.sort_column is None:
            return ""
        label = column.title.strip() or f"column {self.sort_column + 1}"
        return f"sorted by {label} {'▼' if self.sort_reverse else '▲'}"

    def _show_tools(self) -> None:
        table = self.table
        parts = []
        if self.row_filter.problem:
            parts.append(self.row_filter.problem)
        elif self.row_filter.active:
            parts.append(f"{table.row_count} of {self._drawn} rows")
        sort_words = self.sort_status()
        if sort_words:
            parts.append(sort_words)
        status = self.query_one(".tools-status", Static)
        status.update(Text(" · ".join(parts)))
        status.set_class(bool(self.row_filter.problem), "-red")
        self.filter_input.set_class(bool(self.row_filter.problem), "-bad-regex")
        tools = self.query_one(".table-tools")
        typing = self.screen.focused is self.filter_input  # has_focus lags behind set_focus
        tools.display = bool(self.row_filter.text or typing or parts)
        self.filter_input.can_focus = bool(self.row_filter.text or typing)

    def action_start_filter(self) -> None:
        self.query_one(".table-tools").display = True
        self.filter_input.can_focus = True
        # Now, not after the keys already queued (Widget.focus defers): the characters typed in
        # the same burst as '/' go to the filter, not to the table.
        self.screen.set_focus(self.filter_input)

    def action_clear_filter(self) -> None:
        had_filter = bool(self.row_filter.text)
        self.row_filter = RowFilter()
        self.filter_input.value = ""
        self.screen.set_focus(self.table)
        if had_filter:
            self.reorder()
        self._show_tools()

    def on_input_changed(self, event: Input.Changed) -> None:
        if not event.input.has_class("filter-input"):
            return
        event.stop()
        if event.value != self.row_filter.text:
            self.row_filter = parse_filter(event.value)
            self.reorder()
            self._show_tools()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.has_class("filter-input"):
            event.stop()

    def action_cursor(self, where: str) -> None:
        table = self.table
        if not table.row_count:
            return
        row = {"down": table.cursor_row + 1, "up": table.cursor_row - 1, "first": 0, "last": table.row_count - 1}[where]
        table.move_cursor(row=max(0, min(row, table.row_count - 1)), animate=False, scroll=True)

    def action_cycle_sort(self) -> None:
        count = len(self.columns())
        order = (None, *range(count))
        position = order.index(self.sort_column) if self.sort_column in order else 0
        self.sort_column, self.sort_reverse = order[(position + 1) % len(order)], False
        self._resort()

    def action_reverse_sort(self) -> None:
        self.sort_column = self.sort_column or 0
        self.sort_reverse = not self.sort_reverse
        self._resort()

    def on_rows_table_header_selected(self, event: HeaderSelected) -> None:
        event.stop()
        if event.column_index == self.sort_column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = event.column_index, False
        self._resort()

    def _resort(self) -> None:
        self.reorder()
        self._show_tools()

    def reorder(self) -> None:
        """The filter or the sort changed: the rows drawn last are filtered and sorted again, cursor
        kept; the pane's cells are not built anew (a keystroke on 600 rows stays quick)."""
        if self.report is not None:
            self._keeping_cursor(self._fill)

    def selected_link(self) -> str | None:
        """The URL or SHA of the selected row (panes override; None: nothing to copy)."""
        return None

    def action_copy_link(self) -> None:
        link = self.selected_link()
        if not link:
            self.notify(f"No {self.LINK_NAME} to copy for this row.", severity="warning", markup=False)
            return
        self.app.copy_to_clipboard(link)
        self.notify(f"Copied: {link}", title=f"Copied the {self.LINK_NAME}", markup=False)
