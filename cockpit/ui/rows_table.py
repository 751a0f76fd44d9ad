"""The table of every table pane and of the help screen, on Textual's public Line API.

A ``ScrollView`` whose ``render_line`` returns ``Strip``s, as Textual's own ``Log`` and Textualize's
toolong draw: it looks and answers like a ``DataTable`` with a row cursor (the same CSS, keys, mouse
and messages, the methods the panes call), but a pane hands it all its rows at once. ``DataTable``
adds rows one by one and then measures every cell of every new row, rendering each through Rich:
on 600 rows of nine columns, about a hundred milliseconds for every filter or sort keystroke. Here
the pane measures its rows once per report (``fit_columns``: widths only grow, so they do not jump
while a filter is typed; the widest are narrowed to the view, ``fit_widths``, on every resize) and
``replace_rows`` only puts them in their new order. A line is drawn by ``cockpit.ui.table_lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal

from rich.text import Text, TextType
from textual import events
from textual.binding import BindingType
from textual.coordinate import Coordinate
from textual.geometry import Region, Size, Spacing
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets.data_table import CellDoesNotExist, CellKey, ColumnKey, DuplicateKey, Row, RowDoesNotExist, RowKey

from cockpit.ui.table_lines import LineLook, TableLines, cell_width
from cockpit.ui.table_parts import (
    COMPONENTS,
    PREFIX,
    TABLE_BINDINGS,
    TABLE_CSS,
    HeaderSelected,
    RowHighlighted,
    RowSelected,
    TableColumn,
    fit_widths,
)

__all__ = ["RowsTable", "TableColumn", "cell_width"]


class RowsTable(ScrollView, can_focus=True):
    """Rows of cells under a header, with a row cursor (``cursor_type="row"``) or none."""

    ALLOW_SELECT = False
    FIT = True  # the widest columns narrow to the view (``fit_widths``); False: natural widths, scrolled sideways
    BINDINGS: ClassVar[list[BindingType]] = TABLE_BINDINGS
    COMPONENT_CLASSES: ClassVar[set[str]] = set(COMPONENTS)
    DEFAULT_CSS = TABLE_CSS

    cursor_coordinate: reactive[Coordinate] = reactive(Coordinate(0, 0), repaint=False, always_update=True)
    """Where the cursor is (its column is kept for ``coordinate_to_cell_key``)."""

    RowHighlighted = RowHighlighted
    RowSelected = RowSelected
    HeaderSelected = HeaderSelected

    def __init__(
        self,
        *,
        zebra_stripes: bool = False,
        cursor_type: Literal["row", "none"] = "row",
        show_cursor: bool = True,
        show_header: bool = True,
        cell_padding: int = 1,
        name: str | None = None,
        id: str | None = None,  # Textual's name for it
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.zebra_stripes, self.cursor_type, self.show_cursor = zebra_stripes, cursor_type, show_cursor
        self.show_header = show_header
        self.cell_padding = max(0, cell_padding)
        self.columns: dict[ColumnKey, TableColumn] = {}
        """The columns by key, in the order drawn."""
        self._rows: list[Row] = []  # in the order drawn
        self._index: dict[RowKey, int] = {}
        self._cells: dict[RowKey, Sequence[Any]] = {}
        self._kept: dict[str, tuple[Sequence[Any], Row]] = {}  # per row key: the last cells given and their row
        self.hover_coordinate = Coordinate(0, 0)
        self._hovering = False  # the mouse's row is lit only while the mouse moves over the table
        self._drawing = TableLines(PREFIX)

    # The rows and columns.

    @property
    def row_count(self) -> int:
        """How many rows are drawn."""
        return len(self._rows)

    @property
    def cursor_row(self) -> int:
        """The row under the cursor."""
        return self.cursor_coordinate.row

    @property
    def ordered_rows(self) -> list[Row]:
        """The rows in the order drawn."""
        return list(self._rows)

    @property
    def ordered_columns(self) -> list[TableColumn]:
        """The columns in the order drawn."""
        return list(self.columns.values())

    def add_column(self, label: TextType, *, width: int | None = None, key: str | None = None) -> ColumnKey:
        """Add a column (as wide as its cells unless ``width``); a string label is markup."""
        column_key = ColumnKey(key)
        if column_key in self.columns:
            raise DuplicateKey(f"The column key {key!r} already exists.")
        text = Text.from_markup(label) if isinstance(label, str) else label
        self.columns[column_key] = TableColumn(column_key, text, cell_width(text, self.app.console), width)
        for row in self._rows:
            self._cells[row.key] = (*self._cells[row.key], None)
        self._changed()
        return column_key

    def add_columns(self, *labels: TextType) -> list[ColumnKey]:
        """Add a column for each label."""
        return [self.add_column(label) for label in labels]

    def add_row(self, *cells: Any, key: str | None = None) -> RowKey:
        """Add a row at the bottom; the columns widen to fit it."""
        if len(cells) > len(self.columns):
            raise ValueError("More values provided than there are columns.")
        row_key = RowKey(key)
        if row_key in self._index:
            raise DuplicateKey(f"The row key {row_key!r} already exists.")
        self._fit([cells])
        self._index[row_key] = len(self._rows)
        self._rows.append(Row(row_key, 1))
        self._cells[row_key] = cells
        self._changed()
        if self.row_count == 1:
            self._highlight()
        return row_key

    def clear(self, columns: bool = False) -> None:
        """Remove every row (and every column with ``columns``); the cursor and scroll go home."""
        self._rows, self._index, self._cells = [], {}, {}
        self._kept.clear()
        if columns:
            self.columns.clear()
        self._changed()
        self.cursor_coordinate = Coordinate(0, 0)
        self.scroll_to(0, 0, animate=False, immediate=True)

    def fit_columns(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Widen the columns to fit the cells of ``rows`` (key, cells); never narrows them. A new
        report: the cells kept for the last one are done with."""
        self._kept.clear()
        self._drawing.forget_cells()
        self._fit([cells for _key, cells in rows])
        self._changed()

    def replace_rows(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Show ``rows`` (key, cells), in this order, instead of the rows shown now; one line each.

        Their cells are not measured (``fit_columns`` them first). The cursor stays on the same row
        number, within the new count; the caller moves it. Raises ``ValueError`` on a repeated key
        or more cells than columns, as ``add_row`` does.
        """
        count = len(self.columns)
        kept = self._kept
        ordered: list[Row] = []
        cells_of: dict[RowKey, Sequence[Any]] = {}
        for key, cells in rows:
            # The same key object for the same key, report after report: lookups find it by identity.
            known = kept.get(key)
            if known is None or known[0] is not cells:
                if len(cells) > count:
                    raise ValueError("More values provided than there are columns.")
                known = kept[key] = (cells, known[1] if known is not None else Row(RowKey(key), 1))
            row = known[1]
            if row.key in cells_of:
                raise ValueError(f"The row key {key!r} is given twice.")
            cells_of[row.key] = cells
            ordered.append(row)
        self._rows, self._cells = ordered, cells_of
        self._index = {row.key: index for index, row in enumerate(ordered)}
        self._changed()
        self.cursor_coordinate = self.cursor_coordinate  # within the new count

    def _fit(self, rows: Iterable[Sequence[Any]]) -> None:
        console, columns = self.app.console, self.ordered_columns
        for cells in rows:
            for column, cell in zip(columns, cells, strict=False):
                if column.width is None:
                    column.content_width = max(column.content_width, cell_width(cell, console))

    def _changed(self) -> None:
        """The rows, the columns or the view's width changed: new lines, a new size."""
        self._drawing.lines.clear()
        self.virtual_size = Size(sum(self._widths(self.size.width)), self.row_count + self._header_height)
        self.refresh()

    def _widths(self, view: int) -> list[int]:  # each column's width in a view ``view`` cells wide
        natural = [c.get_render_width(self.cell_padding) for c in self.ordered_columns]
        return fit_widths(natural, view) if self.FIT else natural

    def on_resize(self, _event: events.Resize) -> None:
        self._changed()  # the columns follow the terminal: recomputed on every resize

    @property
    def _header_height(self) -> int:
        return 1 if self.show_header else 0

    def get_row_index(self, row_key: RowKey | str) -> int:
        """Where the row of ``row_key`` is drawn; ``RowDoesNotExist`` when it is not."""
        index = self._index.get(row_key if isinstance(row_key, RowKey) else RowKey(row_key))
        if index is None:
            raise RowDoesNotExist(f"No row with key {row_key!r}.")
        return index

    def get_row(self, row_key: RowKey | str) -> list[Any]:
        """The cells of the row of ``row_key`` (None where a row has fewer cells than columns)."""
        return self.get_row_at(self.get_row_index(row_key))

    def get_row_at(self, row_index: int) -> list[Any]:
        """The cells of the row drawn at ``row_index``."""
        if not 0 <= row_index < self.row_count:
            raise RowDoesNotExist(f"No row at index {row_index}.")
        cells = list(self._cells[self._rows[row_index].key])
        return cells + [None] * (len(self.columns) - len(cells))

    def get_cell(self, row_key: RowKey | str, column_key: ColumnKey | str) -> Any:
        """The cell of a row in a column."""
        keys = list(self.columns)
        column = ColumnKey(column_key) if isinstance(column_key, str) else column_key
        if column not in self.columns:
            raise CellDoesNotExist(f"No column with key {column_key!r}.")
        return self.get_row(row_key)[keys.index(column)]

    def coordinate_to_cell_key(self, coordinate: Coordinate) -> CellKey:
        """The row and column keys of the cell at ``coordinate``."""
        row, column = coordinate
        if not (0 <= row < self.row_count and 0 <= column < len(self.columns)):
            raise CellDoesNotExist(f"No cell exists at {coordinate!r}.")
        return CellKey(self._rows[row].key, list(self.columns)[column])

    # The cursor.

    def validate_cursor_coordinate(self, value: Coordinate) -> Coordinate:
        return Coordinate(max(0, min(value.row, self.row_count - 1)), max(0, min(value.column, len(self.columns) - 1)))

    def watch_cursor_coordinate(self, old: Coordinate, new: Coordinate) -> None:
        if old != new:
            self.refresh()
            self._highlight()
            self.scroll_to_cursor()

    def _highlight(self) -> None:
        if self.show_cursor and self.cursor_type == "row" and self.row_count:
            row = self.cursor_row
            self.post_message(self.RowHighlighted(self, row, self._rows[row].key))

    def move_cursor(
        self, *, row: int | None = None, column: int | None = None, animate: bool = False, scroll: bool = True
    ) -> None:
        """Move the cursor to ``row`` (and ``column``), scrolling it into view unless told not to."""
        now = self.cursor_coordinate
        destination = Coordinate(now.row if row is None else row, now.column if column is None else column)
        if scroll:
            self.scroll_to_cursor(destination.row, animate=animate)
        self.cursor_coordinate = destination

    def scroll_to_cursor(self, row: int | None = None, animate: bool = False) -> None:
        """Scroll the cursor's row (or ``row``) into view, below the header."""
        if self.cursor_type != "row":
            return
        row = self.cursor_row if row is None else max(0, min(row, self.row_count - 1))
        width = self.virtual_size.width
        region = Region(int(self.scroll_x), row + self._header_height, width, 1)
        self.scroll_to_region(region, animate=animate, spacing=Spacing(self._header_height, 0, 0, 0), force=True)

    def _moving(self) -> bool:
        self._set_hover(False)
        return self.show_cursor and self.cursor_type == "row"

    def action_cursor_up(self) -> None:
        self._go(self.cursor_row - 1, self.scroll_up)

    def action_cursor_down(self) -> None:
        self._go(self.cursor_row + 1, self.scroll_down)

    def action_cursor_first(self) -> None:
        self._go(0, self.scroll_home)

    def action_cursor_last(self) -> None:
        self._go(self.row_count - 1, self.scroll_end)

    def _go(self, row: int, otherwise: Callable[[], object]) -> None:
        """The cursor to ``row``; with no cursor, scroll ``otherwise``."""
        if self._moving():
            self.cursor_coordinate = Coordinate(row, self.cursor_coordinate.column)
        else:
            otherwise()

    def action_page_down(self) -> None:
        page = max(1, self.scrollable_content_region.height - self._header_height)
        if self._moving():
            self.scroll_relative(y=page, animate=False, force=True)
            self.move_cursor(row=self.cursor_row + page - 1, scroll=False)
        else:
            self.scroll_page_down()

    def action_page_up(self) -> None:
        page = max(1, self.scrollable_content_region.height - self._header_height)
        if self._moving():
            self.scroll_relative(y=-page, animate=False)
            self.move_cursor(row=self.cursor_row - page + 1, scroll=False)
        else:
            self.scroll_page_up()

    def action_scroll_home(self) -> None:
        self._set_hover(False)
        self.scroll_x = 0

    def action_scroll_end(self) -> None:
        self._set_hover(False)
        self.scroll_x = self.max_scroll_x

    def action_select_cursor(self) -> None:
        if self._moving() and self.row_count:
            row = self.cursor_row
            self.post_message(self.RowSelected(self, row, self._rows[row].key))

    # The mouse: each cell's meta says where it is.

    def _set_hover(self, active: bool) -> None:
        if active != self._hovering:
            self._hovering = active
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        meta = event.style.meta
        if not meta or not self.show_cursor or self.cursor_type != "row" or "row" not in meta:
            self._set_hover(False)
            return
        self._hovering, self.hover_coordinate = True, Coordinate(meta["row"], meta["column"])
        self.refresh()

    def on_leave(self, _event: events.Leave) -> None:
        self._set_hover(False)

    def on_click(self, event: events.Click) -> None:
        self._set_hover(True)
        meta = event.style.meta
        if "row" not in meta or "column" not in meta:
            return
        row, column = meta["row"], meta["column"]
        if self.show_header and row == -1:
            column_key = list(self.columns)[column]
            self.post_message(self.HeaderSelected(self, column_key, column, self.columns[column_key].label))
        elif self.show_cursor and self.cursor_type == "row" and 0 <= row < self.row_count:
            again = row == self.cursor_row
            self.cursor_coordinate = Coordinate(row, column)
            if again:
                self.post_message(self.RowSelected(self, row, self._rows[row].key))
            self.scroll_to_cursor(animate=True)
            event.stop()

    # The lines.

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawing.forget_styles()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The focus or the theme moving may restyle only the component classes (the cursor's
        # colours), which does not notify the widget: the styles are looked at again then too.
        self._drawing.style_state((self.get_pseudo_class_state(), self.app.theme))
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        drawing = self._drawing
        styles = drawing.styles_of(self)
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        row_index = -1 if y < self._header_height else y - self._header_height + scroll_y
        if row_index >= self.row_count:
            return Strip.blank(width, styles.base)
        row_cursor = self.show_cursor and self.cursor_type == "row"
        cursor = row_cursor and row_index == self.cursor_row
        hover = row_cursor and self._hovering and row_index == self.hover_coordinate.row
        row_key = self._rows[row_index].key if row_index >= 0 else None
        key = (row_key, row_index, cursor, hover, row_cursor, width, scroll_x)
        strip = drawing.lines.get(key)
        if strip is None:
            columns = self.ordered_columns
            values = [c.label for c in columns] if row_key is None else self._cells[row_key]
            widths = self._widths(width)
            look = LineLook(row_index, self.zebra_stripes, row_cursor, cursor, hover)
            strip = drawing.lines[key] = drawing.draw(
                self.app, look, values, widths, width, scroll_x, self.cell_padding
            )
        return strip
