"""How a ``RowsTable`` draws a line: the characters of each cell, then the table's styles on them.

A table line is drawn the way Textual's ``DataTable`` draws it (the same characters, colours and
the meta a click or the mouse reads), with Rich's public API only: each cell is ``Padding(cell,
(0, 1))`` rendered on one line of its column's width, under the row's, the cursor's and the cell's
own styles, in that order.

The characters and the styles are worked out apart, because they change apart. A cell's characters
(``cell_segments``) depend on the cell and its column's width only: the table keeps them until the
next report. A filter, a sort or the focus moving changes only the styles and the row numbers, and
``TableStyles`` works those out once per style change, not once per cell. A one-line plain ``Text``,
as every pane's cell is, is cut and padded here directly (what Rich's ``Padding`` and ``Text.render``
give, a few times quicker); anything else goes through Rich's own rendering.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.padding import Padding
from rich.protocol import is_renderable
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.render import measure
from textual.strip import Strip

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

_NEWLINE = Text("\n")
_LONG_WAY = Style(bold=True)  # told apart by identity: a segment whose style carries meta or a link
_EMPTY = Text()


def cell_renderable(value: object) -> RenderableType:
    """What a one-line row shows for ``value``, as ``DataTable`` formats a cell: a string is markup
    (its first line only), a float has two decimals, a renderable is itself, anything else its
    ``str``; nothing (None, "") is an empty ``Text``."""
    if value is None:
        return _EMPTY
    if isinstance(value, str):
        first = value.split("\n", 1)[0]
        return Text.from_markup(first, end="") or _EMPTY
    if isinstance(value, float):
        return Text(f"{value:.2f}", no_wrap=True, end="")
    if not is_renderable(value):
        return Text(str(value), no_wrap=True, end="") or _EMPTY
    if isinstance(value, Text) and not value:
        return _EMPTY
    return value  # type: ignore[return-value]  # is_renderable said so


def cell_width(value: object, console: Console) -> int:
    """The width a cell's content takes on one line (a ``Text``'s widest line, a renderable's
    widest measure)."""
    cell = cell_renderable(value)
    if isinstance(cell, Text):
        lines = cell.plain.splitlines()
        return max(map(cell_len, lines)) if lines else 0
    return measure(console, cell, 1)


def cell_segments(
    cell: RenderableType, width: int, padding: int, console: Console, options: ConsoleOptions
) -> list[Segment]:
    """The characters of ``cell`` drawn on one line of ``width`` cells with ``padding`` on each side,
    before the table's styles: what ``Padding(cell, (0, padding))`` renders there."""
    if isinstance(cell, Text) and width > 2 * padding and _is_plain_line(cell, options):
        return _plain_line(cell, width, padding, console, options)
    line_options = options.update_dimensions(width, 1).update(no_wrap=True)
    return console.render_lines(Padding(cell, (0, padding)), line_options)[0]


def _is_plain_line(cell: Text, options: ConsoleOptions) -> bool:
    if type(cell) is not Text or cell.no_wrap is False or cell.justify not in (None, "default"):
        return False
    if "\n" in cell.plain or "\t" in cell.plain:
        return False
    return options.justify in (None, "default")


def _plain_line(cell: Text, width: int, padding: int, console: Console, options: ConsoleOptions) -> list[Segment]:
    """What ``Padding(cell, (0, padding))`` draws on one line of ``width`` for a one-line ``Text``."""
    inner = width - 2 * padding
    pad = [Segment(" " * padding)] if padding else []
    plain = cell.plain
    length = cell_len(plain)
    if not cell.spans and length <= inner:
        # One style over the whole text, nothing cut: the segments ``Text.render`` gives, directly.
        style = console.get_style(cell.style, default=Style.null()) if cell.style else None
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
        line.truncate(inner, overflow=cell.overflow or "ellipsis")  # cut text says so: "…"
    line = _NEWLINE.join([line])  # as Text.__rich_console__ does: the text's own style becomes a span
    segments = Segment.adjust_line_length(list(line.render(console)), inner)
    return [*pad, *segments, *pad]


