"""The first screen comes before the work: only the overview is composed, the other panes are
mounted right after the first paint (the one on screen first), and nothing heavy is imported
before it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from typing import ClassVar

import pytest
from fake_backend import NOW, FakeBackend
from textual.color import Color
from textual.widgets._footer import FooterKey

from cockpit.domain.gates import Gate, GateStatus
from cockpit.ui.app import PANES, CockpitApp, pane_class
from cockpit.ui.footer import KeysFooter
from cockpit.ui.help import HelpScreen
from cockpit.ui.panes.overview import GateList
from cockpit.ui.tabs import PaneTabs
from cockpit.ui.widgets import StatusBar
from tests.pilot import settle

pytestmark = pytest.mark.anyio
SIZE = (120, 40)


class Recording(CockpitApp):
    """Records what was mounted when the first paint was done, and the order of the loads."""

    def __init__(self, *args, early=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.early = early  # what the release manager does in the instant before the panes exist
        self.at_first_paint: list[str] = []
        self.loads: list[str] = []

    def _after_first_paint(self) -> None:
        self.at_first_paint = [p.PANE for p in self.mounted_panes()]
        if self.early is not None:
            self.early(self)
        super()._after_first_paint()

    def _start_load(self, pane) -> None:
        self.loads.append(pane.PANE)
        super()._start_load(pane)


def make(**kwargs) -> Recording:
    app = Recording(FakeBackend(), clock=lambda: NOW, **kwargs)
    app.animation_level = "none"
    return app


async def test_only_the_overview_is_there_at_first_paint_and_every_pane_loads_right_after():
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.at_first_paint == ["overview"]
        assert app.loads[:6] == [name for name, _title, _path in PANES]
        assert [p.PANE for p in app.mounted_panes()] == [name for name, _title, _path in PANES]
        assert all(p.report is not None for p in app.mounted_panes())
        assert "verdict pending" not in str(app.query_one("#verdict").render()).lower()


async def test_only_the_overviews_slot_is_in_the_first_frame_and_the_others_come_hidden_in_order():
    class Slots(CockpitApp):
        at_first_frame: ClassVar[list[str]] = []

        def _add_pane_slots(self) -> None:
            if not self.at_first_frame:
                self.at_first_frame = [slot.id or "" for slot in self.query(".pane-slot")]
            super()._add_pane_slots()

    app = Slots(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.at_first_frame == ["overview"]
        slots = list(app.query(".pane-slot"))
        assert [slot.id for slot in slots] == [name for name, _title, _path in PANES]
        assert [slot.display for slot in slots] == [True, False, False, False, False, False]


async def test_a_pane_key_pressed_before_the_panes_slots_are_added_is_not_lost():
    class Hasty(CockpitApp):
        def on_mount(self) -> None:  # Textual calls CockpitApp's own on_mount after this one
            self.action_show_pane("ci")  # before the first paint, when only the overview's slot exists

    app = Hasty(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert not app.unexpected_errors
        assert app.current_name == "ci"
        assert [slot.id for slot in app.query(".pane-slot")] == [name for name, _t, _p in PANES]
        assert app.focused is not None and app.focused in app.pane("ci").query("*")


async def test_a_pane_key_pressed_before_its_pane_exists_is_not_lost():
    app = make(early=lambda a: a.action_show_pane("ci"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.loads[:2] == ["overview", "ci"]  # the pane on screen is mounted first
        assert app.current_name == "ci"
        assert app.focused is not None and app.focused in app.pane("ci").query("*")


async def test_a_pane_key_pressed_while_the_panes_are_mounting_keeps_its_tab():
    """The overview had the focus; focus inside a hidden tab would switch back to it."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")  # straight after start: the CI pane is not mounted yet, or just
        assert app.current_name == "ci"
        await settle(app, pilot)
        assert app.current_name == "ci"
        assert app.focused is not None and app.focused in app.pane("ci").query("*")


async def test_a_pane_shown_before_it_is_mounted_shows_a_loading_indicator_meanwhile():
    seen = []
    app = make(
        early=lambda a: (a.action_show_pane("checklist"), seen.extend(a.query_one("#checklist.pane-slot").children))
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert [type(w).__name__ for w in seen] == ["LoadingIndicator"]
        assert not app.query(".pane-starting")
        assert app.current_name == "checklist"
        assert app.focused is not None and app.focused in app.pane("checklist").query("*")


async def test_help_refresh_and_theme_work_in_the_instant_before_the_panes_exist():
    def early(app: CockpitApp) -> None:
        app.action_show_pane("checklist")  # its pane is not mounted yet
        app.action_refresh_pane()
        app.action_refresh_all()
        app.switch_theme("cockpit-light")
        app.action_help()

    app = make(early=early)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)
        assert any(row[2] == "checklist.toggle" for row in app.screen.sections[0][1])
        assert not app.unexpected_errors
        assert app.pane("checklist").report is not None


