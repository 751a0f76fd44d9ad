"""The Textual app: a header, the panes in tabs, a status bar, the keys; the panes do their own work.

The panes are declared in ``cockpit.ui.pane_table`` and placed by ``cockpit.ui.pane_slots`` (the
overview before the first paint, the others right after it). The app is the panes' host
(``cockpit.ui.host.PaneHost``); they tell it what they did with messages. Once a second it looks at the
state file, the status bar and stale ages. A failing load or action becomes a notice (``ui.notices``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from cockpit.domain.gates import Gate
from cockpit.ui.app_keys import APP_BINDINGS
from cockpit.ui.keymap import merged_bindings, textual_keymap
from cockpit.ui.notices import SaysNotices
from cockpit.ui.pane_cycle import STEPS, stepped
from cockpit.ui.pane_slots import PaneSlots
from cockpit.ui.pane_table import DERIVED_FROM, PANES, PATCH_PANES, PaneSpec, pane_class, panes_for
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.overview import OverviewPane
from cockpit.ui.status_watch import show_status, state_changed
from cockpit.ui.stylesheets import DIALOG_CSS, PANES_CSS, add_css
from cockpit.ui.tabs import PaneTabs
from cockpit.ui.theme_choice import start_theme, switch_theme
from cockpit.ui.themes import complete_themes
from cockpit.ui.unexpected import report_unexpected
from cockpit.ui.widgets import CockpitHeader, GatesReported, StatusBar, VerdictReady

if TYPE_CHECKING:
    from cockpit.backend import Backend
    from cockpit.domain.repos import RepoReport
    from cockpit.state.read_only import ReadOnlyReason
    from cockpit.ui.host import WorkChanged
    from cockpit.ui.repo_rows import RepositoriesLoaded

__all__ = ["DERIVED_FROM", "PANES", "PATCH_PANES", "CockpitApp", "PaneSpec", "pane_class", "panes_for"]

_log = logging.getLogger("cockpit.ui")


def _cockpit_commands() -> type:
    """The palette's cockpit commands, imported when the palette first opens."""
    from cockpit.ui.palette import CockpitCommands

    return CockpitCommands