@dataclass(frozen=True)
class TableStyles:
    """The styles of one table in its present style state (theme, focus, classes): the table's
    own, the header's, each zebra stripe's and the cursor's and the mouse's, from its component
    classes; the order in which a cell adds them is ``DataTable``'s."""

    base: Style
    background: Color
    header: Style
    even_row: Style
    odd_row: Style
    cursor: Style
    hover: Style
    header_cursor: Style
    header_hover: Style

    @classmethod
    def of(cls, widget: Widget, prefix: str) -> TableStyles:
        """The styles of ``widget`` whose component classes are named ``<prefix>--cursor`` etc."""

        def rows(name: str) -> Style:
            return widget.get_component_styles(f"{prefix}--{name}").rich_style

        def component(name: str) -> Style:
            return widget.get_component_rich_style(f"{prefix}--{name}")

        return cls(
            base=widget.rich_style,
            background=widget.background_colors[1],
            header=rows("header"),
            even_row=rows("even-row"),
            odd_row=rows("odd-row"),
            cursor=component("cursor"),
            hover=component("hover"),
            header_cursor=component("header-cursor"),
            header_hover=component("header-hover"),
        )

    def row(self, row_index: int, zebra: bool) -> Style:
        """The style of a row (-1: the header)."""
        if row_index == -1:
            return self.header
        if zebra:
            return self.odd_row if row_index % 2 else self.even_row
        return self.base

    def cell(self, header: bool, cursor: bool, hover: bool, css_foreground: bool = True) -> tuple[Style, Style]:
        """The cursor's and the mouse's style over a cell, and the style put after the cell's own
        (the cursor's colour, which wins over the text's when ``css_foreground``)."""
        component = Style()
        if hover:
            component += self.hover
            if header:
                component += self.header_hover
        if cursor:
            component += self.cursor
            if header:
                component += self.header_cursor
        post = Style.from_color(color=component.color) if css_foreground else Style.null()
        return component, post

    def beyond(self, row_index: int, zebra: bool, row_cursor: bool, cursor: bool, hover: bool) -> Style:
        """The style of the blank beyond the last column, which the row's colours reach."""
        row_style = self.row(row_index, zebra)
        if row_cursor:
            component, _post = self.cell(row_index == -1, cursor, hover, css_foreground=False)
            return row_style + component
        if row_style.bgcolor is not None:
            faded = Color.from_rich_color(row_style.bgcolor).blend(self.background, factor=0.25)
            return Style.from_color(color=row_style.color, bgcolor=faded.rich_color)
        return Style.from_color(row_style.color, row_style.bgcolor)


@dataclass(frozen=True)
class LineLook:
    """What a line's styles follow: its row (-1: the header), the stripes, the cursor and the mouse."""

    row: int
    zebra: bool
    row_cursor: bool
    cursor: bool
    hover: bool


