"""The pane table puts a report's rows in place in one step: what it shows must be exactly what
``DataTable.add_row`` would have shown (rows, order, keys, column widths), only without a pass over
every cell on each filter or sort keystroke."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual._compositor import Compositor
from textual.app import App
from textual.geometry import Region
from textual.widgets import DataTable

from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio

ROWS = [
    ("101", (Text("#101"), Text("under review", style="bold"), "plain text")),
    ("7", (Text("#7"), Text("accepted"), "a much longer plain cell")),
    ("2024", (Text("#2024 with a long title"), Text("no release PR"))),  # a short row: the cell left empty
]


class Tables(App):
    def compose(self):
        for table in (DataTable(id="by-hand"), RowsTable(id="at-once")):
            table.add_column("PR", key="pr")
            table.add_column("Status", key="status")
            table.add_column("Note", key="note")
            yield table


def shown(table: DataTable) -> list[tuple[str, list[str]]]:
    return [
        (
            str(table.coordinate_to_cell_key((i, 0)).row_key.value),
            [str(getattr(c, "plain", c)) for c in table.get_row_at(i)],
        )
        for i in range(table.row_count)
    ]


async def test_rows_put_in_at_once_read_and_measure_as_rows_added_one_by_one():
    app = Tables()
    async with app.run_test(size=(120, 20)) as pilot:
        by_hand, at_once = app.query_one("#by-hand", DataTable), app.query_one("#at-once", RowsTable)
        for key, cells in ROWS:
            by_hand.add_row(*cells, key=key)
        at_once.fit_columns(ROWS)
        at_once.replace_rows(ROWS)
        await pilot.pause()
        assert shown(at_once) == shown(by_hand)
        assert at_once.get_row_index("2024") == 2 and at_once.get_cell("2024", "note") is None
        assert [c.content_width for c in at_once.ordered_columns] == [c.content_width for c in by_hand.ordered_columns]
        assert at_once.virtual_size == by_hand.virtual_size


async def test_a_filter_shows_fewer_rows_and_keeps_the_widths_of_the_whole_report():
    app = Tables()
    async with app.run_test(size=(120, 20)) as pilot:
        table = app.query_one("#at-once", RowsTable)
        table.fit_columns(ROWS)
        table.replace_rows(ROWS)
        table.move_cursor(row=2)
        widths = [c.content_width for c in table.ordered_columns]
        table.replace_rows([ROWS[1]])
        await pilot.pause()
        assert shown(table) == [("7", ["#7", "accepted", "a much longer plain cell"])]
        assert table.cursor_row == 0, "the cursor stays within the rows shown"
        assert [c.content_width for c in table.ordered_columns] == widths, "columns do not jump while filtering"
        table.replace_rows(reversed(ROWS))
        await pilot.pause()
        assert [key for key, _cells in shown(table)] == ["2024", "7", "101"]
        assert table.get_row_index("101") == 2


async def test_a_repeated_row_key_or_a_row_too_wide_is_refused_as_add_row_refuses_it():
    app = Tables()
    async with app.run_test(size=(120, 20)):
        table = app.query_one("#at-once", RowsTable)
        with pytest.raises(ValueError, match="given twice"):
            table.replace_rows([ROWS[0], ROWS[0]])
        with pytest.raises(ValueError, match="More values"):
            table.replace_rows([("x", ("a", "b", "c", "d"))])


def frame(table: DataTable) -> list[list[tuple[str, object]]]:
    table._clear_caches()
    if isinstance(table, RowsTable):
        table._plain_lines.clear()  # the characters kept per cell, too: draw every cell from its Text
    strips = table.render_lines(Region(0, 0, table.size.width, table.size.height))
    return [[(segment.text, segment.style) for segment in strip.simplify()] for strip in strips]


async def test_cells_drawn_the_quick_way_look_exactly_as_datatable_draws_them(monkeypatch):
    title = Text.assemble(("fix: ", "bold"), ("torch.compile", "italic #ff8800"), " regression on A100 ✓ 日本語")
    ellipsis = Text("a title far too long for its column, cut with an ellipsis", overflow="ellipsis")
    rows = [
        (
            str(k),
            (
                Text(f"#{k}"),
                Text("under review" if k % 3 else "accepted", style="bold #cc3333"),
                title.copy() if k % 2 else ellipsis.copy(),
                Text(""),
                "[b]markup[/b] text",
                None,
            ),
        )
        for k in range(40)
    ]

    class Wide(App):
        def compose(self):
            table = RowsTable(zebra_stripes=True, cursor_type="row")
            for key, label, width in (
                ("pr", "PR", None),
                ("status", "Status", None),
                ("title", "Title", 24),
                ("empty", "", None),
                ("markup", "Markup", None),
                ("none", "None", None),
            ):
                table.add_column(label, key=key, width=width)
            yield table

    app = Wide()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(RowsTable)
        table.fit_columns(rows)
        table.replace_rows(rows)
        table.focus()
        table.move_cursor(row=3)
        await pilot.pause()
        drawn = []
        line_of = RowsTable._line_of
        monkeypatch.setattr(RowsTable, "_line_of", lambda self, *args: drawn.append(args) or line_of(self, *args))
        quick = frame(table)
        assert len(drawn) >= 19 * 3, (
            "the Text cells of every row on screen took the quick way (the empty one is padding)"
        )
        monkeypatch.setattr(RowsTable, "_is_plain_line", lambda *args: False)
        assert frame(table) == quick
        monkeypatch.undo()

        # A sort: the same cells on other rows. The characters kept per cell are drawn again with
        # the styles (and the row numbers a click reads) of the rows they are on now.
        table.replace_rows(reversed(rows))
        table.move_cursor(row=5)
        await pilot.pause()
        table._clear_caches()
        kept = table.render_lines(Region(0, 0, table.size.width, table.size.height))
        kept = [[(segment.text, segment.style) for segment in strip.simplify()] for strip in kept]
        monkeypatch.setattr(RowsTable, "_is_plain_line", lambda *args: False)
        assert frame(table) == kept


async def test_a_frame_of_the_pane_table_is_the_frame_datatable_draws_for_the_same_rows():
    rows = [
        (str(k), (Text(f"#{k}"), Text("under review" if k % 3 else "accepted", style="bold #cc3333"), f"note {k}"))
        for k in range(30)
    ]

    class Both(App):
        def compose(self):
            for table in (DataTable(id="by-hand", zebra_stripes=True), RowsTable(id="at-once", zebra_stripes=True)):
                table.add_column("PR", key="pr")
                table.add_column("Status", key="status")
                table.add_column("Note", key="note")
                table.styles.height = 12
                yield table

    app = Both()
    async with app.run_test(size=(80, 30)) as pilot:
        by_hand, at_once = app.query_one("#by-hand", DataTable), app.query_one("#at-once", RowsTable)
        for key, cells in rows:
            by_hand.add_row(*cells, key=key)
        at_once.fit_columns(rows)
        at_once.replace_rows(rows)
        frames = []
        for table in (by_hand, at_once):
            table.move_cursor(row=4)
            table.focus()  # each drawn as the focused table
            await pilot.pause()
            frames.append(frame(table))
        assert frames[1] == frames[0]


@pytest.mark.parametrize("cursor_type", ["row", "none"])
async def test_a_pane_table_draws_datatable_s_own_frame_after_a_sort_with_cursor_hover_links_and_clicks(
    cursor_type: str,
):
    """The panes' tables (row cursor, zebra stripes) draw their rows with styles worked out once per
    frame: the same characters, colours and the meta a click or the mouse reads, as ``DataTable``."""
    link = Text.from_markup("[link=https://github.com/pytorch/pytorch/pull/7]#7[/link] [@click=app.bell]ring[/]")
    rows = [
        (
            str(k),
            (
                Text(f"#{k}"),
                Text("under review" if k % 3 else "accepted", style="bold #cc3333"),
                link.copy() if k % 4 == 0 else Text.assemble(("fix: ", "italic"), f"note {k}"),
                f"plain {k}",
            ),
        )
        for k in range(30)
    ]

    class Both(App):
        def compose(self):
            for id_, table_class in (("by-hand", DataTable), ("at-once", RowsTable)):
                table = table_class(id=id_, zebra_stripes=True, cursor_type=cursor_type)
                for key in ("pr", "status", "title", "note"):
                    table.add_column(key.title(), key=key)
                table.styles.height = 14
                yield table

    app = Both()
    async with app.run_test(size=(90, 30)) as pilot:
        by_hand, at_once = app.query_one("#by-hand", DataTable), app.query_one("#at-once", RowsTable)
        at_once.fit_columns(rows)
        at_once.replace_rows(rows)
        at_once.replace_rows(reversed(rows))  # a sort: the same cells on other rows
        for key, cells in reversed(rows):
            by_hand.add_row(*cells, key=key)
        frames = []
        for table in (by_hand, at_once):
            table.move_cursor(row=5)
            table.focus()
            table._set_hover_cursor(True)
            table.hover_coordinate = table.hover_coordinate.__class__(2, 1)
            await pilot.pause()
            frames.append(frame(table))
        assert frames[1] == frames[0]
        metas = [segment_style.meta for line in frames[1] for _text, segment_style in line if segment_style]
        assert {"row": 3, "column": 2} in metas, "a click on a cell reads its row and column"


async def test_a_table_shown_again_at_its_size_draws_from_the_lines_it_drew_not_anew(monkeypatch):
    """A pane switch hides one table and shows another at the size it had: DataTable forgot every
    line it drew then (a Resize), and drew them all again on the next key."""
    rows = [(str(k), (Text(f"#{k}"), Text("accepted"), f"note {k}")) for k in range(40)]

    class Switch(App):
        def compose(self):
            for id_ in ("first", "second"):
                table = RowsTable(id=id_, zebra_stripes=True, cursor_type="row")
                for key in ("pr", "status", "note"):
                    table.add_column(key.title(), key=key)
                yield table

    app = Switch()
    async with app.run_test(size=(80, 20)) as pilot:
        first, second = app.query_one("#first", RowsTable), app.query_one("#second", RowsTable)
        for table in (first, second):
            table.fit_columns(rows)
            table.replace_rows(rows)
        second.display = False
        first.focus()
        await pilot.pause()
        drawn: list[object] = []
        draw = RowsTable._render_line_in_row
        monkeypatch.setattr(
            RowsTable, "_render_line_in_row", lambda self, *a, **k: drawn.append(a) or draw(self, *a, **k)
        )
        for switch, (shown, hidden) in enumerate([(second, first), (first, second)] * 3):
            drawn.clear()
            hidden.display = False
            shown.display = True
            shown.focus()
            await pilot.pause()
            await pilot.pause()
            if switch >= 4:  # once each has been shown and laid out at its size
                assert drawn == [], "the table shown again is drawn from the lines it drew before"
        second.display, first.display = True, False
        second.focus()
        await pilot.pause()
        drawn.clear()
        second.styles.height = second.size.height - 1  # the filter line opens above it
        await pilot.pause()
        await pilot.pause()
        second.refresh()  # drawn again whole, as after a focus change
        await pilot.pause()
        assert drawn == [], "a table a line shorter draws the lines it drew"
        second.move_cursor(row=1)  # the next key on the table shown again
        await pilot.pause()
        assert 0 < len(drawn) <= 2, "only the two rows the cursor left and reached are drawn again"


async def test_lines_kept_across_a_focus_change_are_never_drawn_in_styles_that_have_changed_since():
    rows = [(str(k), (Text(f"#{k}"), Text("accepted", style="bold"), f"note {k}")) for k in range(40)]

    class Switch(App):
        def compose(self):
            for id_ in ("first", "second"):
                table = RowsTable(id=id_, zebra_stripes=True, cursor_type="row")
                for key in ("pr", "status", "note"):
                    table.add_column(key.title(), key=key)
                yield table

    def drawn(table: RowsTable) -> list[list[tuple[str, object]]]:
        strips = table.render_lines(Region(0, 0, table.size.width, table.size.height))
        return [[(segment.text, segment.style) for segment in strip.simplify()] for strip in strips]

    app = Switch()
    async with app.run_test(size=(80, 20)) as pilot:
        first, second = app.query_one("#first", RowsTable), app.query_one("#second", RowsTable)
        for table in (first, second):
            table.fit_columns(rows)
            table.replace_rows(rows)
        for step, (shown, hidden) in enumerate([(second, first), (first, second)] * 4):
            if step == 5:
                app.theme = "textual-light" if app.theme != "textual-light" else "nord"
            if step == 6:
                shown.zebra_stripes = False
            hidden.display = False
            shown.display = True
            shown.focus()
            await pilot.pause()
            await pilot.pause()
            assert drawn(shown) == frame(shown), f"step {step}: the lines kept are the lines drawn anew"


async def test_a_filter_or_sort_keystroke_draws_each_row_on_screen_once_and_lays_out_only_a_new_row_count(monkeypatch):
    rows = [(str(k), (Text(f"#{k}"), Text("accepted" if k % 2 else "under review"), f"note {k}")) for k in range(200)]

    class One(App):
        def compose(self):
            table = RowsTable(zebra_stripes=True, cursor_type="row")
            for key in ("pr", "status", "note"):
                table.add_column(key.title(), key=key)
            yield table

    app = One()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(RowsTable)
        table.fit_columns(rows)
        table.replace_rows(rows)
        table.focus()
        await pilot.pause()
        drawn: list[object] = []
        draw = RowsTable._render_line_in_row
        monkeypatch.setattr(
            RowsTable, "_render_line_in_row", lambda self, *a, **k: drawn.append(a[0]) or draw(self, *a, **k)
        )
        shown = rows
        for keep in ("accepted", "under", "under review"):  # the filter typed, key by key
            drawn.clear()
            shown = [row for row in rows if keep in row[1][1].plain]
            table.replace_rows(shown)
            await pilot.pause()
            await pilot.pause()
            assert len(drawn) == len(set(drawn)) <= table.size.height, f"{keep!r}: each row on screen drawn once"
            assert table.virtual_size.height == table.row_count + 1  # the rows and the header
            assert table.virtual_size.width == sum(c.get_render_width(table) for c in table.ordered_columns)
        laid_out: list[object] = []
        reflow = Compositor.reflow
        monkeypatch.setattr(Compositor, "reflow", lambda self, *a: laid_out.append(a) or reflow(self, *a))
        table.replace_rows(reversed(shown))  # a sort: the same rows, in another order
        await pilot.pause()
        await pilot.pause()
        assert laid_out == [], "a sort lays nothing out again"


def test_a_filter_frees_the_lines_drawn_before_it_at_once_not_in_a_later_collection():
    """``LRUCache.clear`` leaves its ring of links (and every line they hold) to the cycle collector,
    whose full passes then fall on keystrokes; the table empties its caches link by link."""
    import gc
    import weakref

    from textual.cache import LRUCache

    from cockpit.ui.rows_table import empty_cache

    class Line:
        pass

    cache: LRUCache[str, Line] = LRUCache(10)
    line = Line()
    drawn = weakref.ref(line)
    cache.set("row 1", line)
    cache.set("row 2", Line())
    del line
    was_on = gc.isenabled()
    gc.disable()
    try:
        empty_cache(cache)
        assert drawn() is None and not cache
    finally:
        if was_on:
            gc.enable()