class CockpitApp(SaysNotices, App[None]):
    """The cockpit over one ``Backend``; ``clock`` gives "now" for ages (inject it in tests)."""

    CSS_PATH = str(Path(__file__).with_name("app.tcss"))  # absolute: a subclass elsewhere (a test) finds it too
    TITLE = "Release Cockpit"
    COMMANDS = App.COMMANDS | {_cockpit_commands}
    TICK_S = 1.0
    """How often the state file, the API budget and stale ages are looked at."""
    BINDINGS: ClassVar[list[BindingType]] = list(APP_BINDINGS)

    def __init__(self, backend: Backend, *, clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.clock = clock or (lambda: datetime.now(UTC))
        self.gates: dict[str, Gate] = {}
        self.library_reports: tuple[RepoReport, ...] = ()  # each domain library's report, once loaded (overview)
        self.repo_choice = ""  # the repository filter (cockpit.ui.repo_rows): "" for all
        self.unexpected_errors: list[BaseException] = []
        self.PANES = panes_for(backend.config.release.version)
        self.slots = PaneSlots(self, self.PANES)
        self._checklist_due = False
        self._started = False
        for spec in self.PANES[len(PANES) :]:
            self.bind(spec.key, f"show_pane('{spec.name}')", description=spec.label, show=False)
        if backend.config.repos:  # several repositories: the repository filter (cockpit.ui.repo_gates)
            self.bind("at", "cycle_repo", description="Repository", key_display="@")
        if backend.config.keymap:
            self.set_keymap(textual_keymap(backend.config.keymap))
        self._theme_problems = start_theme(self, backend)

    def compose(self) -> ComposeResult:
        release = self.backend.config.release
        title = f"Release Cockpit · {release.repository} {release.version} · {release.branch}"
        yield CockpitHeader(title, read_only=self.backend.read_only, why=self._read_only_why())
        yield PaneTabs(((spec.name, spec.title) for spec in self.PANES), active="overview", id="tabs")
        # One slot per pane, children of the screen: the overview's now, the others' after the first paint.
        with self.slots.slots["overview"]:
            yield OverviewPane(self.backend, id="pane-overview")
        yield StatusBar()
        yield self.slots.key_line_place  # the key line takes its place after the first paint

    def on_mount(self) -> None:
        # After the first paint: mounting the other panes and the loads' threads would delay it.
        self.call_after_refresh(self._after_first_frame)
        self.set_interval(self.TICK_S, self.tick)
        self._started = True
        for problem in self._theme_problems:
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=10)
        why = self._read_only_why()
        if why is not None and self.backend.state.problem:  # not asked for: say why, and what to do
            self.notify(str(why), title=f"Read-only: {why.summary}", severity="warning", markup=False, timeout=30)

    async def _after_first_frame(self) -> None:
        adding = self._add_pane_slots()
        if adding is not None:
            await adding
        self._after_first_paint()

    def _add_pane_slots(self) -> Any:
        return self.slots.add_slots()

    def _after_first_paint(self) -> None:
        add_css(self, PANES_CSS)  # parsed as the first of them is styled
        later = complete_themes(self)  # the themes not chosen, before the palette can offer them
        self._theme_problems += later
        for problem in later:
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=10)
        self._start_load(self.pane("overview"))
        # The function, not a coroutine made now: an app closing before the worker starts (q pressed
        # as it started) leaves none unawaited. The annotation gives mypy the worker's result type.
        _mounting: Worker[None] = self.run_worker(
            self._mount_panes,
            name="mount panes",
            group="startup",
            exit_on_error=False,
            description="Mounting the panes",
        )

    async def _mount_panes(self) -> None:
        await self.slots.mount_panes(self.backend, self._start_load, self.report_unexpected)

    def _start_load(self, pane: Pane) -> None:
        pane.reload_with(self.gates)

    def mounted_panes(self) -> list[Pane]:
        """The panes in place now (all of them, a moment after start)."""
        return self.slots.mounted_panes()

    def mounted_pane(self, name: str) -> Pane | None:
        """Pane ``name`` once it is in place with its widgets (composed), else None."""
        return self.slots.mounted_pane(name)

    def pane(self, name: str) -> Pane:
        return self.query_one(f"#pane-{name}", Pane)

    @property
    def overview(self) -> OverviewPane | None:
        """The overview pane (composed with the app: there until the app closes)."""
        return next(iter(self.query("#pane-overview").results(OverviewPane)), None)

    @property
    def current_name(self) -> str:  # the pane on screen
        return self.slots.current

    def tick(self) -> None:
        """Follow the state file, show the work in flight and the API budget, age the stale markers."""
        self.follow_state()
        self.show_status()
        for pane in self.mounted_panes():
            pane.show_staleness()

    def on_key(self, event: events.Key) -> None:
        # A character typed in the same burst as the key that focused an input ('/carol' typed fast) is
        # the input's, in order, not a pane's key ('c'); no default: the App looks up no binding.
        focused = self.screen.focused
        if event.is_printable and isinstance(focused, Input) and not focused.disabled:
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))

    def show_status(self) -> None:
        """The status bar: which panes are loading, which actions are running, the API budget."""
        show_status(self, self.backend, (spec.name for spec in self.PANES))

    def follow_state(self) -> bool:
        """Re-read the state file when another session changed it; re-render the checklist."""
        changed = state_changed(self.backend)
        checklist = self.mounted_pane("checklist")
        if changed and checklist is not None:
            _log.debug("the state file changed; re-evaluating the checklist")
            self._start_load(checklist)
        return changed

    def report_unexpected(self, error: BaseException, where: str = "") -> None:
        """A bug, not the world: log it with its traceback, tell the user in one line, carry on."""
        self.unexpected_errors.append(error)
        report_unexpected(self, error, where)

    async def run_action(self, action: Any, default_namespace: Any = None, namespaces: Any = None) -> bool:
        """Every key's action runs here: a bug in one is told in a line and the app carries on."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:  # our bug, not the world's: the release manager keeps the screen
            self.report_unexpected(error, f"the action {action}")
            return True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            self.report_unexpected(event.worker.error, event.worker.name)
        if self._started:
            self.show_status()

    def on_work_changed(self, _message: WorkChanged) -> None:
        if self._started:
            self.show_status()

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Push a screen (and read the dialogs' CSS, the first time)."""
        add_css(self, DIALOG_CSS)
        return super().push_screen(screen, *args, **kwargs)

    def _read_only_why(self) -> ReadOnlyReason | None:  # why the state file cannot be written, if it cannot
        return self.backend.state.why_read_only if self.backend.read_only else None

    def switch_theme(self, name: str) -> None:
        """Use theme ``name`` now and remember it in the state file (not in a read-only session)."""
        switch_theme(self, self.backend, name, self.mounted_panes())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own theme picker would neither remember the choice nor recolour the tables.
        return (c for c in super().get_system_commands(screen) if c.title != "Theme")

    def action_show_pane(self, name: str) -> None:
        """Show pane ``name`` (a digit, the palette, its tab; ``+1``/``-1``: ``]``/``[``, Tab) and focus it."""
        names = [spec.name for spec in self.PANES]
        target = stepped(self, names, self.current_name, name) if name in STEPS else name
        if target in names:  # else an unknown name, or Tab moved the focus in a dialog or a text field
            self.query_one(PaneTabs).show(target)
            if self.slots.show(target):  # else its pane is mounted first of all, and takes the focus then
                self.slots.focus(target)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focus never rests in a hidden pane, where keys would act on rows nobody sees."""
        slot = self.slots.hidden_slot_of(event.widget)
        if slot is not None and event.widget.screen is self.screen:
            _log.debug("focus went to the hidden %s pane; back to %s", slot.id, self.current_name)
            self.screen.set_focus(None)  # the pane on screen takes it now, or when it has loaded
            self.slots.focus(self.current_name)

    def action_cycle_repo(self) -> None:
        """``@``: show all repositories, the core's gates, or one library's, in turn."""
        from cockpit.ui.repo_gates import cycle

        cycle(self)

    def on_repositories_loaded(self, message: RepositoriesLoaded) -> None:
        """The overview loaded every domain library: the table panes add their rows (never load them)."""
        from cockpit.ui.repo_rows import refresh_tables

        self.library_reports = message.reports
        refresh_tables(self)

    def action_refresh_pane(self) -> None:
        self.backend.forget_reused()  # an explicit refresh always re-reads, even what was read a moment ago
        if (pane := self.mounted_pane(self.current_name)) is not None:  # None in the moment after start
            self._start_load(pane)

    def action_refresh_all(self) -> None:
        self.backend.forget_reused()  # then every pane's load at once, each in its own worker group
        for pane in self.mounted_panes():
            self._start_load(pane)

    def action_help(self) -> None:
        from cockpit.ui.help import HelpScreen

        name = self.current_name
        title = {spec.name: spec.title for spec in self.PANES}[name]
        keymap = self.backend.config.keymap
        self.push_screen(
            HelpScreen(title, merged_bindings(pane_class(name)), merged_bindings(type(self)), keymap=keymap)
        )

    def on_gates_reported(self, message: GatesReported) -> None:
        self.gates.update({g.name: g for g in message.gates})
        self.slots.propagate_staleness({g.name for g in message.gates}, DERIVED_FROM)
        if self.overview is not None:  # else the app is closing: its widgets are being taken down
            self.overview.show_gates(self.gates)
        if any(g.name != "checklist" for g in message.gates) and not self._checklist_due:
            # Several panes often finish together: evaluate the checklist once for all of them.
            self._checklist_due = True
            self.call_after_refresh(self._reevaluate_checklist)

    def _reevaluate_checklist(self) -> None:
        self._checklist_due = False
        checklist = self.mounted_pane("checklist")
        if checklist is not None:  # otherwise it loads with these gates when mounted
            self._start_load(checklist)

    def on_verdict_ready(self, message: VerdictReady) -> None:
        if self.overview is not None:
            self.overview.show_verdict(message.verdict)