class TableLines:
    """One table's drawing: its styles, each cell's characters and each line drawn, kept until
    what they follow changes (``forget_*``)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.lines: dict[tuple[Any, ...], Strip] = {}
        """The lines drawn, by what they show (the table keys them). A plain dict, emptied when
        full: an ``LRUCache``'s ring of links would leave every line to the cycle collector."""
        self._styles: TableStyles | None = None
        self._state: object = None
        self._characters: dict[tuple[int, int], tuple[object, list[Segment]]] = {}  # per (id(cell), width)
        self._metas: dict[tuple[int, int], Style] = {}
        self._cell_styles = CellStyles()

    def forget_styles(self) -> None:
        """The table's styles changed: every line is drawn again."""
        self._styles = None
        self._cell_styles.forget()
        self.lines.clear()

    def forget_cells(self) -> None:
        """A new report: the characters of the last one's cells are done with."""
        self._characters.clear()
        self.lines.clear()

    def style_state(self, state: object) -> None:
        """What the table's styles follow now (its pseudo-classes, the theme): when it changed,
        the styles are looked up again."""
        if state != self._state:
            self._state = state
            self.forget_styles()

    def styles_of(self, widget: Widget) -> TableStyles:
        """The table's styles, looked up once per style change."""
        if self._styles is None:
            self._styles = TableStyles.of(widget, self.prefix)
        return self._styles

    def draw(
        self,
        app: App[Any],
        look: LineLook,
        values: Sequence[Any],
        widths: Sequence[int],
        width: int,
        x: int,
        padding: int,
    ) -> Strip:
        """The line of a row whose cells are ``values`` in columns of ``widths``, in a table
        ``width`` wide scrolled ``x`` cells to the right."""
        styles = self._styles
        assert styles is not None, "styles_of first"
        if len(self.lines) > 2000:
            self.lines.clear()
        characters = [
            self._characters_of(app, values[i] if i < len(values) else None, w, padding) for i, w in enumerate(widths)
        ]
        metas = [place(look.row, i, self._metas) for i in range(len(widths))]
        component, post = styles.cell(look.row == -1, look.cursor, look.hover)
        line = self._cell_styles.line(characters, metas, styles.row(look.row, look.zebra), component, post)
        beyond = styles.beyond(look.row, look.zebra, look.row_cursor, look.cursor, look.hover)
        beyond += place(look.row, 0, self._metas, out_of_bounds=True)
        line.append(Segment(" " * max(0, width - sum(widths)), beyond))
        return Strip(line).crop(x, x + width).adjust_cell_length(width, styles.base).simplify()

    def _characters_of(self, app: App[Any], value: object, width: int, padding: int) -> list[Segment]:
        key = (id(value), width)
        known = self._characters.get(key)
        if known is not None and known[0] is value:
            return known[1]
        if len(self._characters) > 50_000:
            self._characters.clear()
        segments = cell_segments(cell_renderable(value), width, padding, app.console, app.console_options)
        self._characters[key] = (value, segments)  # the cell is held: its id is not reused meanwhile
        return segments


class CellStyles:
    """Each segment's final style, worked out once per style change and place instead of once per
    segment and frame: ``row + place + cursor + own + post`` (``DataTable``'s order of additions).

    A place (meta) carries no colour or attribute, so when neither the segment's own style nor the
    others carry meta or a link, ``(row + cursor + own + post) + place`` is the same style; that
    sum is kept per style, and the style with its place per place. The rest go the long way."""

    def __init__(self) -> None:
        self._bodies: dict[tuple[Style, Style, Style | None, Style], Style] = {}
        self._placed: dict[tuple[Style, Style], Style] = {}

    def forget(self) -> None:
        """The styles changed (or too many are kept): start again."""
        self._bodies.clear()
        self._placed.clear()

    def line(
        self, cells: Iterable[list[Segment]], metas: Iterable[Style], row_style: Style, component: Style, post: Style
    ) -> list[Segment]:
        """One line of cells: each cell's characters under the row's style, the cell's place (its
        meta), the cursor's and the mouse's style, the characters' own styles, then ``post``."""
        if len(self._placed) > 100_000:
            self.forget()
        bodies, placed = self._bodies, self._placed
        plain = not any(style.meta or style.link for style in (row_style, component, post))
        line: list[Segment] = []
        for segments, meta in zip(cells, metas, strict=True):
            for text, own, control in segments:
                if control:
                    line.append(Segment(text, None, control))
                    continue
                key = (row_style, component, own, post)
                body = bodies.get(key)
                if body is None:
                    special = not plain or (own is not None and bool(own.meta or own.link))
                    body = bodies[key] = _LONG_WAY if special else row_style + component + own + post
                if body is _LONG_WAY:
                    line.append(Segment(text, row_style + meta + component + own + post))
                    continue
                final = placed.get((body, meta))
                if final is None:
                    final = placed[body, meta] = body + meta
                line.append(Segment(text, final))
        return line


def place(row: int, column: int, cache: dict[tuple[int, int], Style], **extra: Any) -> Style:
    """The meta of a cell's place (what a click or the mouse reads), one object per place."""
    if extra:
        return Style.from_meta({"row": row, "column": column, **extra})
    meta = cache.get((row, column))
    if meta is None:
        if len(cache) > 50_000:
            cache.clear()
        meta = cache[row, column] = Style.from_meta({"row": row, "column": column})
    return meta
