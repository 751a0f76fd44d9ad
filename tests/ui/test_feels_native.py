"""The cockpit behaves like the dashboards release managers already use: ``?``/``F1`` help generated
from the bindings, a palette with every pane's keys and the themes, a ``[keymap]`` that remaps or
unbinds any key by id, a status bar with the work in flight and the API budget."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import threading
from dataclasses import replace

import pytest
from fake_backend import NOW, FakeBackend
from textual.command import CommandPalette

import cockpit.ui
from cockpit.errors import ConfigError
from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.help import HelpScreen
from cockpit.ui.keymap import merged_bindings
from cockpit.ui.palette import app_commands
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.widgets import StatusBar
from tests.pilot import settle

pytestmark = pytest.mark.anyio
SIZE = (160, 48)


def make_app(keymap: dict[str, str] | None = None, theme: str = "", **kwargs) -> CockpitApp:
    backend = FakeBackend(**kwargs)
    backend.config = replace(backend.config, keymap=keymap or {}, theme=theme)
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    return app


async def palette(pilot, query: str) -> None:
    """Open the palette, type ``query``, wait for the matches, take the best one."""
    await pilot.press("ctrl+p")
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*query)
    for _ in range(50):
        await pilot.pause(0.02)
        if pilot.app.screen.query("CommandList").first().option_count:
            break
    await pilot.press("down", "enter")
    for _ in range(5):
        await pilot.pause()


def skipped_shown(app) -> bool:
    return app.pane("milestone").show_skipped


def _cockpit_classes() -> list[type]:
    """Every class of ``cockpit.ui`` that declares BINDINGS (app, panes, screens)."""
    classes = set()
    for info in pkgutil.walk_packages(cockpit.ui.__path__, "cockpit.ui."):
        module = importlib.import_module(info.name)
        classes |= {
            c
            for _n, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__.startswith("cockpit.ui") and "BINDINGS" in c.__dict__
        }
    return sorted(classes, key=lambda c: c.__name__)


def every_cockpit_binding() -> list[tuple[str, object]]:
    """(owner, binding) for every key the app, its panes and its screens answer to, inherited ones included."""
    return [(cls.__name__, b) for cls in _cockpit_classes() for b in merged_bindings(cls)]


def test_every_binding_has_an_id_and_nothing_destructive_sits_on_ctrl_d_or_ctrl_k():
    bindings = every_cockpit_binding()
    assert {"CockpitApp", "MilestonePane", "ChecklistPane", "HelpScreen", "ConfirmScreen"} <= {o for o, _b in bindings}
    ours = [(owner, b) for owner, b in bindings if any(b in getattr(c, "BINDINGS", ()) for c in _cockpit_classes())]
    assert len(ours) > 50
    assert [f"{owner}:{b.key}" for owner, b in ours if not b.id] == []
    keys = {key.strip() for _o, b in bindings for key in b.key.split(",")}
    assert not keys & {"ctrl+d", "ctrl+k"}


async def test_help_opens_with_question_mark_and_f1_and_lists_the_panes_keys_and_the_table_keys():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        pane_rows = app.screen.sections[0][1]
        assert ("d", "Remove the selected item from the milestone", "milestone.remove") in pane_rows
        assert (
            "/",
            "Filter the rows by a regular expression (! in front hides the matches)",
            "table.filter",
        ) in pane_rows
        assert any(binding_id == "app.refresh_all" for _k, _t, binding_id in app.screen.sections[1][1])
        await pilot.press("escape", "4", "f1")
        assert isinstance(app.screen, HelpScreen) and app.screen.pane_title == "4 Branch diff"
        assert (
            "Y",
            "Copy the selected row's commit SHA (or its PR's URL) to the clipboard",
            "branch.copy_link",
        ) in app.screen.sections[0][1]


async def test_a_remapped_key_works_the_old_one_does_not_and_an_unbound_key_is_gone_but_in_the_palette():
    app = make_app(keymap={"milestone.skipped": "K", "milestone.remove": ""})
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "a")
        assert not skipped_shown(app)
        await pilot.press("K")
        assert skipped_shown(app)
        await pilot.press("K", "d")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.backend.actions.runs == []
        await pilot.press("question_mark")
        rows = {binding_id: key for key, _t, binding_id in app.screen.sections[0][1]}
        assert rows["milestone.skipped"] == "K" and rows["milestone.remove"] == "unbound"
        await pilot.press("escape")
        await palette(pilot, "Milestone: Remove")
        assert isinstance(app.screen, ConfirmScreen), "an unbound key stays reachable from the palette"


async def test_the_palette_runs_another_panes_action_after_showing_that_pane():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.current_name == "overview"
        await palette(pilot, "Milestone: Skipped")
        assert app.current_name == "milestone"
        assert skipped_shown(app)
        assert isinstance(app.focused, RowsTable)


async def test_a_theme_chosen_in_the_palette_is_used_and_remembered_but_not_in_a_read_only_session():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "cockpit-dark"
        await palette(pilot, "theme: cockpit-light")
        assert app.theme == "cockpit-light"
        assert app.backend.state.prefs == {"theme": "cockpit-light"}
        assert any(n.message == "Theme cockpit-light: remembered for next time." for n in app.notices.said)
    viewer = make_app(read_only=True)
    async with viewer.run_test(size=SIZE) as pilot:
        await settle(viewer, pilot)
        choose = next(c for c in app_commands(viewer) if c.name == "Switch theme: cockpit-high-contrast")
        choose.run()
        await pilot.pause()
        assert viewer.theme == "cockpit-high-contrast" and viewer.backend.state.prefs == {}
        assert any("not remembered, this session is read-only" in n.message for n in viewer.notices.said)


def test_the_remembered_theme_is_used_at_start_and_an_unknown_configured_one_lists_the_valid_names():
    backend = FakeBackend()
    backend.state.prefs["theme"] = "cockpit-light"
    assert CockpitApp(backend, clock=lambda: NOW).theme == "cockpit-light"
    with pytest.raises(ConfigError) as raised:
        make_app(theme="solarised")
    message = str(raised.value)
    assert "key 'ui.theme'" in message and "cockpit-dark, cockpit-high-contrast, cockpit-light" in message
    assert "\n" not in message


async def test_the_status_bar_names_the_panes_still_loading_and_shows_the_api_budget():
    github_answers = threading.Event()
    app = make_app(on_load=lambda name: name == "ci" and github_answers.wait(10))
    async with app.run_test(size=SIZE) as pilot:
        try:
            for _ in range(100):
                await pilot.pause(0.02)
                if app.query_one(StatusBar).tasks == "loading: ci":
                    break
            assert app.query_one(StatusBar).tasks == "loading: ci"
        finally:
            github_answers.set()
        await settle(app, pilot)
        assert app.query_one(StatusBar).tasks == ""
        assert app.query_one(StatusBar).budget == "GitHub 4,873/5,000 · 41 requests"


async def test_every_theme_the_palette_offers_starts_the_cockpit_when_remembered():
    """The cockpit's own themes and one of Textual's are remembered and started from; every other
    theme the palette offers is switched to in one running cockpit (the same assignment a start
    makes from the remembered name), which keeps the test to four starts instead of one per theme."""
    offered = [
        c.name.removeprefix("Switch theme: ").removesuffix(" (current)")
        for c in app_commands(make_app())
        if c.name.startswith("Switch theme: ")
    ]
    started = ["cockpit-dark", "cockpit-light", "cockpit-high-contrast", "textual-dark"]
    assert {*started, "nord"} <= set(offered)
    for name in started:
        backend = FakeBackend()
        backend.state.prefs["theme"] = name
        app = CockpitApp(backend, clock=lambda: NOW)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.theme == name, name
            assert app._theme_problems == [], name
            assert app.query_one("#verdict").is_mounted, name
            if name != started[-1]:
                continue
            for other in offered:
                app.theme = other
                await pilot.pause()
                assert app.theme == other, other
                assert app._theme_problems == [], other
                assert app.query_one("#verdict").is_mounted, other
                assert not app.unexpected_errors, other


async def test_a_remembered_theme_that_no_longer_exists_falls_back_to_the_default_with_a_notice():
    backend = FakeBackend()
    backend.state.prefs["theme"] = "neon-nights"
    app = CockpitApp(backend, clock=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "cockpit-dark"
        assert [n.message for n in app.notices.said if n.title == "Themes"] == [
            "the theme 'neon-nights' chosen last time is no longer available; using cockpit-dark"
        ]