async def test_gate_lines_keep_their_key_in_view_and_end_long_summaries_in_an_ellipsis():
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        gates = app.query_one(GateList)
        long = Gate("branch_diff_clean", "Branch diff clean", GateStatus.RED, "9 missing, " * 20)
        gates.show_gates({**gates.gates, long.name: long})
        await pilot.pause()
        lines = gates.render().plain.splitlines()
        branch = next(line for line in lines if line.startswith("Branch diff clean"))
        assert branch.endswith("… [4]") and len(branch) <= gates.size.width
        assert all(len(line) <= gates.size.width for line in lines)


@pytest.mark.parametrize("theme, dark", [("cockpit-dark", True), ("cockpit-light", False)])
async def test_the_first_screen_is_in_the_theme_chosen_last_time(theme, dark):
    """The theme remembered in the state file is the one the first screen is drawn in, its colours and mode."""
    backend = FakeBackend()
    backend.state.prefs["theme"] = theme
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == theme and app.current_theme.dark is dark
        assert app.has_class(f"-theme-{theme}", "-dark-mode" if dark else "-light-mode")
        assert not app.has_class("-light-mode" if dark else "-dark-mode")
        expected = app.get_css_variables()
        assert app.screen.styles.background == Color.parse(expected["background"])
        app.switch_theme("cockpit-high-contrast")  # while running: everything restyled
        await settle(app, pilot)
        assert app.screen.styles.background == Color.parse(app.get_css_variables()["background"])


