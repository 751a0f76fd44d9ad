"""The panes' table (``RowsTable``, on Textual's public Line API) shows what ``DataTable`` showed:
the same rows, keys and column widths, the same frame (characters, colours and the meta a click or
the mouse reads), the same keys, clicks and messages; a pane hands it a report's rows in one step,
and a filter or a sort keystroke draws the cells it already drew without rendering them again."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App
from textual.geometry import Region
from textual.widgets import DataTable

import cockpit.ui.table_lines
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.table_parts import HeaderSelected, RowHighlighted, RowSelected

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


def shown(table: DataTable | RowsTable) -> list[tuple[str, list[str]]]:
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


def frame(table: DataTable | RowsTable) -> list[list[tuple[str, object]]]:
    strips = table.render_lines(Region(0, 0, table.size.width, table.size.height))
    return [[(segment.text, segment.style) for segment in strip.simplify()] for strip in strips]


class NaturalWidths(RowsTable):
    """Columns at their natural widths, scrolled sideways as DataTable's are (no narrowing to the view)."""

    FIT = False


def both(rows, columns, *, cursor_type="row", height=14, **kwargs):
    """An app with a ``DataTable`` (``#by-hand``) and a ``RowsTable`` (``#at-once``) of ``rows``."""

    class Both(App):
        def compose(self):
            for id_, table_class in (("by-hand", DataTable), ("at-once", NaturalWidths)):
                table = table_class(id=id_, zebra_stripes=True, cursor_type=cursor_type, **kwargs)
                for key, label, width in columns:
                    table.add_column(label, key=key, width=width)
                table.styles.height = height
                yield table

        def on_mount(self) -> None:
            self.query_one("#by-hand", DataTable).add_rows([])
            for key, cells in rows:
                self.query_one("#by-hand", DataTable).add_row(*cells, key=key)
            at_once = self.query_one("#at-once", RowsTable)
            at_once.fit_columns(rows)
            at_once.replace_rows(rows)

    return Both()


async def test_cells_of_every_shape_look_exactly_as_datatable_draws_them():
    # Cut text ends in "…" in a RowsTable whatever the cell's overflow (DataTable folds unless told): told here.
    title = Text.assemble(
        ("fix: ", "bold"), ("torch.compile", "italic #ff8800"), " regression on A100 ✓ 日本語", overflow="ellipsis"
    )
    ellipsis = Text("a title far too long for its column, cut with an ellipsis", overflow="ellipsis")
    rows = [
        (
            str(k),
            (
                Text(f"#{k}"),
                Text("under review" if k % 3 else "accepted", style="bold #cc3333"),
                title.copy() if k % 2 else ellipsis.copy(),
                Text(""),
                "[b]markup[/b] text\nand a second line",
                None if k % 5 else 3.14159,
                Text("two\nlines") if k % 7 == 0 else Text("tab\there", justify="right"),
            ),
        )
        for k in range(40)
    ]
    columns = [
        ("pr", "PR", None),
        ("status", "Status", None),
        ("title", "Title", 24),
        ("empty", "", None),
        ("markup", "[i]Markup[/i]", None),
        ("none", "None", None),
        ("odd", "Odd", None),
    ]
    app = both(rows, columns, height=20)
    async with app.run_test(size=(130, 44)) as pilot:
        frames = []
        for table in app.query("#by-hand, #at-once"):
            table.move_cursor(row=3)
            table.focus()  # each drawn as the focused table
            await pilot.pause()
            frames.append(frame(table))
        assert frames[1] == frames[0]
        for table in app.query("#by-hand, #at-once"):
            table.scroll_to(x=7, y=12, animate=False)
        app.screen.set_focus(None)
        await pilot.pause()
        assert frame(app.query_one("#at-once", RowsTable)) == frame(app.query_one("#by-hand", DataTable))


@pytest.mark.parametrize("cursor_type", ["row", "none"])
async def test_after_a_sort_the_frame_with_the_cursor_the_mouse_and_links_is_datatable_s(cursor_type: str):
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
    columns = [(key, key.title(), None) for key in ("pr", "status", "title", "note")]
    app = both(list(reversed(rows)), columns, cursor_type=cursor_type)
    async with app.run_test(size=(90, 30)) as pilot:
        at_once = app.query_one("#at-once", RowsTable)
        at_once.replace_rows(rows)  # drawn once in one order, then sorted: the same cells on other rows
        await pilot.pause()
        at_once.replace_rows(list(reversed(rows)))
        frames = []
        for id_ in ("#by-hand", "#at-once"):
            table = app.query_one(id_)
            table.move_cursor(row=5)
            table.focus()
            await pilot.hover(id_, offset=(3, 3))  # the mouse over row 2
            await pilot.pause()
            frames.append(frame(table))
        assert frames[1] == frames[0]
        metas = [segment_style.meta for line in frames[1] for _text, segment_style in line if segment_style]
        assert {"row": 3, "column": 2} in metas, "a click on a cell reads its row and column"


