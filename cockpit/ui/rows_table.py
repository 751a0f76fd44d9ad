"""The table of every table pane: a ``DataTable`` whose rows are replaced all at once.

``DataTable`` adds rows one by one (each ``add_row`` re-validates the cursor and schedules an idle
pass) and then measures every cell of every new row to size its columns, rendering each through
Rich: on 600 rows of nine columns, about a hundred milliseconds for every filter or sort keystroke.
``replace_rows`` puts the rows in place in one step without measuring them; the pane measures its
rows once per report with ``fit_columns`` (a ``Text``'s width is its longest line, nothing is
rendered), so a filter or a sort costs only the frame that shows it. Column widths only grow, as
with ``clear()`` and ``add_row``, and fit every row of the report: they do not jump while a filter
is typed.

Drawing a frame after a filter or a sort renders every cell on screen again (some 400 at 160x50).
``DataTable`` passes each through three Rich layers (a style sandwich around a padding around the
text); a cell that is one line of plain ``Text`` in a one-line row, as every pane cell is, is drawn
here directly: the same characters and styles, a few times quicker. Anything else goes the usual way.
A cell's characters are kept until the next report (a filter, a sort or the focus moving changes
only their styles), and so are each row's key objects and cells (lookups by identity).

This reaches into ``DataTable``'s bookkeeping (``_data``, ``rows``, ``_row_locations``, its caches); Textual
is pinned, and ``tests/ui/test_rows_table.py`` checks the rows and the frames drawn against
``DataTable``'s own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import zip_longest
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual._two_way_dict import TwoWayDict
from textual.cache import LRUCache
from textual.color import Color
from textual.coordinate import Coordinate
from textual.geometry import Region, Size
from textual.render import measure
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable
from textual.widgets._data_table import Row, RowKey, default_cell_formatter

_NEWLINE = Text("\n")


def cell_width(cell: Any, console: Any) -> int:
    """The width ``DataTable`` measures for ``cell`` on one line (a ``Text``'s widest line)."""
    if isinstance(cell, Text):
        lines = cell.plain.splitlines()
        return max(map(cell_len, lines)) if lines else 0
    return measure(console, default_cell_formatter(cell, wrap=False, height=1), 1)


def empty_cache(cache: LRUCache[Any, Any]) -> None:
    """Empty ``cache`` so that what it held is freed at once: ``LRUCache.clear`` leaves its ring of
    links to the cycle collector, whose full passes then fall on keystrokes."""
    for link in cache._cache.values():
        link.clear()
    cache.clear()


def placed(style: Style, meta: Style) -> Style:
    """``style`` given the meta of ``meta`` (a cell's place): the style DataTable's order of additions,
    ``row + meta + component + segment + post``, gives when no other of them carries meta or a link
    (``meta`` only adds its meta and its link id; additions are otherwise as ``Style._add``)."""
    new: Style = Style.__new__(Style)
    new._ansi = None
    new._style_definition = None
    new._color = style._color
    new._bgcolor = style._bgcolor
    new._attributes = style._attributes
    new._set_attributes = style._set_attributes
    new._link = None
    new._link_id = meta._link_id
    new._null = False
    new._meta = meta._meta
    new._hash = None
    return new


class RowsTable(DataTable[Any]):
    """A ``DataTable`` whose rows a pane replaces in one step: ``fit_columns`` then ``replace_rows``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._styled_as: tuple[Any, ...] | None = None  # the style state of the lines in the caches
        self._lines_by_style: dict[tuple[Any, ...], tuple[Any, Any]] = {}  # per other focus state: its lines
        super().__init__(*args, **kwargs)  # it empties the caches
        self._plain_lines: dict[tuple[RowKey, Any, int], tuple[object, list[Segment] | None]] = {}
        self._frame_styles: dict[object, Any] | None = None  # while lines are drawn: styles worked out once
        self._kept: dict[str, tuple[Sequence[Any], Row, dict[Any, Any]]] = {}  # per row key: its last cells
        self._kept_columns: tuple[Any, ...] = ()
        self._drawn_size: Size | None = None  # the size at the last Resize
        self._metas: dict[tuple[int, int], Style] = {}  # per (row, column) on screen: the meta a click reads

    def _on_resize(self, event: events.Resize) -> None:
        # DataTable forgets every line it drew on each Resize, and a table shown again (a pane
        # switch) gets one at the size it had, a table whose filter line opens or closes one a line
        # shorter or taller: a line is drawn to the table's width only, so those lines are still right.
        if self._drawn_size is not None and event.size.width == self._drawn_size.width:
            event.prevent_default()  # not DataTable's handler
        self._drawn_size = event.size

    def render_lines(self, crop: Region) -> list[Strip]:
        # The table's style and each kind of row's style are worked out once for all the lines of a
        # frame, not twice per line (each walks every ancestor's styles).
        self._frame_styles = {}
        try:
            return super().render_lines(crop)
        finally:
            self._frame_styles = None

    @property
    def rich_style(self) -> Style:
        styles = self._frame_styles
        if styles is None:
            return super().rich_style
        style = styles.get("table")
        if style is None:
            style = styles["table"] = super().rich_style
        return style

    def _get_row_style(self, row_index: int, base_style: Style) -> Style:
        styles = self._frame_styles
        if styles is None:
            return super()._get_row_style(row_index, base_style)
        kind = (row_index == -1, row_index < self.fixed_rows, self.zebra_stripes and row_index % 2 == 1, base_style)
        style = styles.get(kind)
        if style is None:
            style = styles[kind] = super()._get_row_style(row_index, base_style)
        return style

    def _clear_caches(self) -> None:
        for cache in (
            self._row_render_cache,
            self._cell_render_cache,
            self._row_renderable_cache,
            self._line_cache,
            self._offset_cache,
            self._ordered_row_cache,
        ):
            empty_cache(cache)
        for caches in self._lines_by_style.values():
            for cache in caches:
                empty_cache(cache)
        self._lines_by_style.clear()
        super()._clear_caches()

    def _style_state(self) -> tuple[Any, ...]:
        """What the table's styles follow: the app's CSS and theme, its classes, its pseudo-classes last."""
        app = self.app
        return (app._css_update_count, app.theme, frozenset(self.classes), self.get_pseudo_class_state())

    def notify_style_update(self) -> None:
        # The focus moving restyles the table (its cursor's colours): DataTable forgets every line it
        # drew. The lines drawn in each focus state are kept instead, as long as nothing else in its
        # styles changed, so that a pane shown again is drawn from them (its rows, cursor and size are
        # in the lines' keys).
        before, after = self._styled_as, self._style_state()
        self._styled_as = after
        if before is None or before == after or before[:-1] != after[:-1]:
            self._clear_caches()
            super().notify_style_update()
            return
        self._lines_by_style[before] = (self._line_cache, self._row_render_cache)
        for state in [state for state in self._lines_by_style if state[:-1] != after[:-1]]:
            for cache in self._lines_by_style.pop(state):
                empty_cache(cache)
        self._line_cache, self._row_render_cache = self._lines_by_style.pop(after, None) or (
            LRUCache(1000),
            LRUCache(1000),
        )
        empty_cache(self._cell_render_cache)
        self._styles_cache.clear()
        self._get_styles_to_render_cell.cache_clear()
        Widget.notify_style_update(self)  # the widget's own style caches, not DataTable's lines
        self.refresh()

    def _render_line_in_row(
        self,
        row_key: RowKey,
        line_no: int,
        base_style: Style,
        cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[list[list[Segment]], list[list[Segment]]]:
        # DataTable works out, for every line, the header's style and the table's background (each
        # walks every ancestor's styles) and each column's width, whether the line needs them or not.
        # A one-line row of a table with a row cursor (or none) and no fixed columns or labels, as
        # every pane's is, is drawn here with what the frame worked out once: the same segments in
        # the same styles.
        frame = self._frame_styles
        row_index = self._row_locations.get(row_key)
        row = self.rows.get(row_key)
        if (
            frame is None
            or row_index is None
            or row is None
            or row.height != 1
            or row.auto_height
            or row_index < self.fixed_rows
            or self.fixed_columns
            or self.cursor_type not in ("row", "none")
            or (self._labelled_row_exists and self.show_row_labels)
        ):
            return super()._render_line_in_row(row_key, line_no, base_style, cursor_location, hover_location)
        cache_key = (
            row_key,
            line_no,
            base_style,
            cursor_location,
            hover_location,
            self.cursor_type,
            self.show_cursor,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )  # DataTable's own key for this row's line
        cached = self._row_render_cache.get(cache_key)
        if cached is not None:
            return cached
        columns = self._frame_columns(frame)
        row_style = self._get_row_style(row_index, base_style)
        row_cursor = self.cursor_type == "row"  # otherwise no cursor at all: no cell is lit
        cursor = row_cursor and cursor_location.row == row_index
        hover = row_cursor and hover_location.row == row_index
        component_style, post_style = self._cell_styles(frame, cursor, hover)
        # A cell's segments take the row's, the cursor's and their own styles, then the cell's place
        # (the meta a click reads): those styles are combined once per frame, the place added last.
        plain_styles = not any(s._meta or s._link for s in (row_style, component_style, post_style))
        combined = frame.setdefault(("combined", row_style, cursor, hover), {})
        metas = self._metas
        scrollable_row: list[list[Segment]] = []
        for column_index, (column_key, width) in enumerate(columns):
            text = self._plain_line(row_key, column_key, width)
            if text is None:
                scrollable_row.append(
                    self._render_cell(row_index, column_index, row_style, width, cursor, hover)[line_no]
                )
                continue
            meta = metas.get((row_index, column_index))
            if meta is None:
                if len(metas) > 50_000:
                    metas.clear()
                meta = metas[row_index, column_index] = Style.from_meta({"row": row_index, "column": column_index})
            if not plain_styles:
                pre_style = row_style + meta + component_style
                scrollable_row.append(list(Segment.apply_style(text, pre_style, post_style)))
                continue
            cell: list[Segment] = []
            for segment_text, segment_style, _control in text:
                if segment_style is not None and (segment_style._meta or segment_style._link):
                    cell.append(Segment(segment_text, row_style + meta + component_style + segment_style + post_style))
                    continue
                style = combined.get(segment_style)
                if style is None:
                    style = combined[segment_style] = row_style + component_style + segment_style + post_style
                cell.append(Segment(segment_text, placed(style, meta)))
            scrollable_row.append(cell)
        # Beyond the last column, as DataTable extends the row's styles to the table's edge.
        if row_cursor:
            extend_style, _ = self._cell_styles(frame, cursor, hover, plain=True)
            extend_style = row_style + extend_style
        elif row_style.bgcolor is not None:
            if "background" not in frame:
                frame["background"] = self.background_colors[1]
            faded = Color.from_rich_color(row_style.bgcolor).blend(frame["background"], factor=0.25)
            extend_style = Style.from_color(color=row_style.color, bgcolor=faded.rich_color)
        else:
            extend_style = Style.from_color(row_style.color, row_style.bgcolor)
        extend_style += Style.from_meta({"row": row_index, "column": 0, "out_of_bounds": True})
        remaining = max(0, self.size.width - sum(width for _key, width in columns) - self._row_label_column_width)
        scrollable_row.append([Segment(" " * remaining, extend_style)])
        row_pair: tuple[list[list[Segment]], list[list[Segment]]] = ([], scrollable_row)
        self._row_render_cache[cache_key] = row_pair
        return row_pair

    def _frame_columns(self, frame: dict[object, Any]) -> list[tuple[Any, int]]:
        """Each column's key and width on screen, worked out once per frame."""
        columns = frame.get("columns")
        if columns is None:
            columns = frame["columns"] = [
                (column.key, column.get_render_width(self)) for column in self.ordered_columns
            ]
        return columns

    def _cell_styles(
        self, frame: dict[object, Any], cursor: bool, hover: bool, plain: bool = False
    ) -> tuple[Style, Style]:
        """DataTable's component and post styles of a data cell (``plain``: of the space beyond the
        last column, which takes no CSS priority), worked out once per frame."""
        kind = ("cell", cursor, hover, plain)
        styles = frame.get(kind)
        if styles is None:
            styles = frame[kind] = self._get_styles_to_render_cell(
                False,
                False,
                False,
                hover,
                cursor,
                self.show_cursor,
                self._show_hover_cursor,
                not plain and self.cursor_foreground_priority == "css",
                not plain and self.cursor_background_priority == "css",
            )
        return styles

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> list[list[Segment]]:
        row_key = self._row_locations.get_key(row_index) if row_index >= 0 else None
        column_key = self._column_locations.get_key(column_index) if column_index >= 0 else None
        if row_key is None or column_key is None:  # the header row or the label column: the usual way
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        key = (
            row_key,
            column_key,
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )  # DataTable's own key for this cell: one cache for both ways of drawing it
        lines = self._cell_render_cache.get(key)
        if lines is not None:
            return lines
        text = self._plain_line(row_key, column_key, width)
        if text is None:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        component_style, post_style = self._get_styles_to_render_cell(
            False,
            False,
            row_index < self.fixed_rows or column_index < self.fixed_columns,
            hover,
            cursor,
            self.show_cursor,
            self._show_hover_cursor,
            self.cursor_foreground_priority == "css",
            self.cursor_background_priority == "css",
        )
        pre_style = base_style + Style.from_meta({"row": row_index, "column": column_index}) + component_style
        lines = [list(Segment.apply_style(text, pre_style, post_style))]
        self._cell_render_cache[key] = lines
        return lines

    def _plain_line(self, row_key: RowKey, column_key: Any, width: int) -> list[Segment] | None:
        """The cell's characters, padded to ``width``, before the table's styles, when it is one plain
        line of ``Text`` (None otherwise). Kept per cell: a filter, a sort or the focus moving
        changes the styles and the row numbers, not the characters."""
        if width <= 2 * self.cell_padding:
            return None
        row = self.rows.get(row_key)
        if row is None or row.height != 1 or row.auto_height:
            return None
        cell = self._data[row_key].get(column_key)
        known = self._plain_lines.get((row_key, column_key, width))
        if known is not None and known[0] is cell:
            return known[1]
        text = self._line_of(cell, width) if isinstance(cell, Text) and self._is_plain_line(cell) else None
        self._plain_lines[(row_key, column_key, width)] = (cell, text)
        return text

    def _is_plain_line(self, cell: object) -> bool:
        if type(cell) is not Text or cell.no_wrap is False or cell.justify not in (None, "default"):
            return False
        if "\n" in cell.plain or "\t" in cell.plain:
            return False
        frame = self._frame_styles
        if frame is None:
            return self.app.console_options.justify in (None, "default")
        if "justify" not in frame:  # the console's options are built anew on each look: once a frame
            frame["justify"] = self.app.console_options.justify
        return frame["justify"] in (None, "default")

    def _line_of(self, cell: Text, width: int) -> list[Segment]:
        """What ``Padding(cell, (0, p))`` draws on one line of ``width`` (the table adds its styles)."""
        padding = self.cell_padding
        inner = width - 2 * padding
        pad = [Segment(" " * padding)] if padding else []
        plain = cell.plain
        length = cell_len(plain)
        if not cell._spans and length <= inner:
            # One style over the whole text, nothing cut: the segments ``Text.render`` gives, directly.
            style = self.app.console.get_style(cell.style, default=Style.null()) if cell.style else None
            if style is not None and style.link:
                style = style.copy()
            segments = [Segment(plain, style)] if plain else []
            if length < inner:
                segments.append(Segment(" " * (inner - length)))
            return [*pad, *segments, *pad]
        line = cell
        if length > inner:  # cut to the column (as Padding's render does); otherwise the cell as it is
            line = cell.copy()
            line.end = ""
            line.truncate(inner, overflow=cell.overflow or self.app.console_options.overflow or "fold")
        line = _NEWLINE.join([line])  # as Text.__rich_console__ does: the text's own style becomes a span
        segments = Segment.adjust_line_length(list(line.render(self.app.console)), inner)
        return [*pad, *segments, *pad]

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