async def test_textuals_other_themes_get_the_cockpits_colours_right_after_the_first_paint():
    from cockpit.ui.themes import unusable_reason

    def incomplete(app: CockpitApp) -> set[str]:
        return {name for name, theme in app.available_themes.items() if unusable_reason(theme)}

    at_first_paint: list[set[str]] = []
    app = make(early=lambda a: at_first_paint.append(incomplete(a)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "nord" in at_first_paint[0] and app.theme not in at_first_paint[0]
        assert incomplete(app) == set() and app._theme_problems == []
        app.switch_theme("nord")
        await settle(app, pilot)
        assert app.screen.styles.background == Color.parse(app.get_css_variables()["background"])


async def test_the_dialogs_css_waits_for_the_first_dialog_which_is_styled_by_it():
    parsed_at_first_paint = []
    app = make(early=lambda a: parsed_at_first_paint.extend(css.content for css in a.stylesheet.source.values()))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert parsed_at_first_paint and not any(".dialog" in css for css in parsed_at_first_paint)
        await pilot.press("question_mark")
        await pilot.pause()
        dialog = app.screen.query_one(".dialog.help")
        assert dialog.styles.max_width.value == 140 and dialog.styles.height.value == 90  # dialogs.tcss
        assert app.screen.styles.align == ("center", "middle")


def test_nothing_heavy_is_imported_before_the_first_screen(tmp_path):
    """In a fresh interpreter, the real start-up path up to the first paint (the CLI's config,
    the real backend, the app) leaves the pane modules, the actions, the reports and every
    adapter library for later."""
    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    config = tmp_path / "cockpit.toml"
    config.write_text(
        textwrap.dedent(f"""
        [release]
        version = "2.5.0"
        repository = "acme/torchlet"
        milestone = 12
        [github]
        api_url = "http://127.0.0.1:9/"
        auth = "none"
        [git]
        clone = {json.dumps(str(clone))}
    """),
        encoding="utf-8",
    )
    script = textwrap.dedent(f"""
        import json, os, sys
        from cockpit.cli.main import parse_command_line
        args = parse_command_line(["--config", {json.dumps(str(config))}])
        from cockpit.cli.commands import load
        from cockpit.bootstrap import build_backend
        from cockpit.ui.app import CockpitApp

        class FirstPaint(CockpitApp):
            def _after_first_paint(self):
                print(json.dumps(sorted(sys.modules)), flush=True)
                os._exit(0)

        config = load(args)
        FirstPaint(build_backend(config, read_only=True)).run(headless=True, size=(120, 40))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    loaded = set(json.loads(out.stdout))
    later = (
        "cockpit.actions",
        "cockpit.loaders",
        "cockpit.services",
        "cockpit.adapters",
        "cockpit.domain.reports",
        "cockpit.domain.ci",
        "cockpit.domain.checklist",
        "cockpit.domain.merging",  # the config reads only the merge methods' names
        "cockpit.domain.schedule",  # this release has no [schedule]
        "cockpit.config.repos",  # nor [[repo]]
        "cockpit.domain.validation_posts",
        "cockpit.ui.palette",
        "cockpit.ui.help",
        "cockpit.ui.panes.milestone",
        "cockpit.ui.panes.picks",
        "cockpit.ui.panes.ci",
        "cockpit.ui.panes.branch_diff",
        "cockpit.ui.panes.checklist",
        "textual.widgets._data_table",
        "cockpit.sandbox",
        "cockpit.ui.detail",
        "cockpit.ui.confirm",
        "cockpit.ui.footer",  # the key line: an empty line holds its place in the first frame
        "textual.widgets._footer",
        "tomli_w",
        "git",
        "github",
        "httpx",
    )
    early = sorted(m for m in loaded if any(m == name or m.startswith(name + ".") for name in later))
    assert not early, f"imported before the first screen: {early}"


async def test_the_key_line_mounted_after_the_first_paint_shows_the_overviews_keys_in_its_place():
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        footer = app.screen.query_one(KeysFooter)
        children = list(app.screen.children)
        assert children[children.index(footer) - 1] is app.query_one(StatusBar)
        assert footer.region.y == SIZE[1] - 1 and not app.query("#key-line-place")
        shown = {key.description for key in footer.query(FooterKey)}
        assert {"Trends", "Quit", "Refresh", "Help"} <= shown


async def test_a_click_on_a_tab_title_shows_its_pane():
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        x = sum(len(f" {title} ") for name, title, _path in PANES[:3]) + 2  # inside " 3 CI "
        assert await pilot.click(PaneTabs, offset=(x, 0))
        await pilot.pause()
        assert app.current_name == "ci"
        assert app.focused is not None and app.focused in app.pane("ci").query("*")
        assert await pilot.click(PaneTabs, offset=(1, 0))
        await pilot.pause()
        assert app.current_name == "overview"


async def test_a_pane_shown_while_it_loads_takes_the_focus_when_the_load_ends():
    """A table under its loading indicator takes no focus; it must not stay without one."""
    release = threading.Event()

    class Slow(FakeBackend):
        def load_checklist(self, gates):
            release.wait(10)
            return super().load_checklist(gates)

    app = CockpitApp(Slow(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("5")
        for _ in range(20):
            await pilot.pause(0.01)
        release.set()
        await settle(app, pilot)
        assert app.current_name == "checklist"
        assert app.focused is not None and app.focused in app.pane("checklist").query("*")
        await pilot.press("j", "enter")  # the keys of the pane work: a step's detail opens
        await pilot.pause()
        assert type(app.screen).__name__ == "DetailScreen"


async def test_a_pane_that_fails_to_mount_is_reported_in_one_line_and_the_others_still_come(monkeypatch):
    import cockpit.ui.pane_slots as app_module  # where the panes are built

    real = app_module.pane_class

    def broken(name):
        if name == "picks":
            raise RuntimeError("picks pane exploded")
        return real(name)

    monkeypatch.setattr(app_module, "pane_class", broken)
    app = make()
    app.notify = lambda message, **kwargs: app.notes.append(str(message))
    app.notes = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert [p.PANE for p in app.mounted_panes()] == ["overview", "milestone", "ci", "branch", "checklist"]
        assert any("picks pane exploded" in note for note in app.notes)
        await pilot.press("2")  # its tab says so; nothing crashes, no endless loading indicator
        assert "could not be built: Unexpected RuntimeError: picks pane exploded" in str(
            app.query_one("#picks.pane-slot .pane-error").render()
        )
        assert not app.query(".pane-starting")
        await pilot.press("1")
        assert app.is_running and app.current_name == "milestone"


async def test_the_focus_never_rests_in_a_hidden_pane():
    """Its keys would act on rows nobody sees (x re-runs CI jobs, d removes a milestone item)."""
    app = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("3", "0")  # typed together: the first pane's focus must not land last
        await settle(app, pilot)
        assert app.current_name == "overview"
        assert app.focused is not None and app.focused in app.pane("overview").query("*")
        app.pane("ci").table.focus()  # any late focus into a hidden pane comes back
        await settle(app, pilot)
        assert app.focused is not None and app.focused in app.pane("overview").query("*")


async def test_gates_arriving_while_a_pane_is_being_composed_wait_for_it():
    """The checklist re-evaluates on every gate; a pane in the DOM without its table yet must
    not be asked to load (found by a snapshot test that failed one run in five)."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        slot = app.query_one("#checklist.pane-slot")
        await app.pane("checklist").remove()
        fresh = pane_class("checklist")(app.backend, id="pane-checklist")
        slot.mount(fresh)  # not awaited: in the DOM, not composed yet
        assert app.mounted_pane("checklist") is None
        app._reevaluate_checklist()
        await settle(app, pilot)
        assert not app.unexpected_errors
        assert app.mounted_pane("checklist") is fresh


async def test_the_other_panes_css_waits_for_the_first_paint_and_styles_them_when_mounted():
    parsed_at_first_paint = []
    app = make(early=lambda a: parsed_at_first_paint.extend(css.content for css in a.stylesheet.source.values()))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert parsed_at_first_paint and not any(".pane-table" in css for css in parsed_at_first_paint)
        ci = app.pane("ci")
        assert ci.table.styles.height is not None and ci.table.styles.height.unit.name == "FRACTION"  # panes.tcss
        assert ci.query_one(".table-tools").styles.display == "none"
        assert ci.query_one(".gate-line").styles.padding.left == 1