async def test_keys_clicks_and_messages_are_datatable_s():
    messages: list[object] = []
    rows = [(str(k), (Text(f"#{k}"), Text(f"row {k}"))) for k in range(40)]

    class One(App):
        def compose(self):
            table = RowsTable(zebra_stripes=True, cursor_type="row")
            table.add_column("PR", key="pr")
            table.add_column("Title", key="title")
            table.styles.height = 10
            yield table

        def on_mount(self) -> None:
            table = self.query_one(RowsTable)
            table.fit_columns(rows)
            table.replace_rows(rows)
            table.focus()

        def on_rows_table_row_selected(self, message: RowSelected) -> None:
            messages.append(("selected", message.row_key.value, message.cursor_row))

        def on_rows_table_row_highlighted(self, message: RowHighlighted) -> None:
            messages.append(("highlighted", message.row_key.value))

        def on_rows_table_header_selected(self, message: HeaderSelected) -> None:
            messages.append(("header", message.column_key.value, message.column_index, message.label.plain))

    app = One()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(RowsTable)
        await pilot.press("down", "down", "enter")
        assert table.cursor_row == 2 and ("selected", "2", 2) in messages and ("highlighted", "2") in messages
        await pilot.press("pagedown")
        assert table.cursor_row > 2 and table.scroll_y > 0
        await pilot.press("ctrl+end")
        assert table.cursor_row == 39
        assert table.scroll_y == table.max_scroll_y, "the last row is in view, below the header"
        await pilot.press("ctrl+home", "up")
        assert table.cursor_row == 0 and table.scroll_y == 0
        await pilot.click(RowsTable, offset=(8, 0))  # the header of the second column
        assert messages[-1] == ("header", "title", 1, "Title")
        await pilot.click(RowsTable, offset=(2, 4))  # row 3: the cursor moves, a second click selects
        assert table.cursor_row == 3 and messages[-1] != ("selected", "3", 3)
        await pilot.click(RowsTable, offset=(2, 4))
        assert messages[-1] == ("selected", "3", 3)
        assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == "3"


async def test_a_filter_or_sort_keystroke_renders_no_cell_it_already_drew(monkeypatch):
    rendered: list[object] = []
    segments = cockpit.ui.table_lines.cell_segments
    monkeypatch.setattr(
        cockpit.ui.table_lines, "cell_segments", lambda cell, *a: rendered.append(cell) or segments(cell, *a)
    )
    rows = [(str(k), (Text(f"#{k}"), Text("accepted" if k % 2 else "under review"))) for k in range(30)]
    app = Tables()
    async with app.run_test(size=(80, 40)) as pilot:
        table = app.query_one("#at-once", RowsTable)
        table.fit_columns(rows)
        table.replace_rows(rows)
        await pilot.pause()
        assert rendered, "the rows on screen are drawn"
        rendered.clear()
        table.replace_rows(list(reversed(rows)))  # a sort
        await pilot.pause()
        table.replace_rows(rows[::2])  # a filter
        await pilot.pause()
        table.focus()  # the cursor's colours change
        await pilot.pause()
        assert rendered == []
        table.fit_columns(rows)  # a new report: its cells are drawn anew
        table.replace_rows(rows)
        await pilot.pause()
        assert rendered


async def test_a_theme_change_or_the_focus_moving_draws_the_lines_in_the_new_styles():
    rows = [(str(k), (Text(f"#{k}"), Text("accepted"))) for k in range(12)]
    columns = [("pr", "PR", None), ("status", "Status", None)]
    app = both(rows, columns)
    async with app.run_test(size=(60, 32)) as pilot:
        by_hand, at_once = app.query_one("#by-hand", DataTable), app.query_one("#at-once", RowsTable)
        for theme in ("textual-dark", "textual-light", "nord", "textual-dark"):
            app.theme = theme
            by_hand.focus()
            await pilot.pause()
            focused_by_hand, blurred_at_once = frame(by_hand), frame(at_once)
            at_once.focus()
            await pilot.pause()
            assert frame(at_once) == focused_by_hand, theme
            assert blurred_at_once == frame(by_hand), theme
            assert blurred_at_once != focused_by_hand, "the cursor's colours follow the focus"


def test_the_table_modules_use_only_public_names_of_textual_and_rich():
    """No private module of textual or rich is imported, and every ``._name`` read is the module's own."""
    import ast
    from pathlib import Path

    import cockpit.ui

    folder = Path(cockpit.ui.__file__).parent
    for name in ("rows_table.py", "table_lines.py", "table_parts.py", "table_sort.py", "row_filter.py"):
        tree = ast.parse((folder / name).read_text())
        modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in modules if m.split(".")[0] in ("textual", "rich") and "._" in f".{m}"], name
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        own |= {
            t.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            for t in (t.elts if isinstance(t, ast.Tuple) else [t])
            if isinstance(t, ast.Attribute)
        }
        private = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("_")}
        assert private <= own, f"{name} reads {sorted(private - own)}"
