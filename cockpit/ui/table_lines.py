"""How the panes' tables draw their lines: what ``DataTable`` draws, in a fraction of its time.

Drawing a frame after a filter or a sort renders every cell on screen again (some 400 at 160x50).
``DataTable`` passes each through three Rich layers (a style sandwich around a padding around the
text); a cell that is one line of plain ``Text`` in a one-line row, as every pane cell is, is drawn
here directly: the same characters and styles, a few times quicker. Anything else goes the usual way.
A cell's characters are kept until the next report (a filter, a sort or the focus moving changes
only their styles).

A row's line takes the row's, the cursor's and each text's styles, worked out once per frame, and
then each cell's place (the meta a click or the mouse reads), added last; ``DataTable`` works all of
them out again for every cell, and walks every ancestor's styles twice a line.

The lines drawn are kept where ``DataTable`` forgets them although they are still right: on a
Resize that leaves the width as it was (a pane shown again, the filter line opening), and on a focus
change (the lines drawn in each focus state are kept, as long as nothing else in the styles changed).

This reaches into ``DataTable``'s bookkeeping (``_data``, ``rows``, ``_row_locations``, its caches) and
Rich's ``Style``; Textual is pinned, and ``tests/ui/test_rows_table.py`` checks the frames drawn
against ``DataTable``'s own.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.color import Color
from textual.coordinate import Coordinate
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable
from textual.widgets._data_table import RowKey

_NEWLINE = Text("\n")


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


class QuickLines(DataTable[Any]):
    """A ``DataTable`` that draws its one-line rows of plain ``Text`` the quick way (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._styled_as: tuple[Any, ...] | None = None  # the style state of the lines in the caches
        self._lines_by_style: dict[tuple[Any, ...], tuple[Any, Any]] = {}  # per other focus state: its lines
        super().__init__(*args, **kwargs)  # it empties the caches
        self._plain_lines: dict[tuple[RowKey, Any, int], tuple[object, list[Segment] | None]] = {}
        self._frame_styles: dict[object, Any] | None = None  # while lines are drawn: styles worked out once
        self._drawn_size: Size | None = None  # the size at the last Resize
        self._metas: dict[tuple[int, int], Style] = {}  # per (row, column) on screen: the meta a click reads
        self._placed: dict[tuple[Style, Style], Style] = {}  # per style and meta: the style with the meta

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
        metas, placed_styles = self._metas, self._placed
        if len(placed_styles) > 100_000:
            placed_styles.clear()
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
                    placed_styles.clear()
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
                # The same style in the same place is the same object from frame to frame: its hash,
                # and what the line filters worked out for it, are kept.
                final = placed_styles.get((style, meta))
                if final is None:
                    final = placed_styles[style, meta] = placed(style, meta)
                cell.append(Segment(segment_text, final))
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
