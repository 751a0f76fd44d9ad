"""The key line is rebuilt only when the keys to show change: moving between two tables with the
same keys (a pane switch, Esc out of the filter) leaves it as it is; a key unbound in the keymap is
not on it."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Footer

from cockpit.ui.footer import KeysFooter
from cockpit.ui.keymap import textual_keymap

pytestmark = pytest.mark.anyio


class Table(Widget, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "sort", "Sort", id="table.sort"),
        Binding("y", "copy", "Copy", id="table.copy"),
    ]

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

    def __init__(self, footer: type[Footer] = KeysFooter) -> None:
        super().__init__()
        self.footer = footer

    def compose(self):
        yield Table(id="milestone")
        yield Table(id="picks")
        yield Picks(id="greyed")
        yield Triage(id="triage")
        yield Overview(id="overview")
        yield self.footer()


def keys(app: App) -> list[Widget]:
    """The key widgets on the line, each with the ``key`` it answers to."""
    return list(app.query_one(Footer).children)


async def test_the_same_keys_are_not_rebuilt_and_other_keys_are_shown():
    app = Panes()
    async with app.run_test(size=(80, 10)) as pilot:
        app.set_focus(app.query_one("#milestone"))
        await pilot.pause()
        shown = keys(app)
        assert {getattr(key, "key", "") for key in shown} >= {"s", "y"}
        app.set_focus(app.query_one("#picks"))
        await pilot.pause()
        assert all(a is b for a, b in zip(keys(app), shown, strict=True)), "the same keys: nothing built again"
        app.set_focus(app.query_one("#overview"))
        await pilot.pause()
        now = {getattr(key, "key", "") for key in keys(app)}
        assert "t" in now and "s" not in now


def line(app: App) -> list[tuple[str, str, bool]]:
    """The keys on the line: key, words, greyed out."""
    return [(getattr(key, "key", ""), getattr(key, "description", ""), key.has_class("-disabled")) for key in keys(app)]


async def test_the_line_has_the_keys_textuals_footer_shows():
    seen: dict[str, list[list[tuple[str, str, bool]]]] = {}
    for footer in (KeysFooter, Footer):
        app = Panes(footer)
        async with app.run_test(size=(80, 10)) as pilot:
            for pane in ("overview", "milestone", "greyed", "triage", "milestone", "overview", "triage", "greyed"):
                app.set_focus(app.query_one(f"#{pane}"))
                for _ in range(5):  # the line is built again after a refresh
                    await pilot.pause(0.05)
                seen.setdefault(footer.__name__, []).append(line(app))
    assert seen["KeysFooter"] == seen["Footer"]
    assert ("y", "Copy", True) in seen["Footer"][2], "the greyed-out copy key of the third table"


async def test_an_unbound_key_is_not_on_the_line_and_cannot_be_pressed():
    sorted_ = []

    class Sorting(Panes):
        def on_mount(self) -> None:
            self.set_keymap(textual_keymap({"table.sort": "", "table.copy": "c"}))

    app = Sorting()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one("#milestone", Table)
        table.action_sort = lambda: sorted_.append(1)  # type: ignore[method-assign]
        app.set_focus(table)
        await pilot.pause()
        on_line = {getattr(key, "description", "") for key in keys(app)}
        assert "Sort" not in on_line and "Copy" in on_line
        await pilot.press("s")
        assert sorted_ == []


@pytest.mark.anyio
async def test_at_80_columns_quit_and_help_come_first_so_they_always_show():
    from cockpit.ui.app import CockpitApp
    from cockpit.ui.footer import KeysFooter
    from tests.pilot import settle
    from tests.ui.fake_backend import NOW, FakeBackend

    app = CockpitApp(FakeBackend(), clock=lambda: NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")  # the checklist: more keys than 80 columns hold
        await settle(app, pilot)
        keys = [str(getattr(w, "action", "")) for w in app.query_one(KeysFooter).children]
        assert keys[:2] == ["app.quit", "app.help"] or keys[:2] == ["quit", "help"], keys
        await pilot.resize_terminal(160, 48)
        await settle(app, pilot)
        keys = [str(getattr(w, "action", "")) for w in app.query_one(KeysFooter).children]
        assert keys[0] not in ("app.quit", "quit"), "a wide line keeps the pane's keys first"
