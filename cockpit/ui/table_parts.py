"""What a ``RowsTable`` is made of besides its lines: its columns, messages, keys and look.

The messages are the ones a pane handles as ``on_rows_table_row_selected`` and so on; the look is
``DataTable``'s own CSS under the table's component classes (``rows-table--cursor``, ...), so that
a pane looks as it did when its table was a ``DataTable``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets.data_table import ColumnKey, RowKey

TABLE_BINDINGS: list[BindingType] = [
    Binding(key, action, title, show=False, id=f"rows.{action}", tooltip=tip)
    for key, action, title, tip in (
        ("enter", "select_cursor", "Select", "Open the row under the cursor"),
        ("up", "cursor_up", "Cursor up", "Move the cursor up one row"),
        ("down", "cursor_down", "Cursor down", "Move the cursor down one row"),
        ("right", "scroll_right", "Scroll right", "Scroll the table right"),
        ("left", "scroll_left", "Scroll left", "Scroll the table left"),
        ("pageup", "page_up", "Page up", "Move the cursor up one page"),
        ("pagedown", "page_down", "Page down", "Move the cursor down one page"),
        ("ctrl+home", "cursor_first", "Top", "Move the cursor to the first row"),
        ("ctrl+end", "cursor_last", "Bottom", "Move the cursor to the last row"),
        ("home", "scroll_home", "Home", "Scroll to the table's left edge"),
        ("end", "scroll_end", "End", "Scroll to the table's right edge"),
    )
]
"""``DataTable``'s keys, for a row cursor."""

PREFIX = "rows-table"
"""The start of the table's component classes' names."""

COMPONENTS = frozenset(
    f"{PREFIX}--{name}"
    for name in ("cursor", "hover", "header", "header-cursor", "header-hover", "odd-row", "even-row")
)

TABLE_CSS = """
RowsTable {
    background: $surface;
    color: $foreground;
    height: auto;
    max-height: 100%;
    &:focus {
        background-tint: $foreground 5%;
        & > .rows-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .rows-table--header {
            background-tint: $foreground 5%;
        }
    }
    &:dark {
        & > .rows-table--even-row {
            background: $surface-darken-1 40%;
        }
    }
    & > .rows-table--header {
        text-style: bold;
        background: $panel;
        color: $foreground;
    }
    &:ansi > .rows-table--header {
        background: ansi_bright_blue;
        color: ansi_default;
    }
    & > .rows-table--odd-row {
    }
    & > .rows-table--even-row {
        background: $surface-lighten-1 50%;
    }
    & > .rows-table--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    & > .rows-table--header-cursor {
        background: $accent-darken-1;
        color: $foreground;
    }
    & > .rows-table--header-hover {
        background: $accent 30%;
    }
    & > .rows-table--hover {
        background: $block-hover-background;
    }
}
"""
"""``DataTable``'s default CSS (Textual 8.2), under the table's own type and component classes."""


@dataclass
class TableColumn:
    """A column: its key, its header and how wide its content is drawn (``width`` when fixed)."""

    key: ColumnKey
    label: Text
    content_width: int = 0
    width: int | None = None

    def get_render_width(self, cell_padding: int) -> int:
        """The column's width on screen, with ``cell_padding`` on either side."""
        return 2 * cell_padding + (self.content_width if self.width is None else self.width)


FIT_FLOOR = 8
"""No column is narrowed below this many cells (padding included) to fit the view."""


def fit_widths(natural: Sequence[int], available: int, *, floor: int = FIT_FLOOR) -> list[int]:
    """Column widths for a view ``available`` cells wide: the natural ones when they fit, else the widest
    columns narrowed to one common cap (their text then ends in "…", whole in the detail view), never
    below ``floor``; when even that does not fit, the table scrolls sideways as before."""
    if sum(natural) <= available or available <= 0:
        return list(natural)
    low, high = floor, max(natural)
    while low < high:  # the largest cap with which the columns fit
        cap = (low + high + 1) // 2
        if sum(min(n, cap) for n in natural) <= available:
            low = cap
        else:
            high = cap - 1
    return [min(n, low) for n in natural]


class TableMessage(Message):
    """What a ``RowsTable`` tells its pane; ``control`` is the table, as Textual's own tables say."""

    def __init__(self, table: Widget) -> None:
        self.table = table
        super().__init__()

    @property
    def control(self) -> Widget:
        """The table the message is about."""
        return self.table


class RowMessage(TableMessage):
    """A row of the table: where the cursor is and the row's key."""

    def __init__(self, table: Widget, cursor_row: int, row_key: RowKey) -> None:
        self.cursor_row = cursor_row
        self.row_key = row_key
        super().__init__(table)


class RowHighlighted(RowMessage, namespace="rows_table"):
    """The cursor moved to another row (``on_rows_table_row_highlighted``)."""


class RowSelected(RowMessage, namespace="rows_table"):
    """``enter`` on a row, or a click on the row under the cursor (``on_rows_table_row_selected``)."""


class HeaderSelected(TableMessage, namespace="rows_table"):
    """A click on a column's header (``on_rows_table_header_selected``)."""

    def __init__(self, table: Widget, column_key: ColumnKey, column_index: int, label: Text) -> None:
        self.column_key = column_key
        self.column_index = column_index
        self.label = label
        super().__init__(table)
