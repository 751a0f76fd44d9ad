"""The Textual app: a header, six panes in tabs, a status bar, the keys; the panes do their own work.

Once a second the app looks at the state file (a viewer follows another session's progress), the
API budget in the status bar and the age of stale panes. An unexpected error in an action or a
worker becomes a notification (and a debug-log record), never a crash or a traceback. Themes are
installed before the CSS is parsed; the one chosen from the palette is remembered in the state file.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Iterable

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, TabbedContent, TabPane
from textual.worker import Worker, WorkerState

from cockpit.domain.gates import Gate
from cockpit.errors import ConfigError
from cockpit.ui.help import HelpScreen
from cockpit.ui.keymap import drop_unbound, merged_bindings, split_keymap
from cockpit.ui.palette import CockpitCommands
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.branch_diff import BranchDiffPane
from cockpit.ui.panes.checklist import ChecklistPane
from cockpit.ui.panes.ci import CIPane
from cockpit.ui.panes.milestone import MilestonePane
from cockpit.ui.panes.overview import OverviewPane
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.themes import install_themes
from cockpit.ui.widgets import CockpitHeader, GatesReported, StatusBar, VerdictReady, error_text

if TYPE_CHECKING:
    from cockpit.backend import Backend

PANES: tuple[tuple[str, str, type[Pane]], ...] = (
    ("overview", "0 Overview", OverviewPane),
    ("milestone", "1 Milestone", MilestonePane),
    ("picks", "2 Cherry-picks", PicksPane),
    ("ci", "3 CI", CIPane),
    ("branch", "4 Branch diff", BranchDiffPane),
    ("checklist", "5 Checklist", ChecklistPane),
)


def _pane_binding(index: int, name: str, title: str) -> Binding:
    return Binding(str(index), f"show_pane('{name}')", title.split(" ", 1)[1], show=False,
                   id=f"app.pane.{name}", tooltip=f"Show the {title.split(' ', 1)[1]} pane")


_log = logging.getLogger("cockpit.ui")


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class CockpitApp(App[None]):
    """The cockpit over one ``Backend``; ``clock`` gives "now" for ages (inject it in tests)."""

    CSS_PATH = "app.tcss"
    TITLE = "Release Cockpit"
    COMMANDS = App.COMMANDS | {CockpitCommands}
    PANES = PANES
    TICK_S = 1.0
    """How often the state file, the API budget and stale ages are looked at."""
    BINDINGS = [
        *(_pane_binding(i, name, title) for i, (name, title, _cls) in enumerate(PANES)),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave the cockpit"),
        Binding("r", "refresh_pane", "Refresh", id="app.refresh", tooltip="Load the current pane again"),
        Binding("R", "refresh_all", "Refresh all", id="app.refresh_all", tooltip="Load every pane again"),
        Binding("question_mark", "help", "Help", key_display="?", id="app.help", tooltip="List the keys of this pane"),
        Binding("f1", "help", "Help", show=False, id="app.help_f1", tooltip="List the keys of this pane"),
    ]

    def __init__(self, backend: "Backend", *, clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.clock = clock or utc_now
        self.gates: dict[str, Gate] = {}
        self._checklist_due = False
        self._mounted_ok = False
        self.unexpected_errors: list[BaseException] = []
        self.fatal_error: BaseException | None = None
        remap, self.unbound_ids = split_keymap(backend.config.keymap)
        if remap:
            self.set_keymap(remap)
        drop_unbound(self, self.unbound_ids)
        # Before the CSS is parsed: it uses the themes' $cockpit-* colours. An unknown
        # [ui] theme raises ConfigError here, before the app starts.
        try:
            self._theme_problems = install_themes(self, requested=backend.config.theme or None,
                                                  remembered=self._remembered_theme())
        except ConfigError as exc:
            raise ConfigError(f"{backend.config.path}: key 'ui.theme': {exc.message}") from None

    def compose(self) -> ComposeResult:
        release = self.backend.config.release
        title = f"Release Cockpit · {release.repository} {release.version} · {release.branch}"
        yield CockpitHeader(title, read_only=self.backend.read_only)
        with TabbedContent(initial="overview", id="panes"):
            for name, title, cls in PANES:
                with TabPane(title, id=name):
                    yield cls(self.backend, id=f"pane-{name}")
        yield StatusBar()
        yield Footer()

    def on_mount(self) -> None:
        # After the first paint: the loads' threads would otherwise compete with it for the GIL.
        self.call_after_refresh(self.action_refresh_all)
        self.set_interval(self.TICK_S, self.tick)
        self._mounted_ok = True
        for problem in self._theme_problems:
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=10)

    def tick(self) -> None:
        """Follow the state file, show the work in flight and the API budget, age the stale markers."""
        self.follow_state()
        self.show_status()
        for name, _title, _cls in PANES:
            self.pane(name).show_staleness()

    def show_status(self) -> None:
        """The status bar: which panes are loading, which actions are running, the API budget."""
        busy = [w for w in self.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        loading = [name for name, _t, _c in PANES if any(w.group == name for w in busy)]
        running = [w.name for w in busy if w.group == "actions"]
        bar = self.query_one(StatusBar)
        bar.show_tasks(loading, running)
        budget = getattr(self.backend, "rate_limit_text", None)
        if budget is not None:
            bar.show_budget(budget())

    def follow_state(self) -> bool:
        """Re-read the state file when another session changed it; re-render the checklist."""
        reload = getattr(self.backend.state, "reload_if_changed", None)
        try:
            changed = bool(reload()) if reload is not None else False
        except Exception as exc:  # a state file being replaced under us: try again next tick
            _log.info("could not re-read the state file: %s", exc)
            return False
        if changed:
            _log.debug("the state file changed; re-evaluating the checklist")
            self.pane("checklist").reload_with(self.gates)
        return changed

    def report_unexpected(self, error: BaseException, where: str = "") -> None:
        """A bug, not the world: log it with its traceback, tell the user in one line, carry on."""
        self.unexpected_errors.append(error)
        _log.error("unexpected error%s", f" in {where}" if where else "",
                   exc_info=(type(error), error, error.__traceback__))
        from cockpit import logging_setup

        hint = f" (details in {logging_setup.current_log()})" if logging_setup.current_log() else " (run with --debug for details)"
        self.notify(logging_setup.scrub(error_text(error) + hint), title="Unexpected error", severity="error",
                    markup=False, timeout=10)

    def _handle_exception(self, error: Exception) -> None:
        if isinstance(error, Exception) and self._mounted_ok:
            self.report_unexpected(error)
            return
        if isinstance(error, Exception) and not self.is_headless:
            self.fatal_error = error  # the CLI prints it in one line after the screen is restored
            self._return_code = 1
            self.exit(return_code=1)
            return
        super()._handle_exception(error)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.report_unexpected(event.worker.error, event.worker.name)
        if self._mounted_ok:
            self.show_status()

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Push a screen with the keys the user unbound in ``[keymap]`` taken off it."""
        if isinstance(screen, Screen):
            drop_unbound(screen, self.unbound_ids)
        return super().push_screen(screen, *args, **kwargs)

    def _remembered_theme(self) -> str | None:
        pref = getattr(self.backend.state, "pref", None)
        try:
            value = pref("theme") if pref is not None else None
        except Exception as exc:  # an unreadable preference only costs the remembered theme
            _log.info("could not read the remembered theme: %s", exc)
            return None
        return value if isinstance(value, str) else None

    def theme_names(self) -> list[str]:
        """The registered themes, the cockpit's first."""
        names = sorted(self.available_themes)
        return sorted(names, key=lambda n: not n.startswith("cockpit-"))

    def switch_theme(self, name: str) -> None:
        """Use theme ``name`` now and remember it in the state file (not in a read-only session)."""
        self.theme = name
        for pane_name, _title, _cls in PANES:
            self.pane(pane_name).rerender()  # table cells carry the theme's colours
        set_pref = getattr(self.backend.state, "set_pref", None)
        if self.backend.read_only or set_pref is None:
            self.notify(f"Theme {name}: not remembered, this session is read-only.", markup=False)
            return
        try:
            set_pref("theme", name)
        except Exception as exc:
            self.notify(f"Theme {name}: not remembered: {error_text(exc)}", severity="warning", markup=False)
            return
        self.notify(f"Theme {name}: remembered for next time.", markup=False)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own theme picker would neither remember the choice nor recolour the tables.
        return (c for c in super().get_system_commands(screen) if c.title != "Theme")

    def pane(self, name: str) -> Pane:
        return self.query_one(f"#pane-{name}", Pane)

    @property
    def current_pane(self) -> Pane:
        return self.pane(self.query_one(TabbedContent).active or "overview")

    def action_show_pane(self, name: str) -> None:
        self.query_one(TabbedContent).active = name
        self.pane(name).focus_body()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id:
            self.call_after_refresh(self.pane(event.pane.id).focus_body)

    def action_refresh_pane(self) -> None:
        pane = self.current_pane
        if isinstance(pane, ChecklistPane):
            pane.reload_with(self.gates)
        else:
            pane.reload()

    def action_refresh_all(self) -> None:
        """Start every pane's load at once, each in its own worker group."""
        for name, _title, _cls in PANES:
            pane = self.pane(name)
            pane.reload_with(self.gates) if isinstance(pane, ChecklistPane) else pane.reload()

    def action_help(self) -> None:
        pane = self.current_pane
        title = dict((n, t) for n, t, _c in PANES)[pane.PANE or "overview"]
        self.push_screen(HelpScreen(title, merged_bindings(type(pane)), merged_bindings(type(self)),
                                    keymap=self.backend.config.keymap))

    def on_gates_reported(self, message: GatesReported) -> None:
        self.gates.update({g.name: g for g in message.gates})
        self.pane("overview").show_gates(self.gates)
        if any(g.name != "checklist" for g in message.gates) and not self._checklist_due:
            # Several panes often finish together: evaluate the checklist once for all of them.
            self._checklist_due = True
            self.call_after_refresh(self._reevaluate_checklist)

    def _reevaluate_checklist(self) -> None:
        self._checklist_due = False
        self.pane("checklist").reload_with(self.gates)

    def on_verdict_ready(self, message: VerdictReady) -> None:
        self.pane("overview").show_verdict(message.verdict)
