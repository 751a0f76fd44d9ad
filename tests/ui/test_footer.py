"""The key line is rebuilt only when the keys to show change: moving between two tables with the
same keys (a pane switch, Esc out of the filter) leaves it as it is."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from cockpit.ui.footer import KeysFooter

pytestmark = pytest.mark.anyio


class Table(Widget, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "sort", "Sort"), Binding("y", "copy", "Copy")]

    def action_sort(self) -> None: ...

    def action_copy(self) -> None: ...


class Picks(Table):
    """A table whose copy key is greyed out (nothing to copy)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "copy" else True


class Triage(Widget, can_focus=True):
    """Some keys of the tables, in another order, around one of its own."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "copy", "Copy"),
        Binding("x", "close", "Close"),
        Binding("s", "sort", "Sort"),
    ]

    def action_sort(self) -> None: ...

    def action_copy(self) -> None: ...

    def action_close(self) -> None: ...


class Overview(Widget, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("t", "trends", "Trends")]

    def action_trends(self) -> None: ...


class Panes(App):
    CSS = "Table, Triage, Overview { height: 1; }"  # all on screen: the focus scrolls nothing

    def compose(self):
        yield Table(id="milestone")
        yield Table(id="picks")
        yield Picks(id="greyed")
        yield Triage(id="triage")
        yield Overview(id="overview")
        yield KeysFooter()


def keys(app: App) -> list[FooterKey]:
    """The key widgets on the line (those kept hidden for later keys are not)."""
    return [key for key in app.query(FooterKey) if key.display]


async def test_the_same_keys_are_not_rebuilt_and_other_keys_are_shown():
    app = Panes()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(app.query_one("#milestone"))
        await pilot.pause()
        shown = keys(app)
        assert {key.key for key in shown} >= {"s", "y"}
        app.set_focus(app.query_one("#picks"))
        await pilot.pause()
        assert keys(app) == shown and all(a is b for a, b in zip(keys(app), shown, strict=True))
        app.set_focus(app.query_one("#overview"))
        await pilot.pause()
        now = {key.key for key in keys(app)}
        assert "t" in now and "s" not in now


async def test_other_keys_reuse_the_key_widgets_and_draw_the_line_a_new_footer_would():
    app = Panes()
    async with app.run_test(size=(80, 10)) as pilot:
        footer = app.query_one(KeysFooter)
        await pilot.pause()
        assert keys(app)
        for pane in ("overview", "milestone", "greyed", "triage", "milestone", "overview", "triage", "greyed"):
            before = keys(app)
            app.set_focus(app.query_one(f"#{pane}"))
            await pilot.pause(0.1)
            after = keys(app)
            assert {id(k) for k in before} & {id(k) for k in after}, "the key widgets there are reused"
            was = {k.key: k for k in before}
            assert all(k is was[k.key] for k in after if k.key in was), "a key still shown keeps its widget"
            drawn = app.export_screenshot()
            footer.call_later(footer.recompose)  # what Textual's Footer does on every change
            await pilot.pause(0.1)
            assert not {id(k) for k in after} & {id(k) for k in keys(app)}
            assert app.export_screenshot() == drawn, f"the key line of {pane} is the one a new footer draws"
        assert [key.key for key in keys(app) if key.has_class("-disabled")] == ["y"]
        built: set[int] = set()
        for lap in range(2):
            for pane in ("milestone", "overview", "triage", "greyed", "overview"):
                app.set_focus(app.query_one(f"#{pane}"))
                await pilot.pause(0.1)
            if lap:
                assert {id(key) for key in app.query(FooterKey)} == built, "keys shown before are not built again"
            built = {id(key) for key in app.query(FooterKey)}
