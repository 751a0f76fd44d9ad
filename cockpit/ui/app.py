"""The Textual app: a header, six panes in tabs, a status bar, the keys; the panes do their own work.

Only the overview is composed before the first paint; the other five panes' slots, the key line and
then the panes themselves (and their modules) are mounted right after it, one at a time with the event
loop turning in between, each pane starting its load as soon as it is in place. The first screen
therefore appears in about the time of an empty Textual app, and a key pressed meanwhile is not lost
(its tab is mounted next).

Once a second the app looks at the state file (a viewer follows another session's progress), the
API budget in the status bar and the age of stale panes. An unexpected error in an action or a
worker becomes a notification (and a debug-log record), never a crash or a traceback. Themes are
installed before the CSS is parsed; the one chosen from the palette is remembered in the state file.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from cockpit import collector
from cockpit.domain.gates import Gate
from cockpit.errors import ConfigError
from cockpit.ui.first_screen import FirstScreen
from cockpit.ui.keymap import drop_unbound, merged_bindings, split_keymap
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.overview import OverviewPane
from cockpit.ui.tabs import PaneTabs
from cockpit.ui.themes import complete_themes, install_themes
from cockpit.ui.widgets import (
    CockpitHeader,
    GatesReported,
    StatusBar,
    VerdictReady,
    error_text,
)

if TYPE_CHECKING:
    from textual.widget import AwaitMount

    from cockpit.backend import Backend
    from cockpit.state.read_only import ReadOnlyReason

PaneFactory = Callable[[], type[Pane]]
"""Gives a pane's class, importing its module on first call (a pane module costs the first paint)."""


def _overview() -> type[Pane]:
    return OverviewPane


def _milestone() -> type[Pane]:
    from cockpit.ui.panes.milestone import MilestonePane

    return MilestonePane


def _picks() -> type[Pane]:
    from cockpit.ui.panes.picks import PicksPane

    return PicksPane


def _ci() -> type[Pane]:
    from cockpit.ui.panes.ci import CIPane

    return CIPane


def _branch() -> type[Pane]:
    from cockpit.ui.panes.branch_diff import BranchDiffPane

    return BranchDiffPane


def _checklist() -> type[Pane]:
    from cockpit.ui.panes.checklist import ChecklistPane

    return ChecklistPane


def _triage() -> type[Pane]:
    from cockpit.ui.panes.triage import TriagePane

    return TriagePane


PANES: tuple[tuple[str, str, PaneFactory], ...] = (
    ("overview", "0 Overview", _overview),
    ("milestone", "1 Milestone", _milestone),
    ("picks", "2 Cherry-picks", _picks),
    ("ci", "3 CI", _ci),
    ("branch", "4 Branch diff", _branch),
    ("checklist", "5 Checklist", _checklist),
)
"""Name, tab title and class (given by a factory, imported when first needed) of each pane."""
PATCH_PANES: tuple[tuple[str, str, PaneFactory], ...] = (("triage", "6 Triage", _triage),)
"""The panes a patch release adds (its version's patch number is not zero)."""
DERIVED_FROM: dict[str, tuple[str, ...]] = {"milestone": ("branch",)}
"""Panes whose report is computed from another pane's data (the picks read PRs one by one instead)."""


def pane_class(name: str) -> type[Pane]:
    """The class of pane ``name``, importing its module on first use."""
    return next(factory for pane, _title, factory in (*PANES, *PATCH_PANES) if pane == name)()


def panes_for(version: str) -> tuple[tuple[str, str, PaneFactory], ...]:
    """The panes of a release: a patch release ("2.5.1") also has the triage pane."""
    patch = version.split(".")[2:3]
    return PANES + PATCH_PANES if patch and patch[0].isdigit() and int(patch[0]) else PANES


def _cockpit_commands() -> type:
    """The palette's cockpit commands, imported when the palette first opens."""
    from cockpit.ui.palette import CockpitCommands

    return CockpitCommands


def _pane_binding(index: int, name: str, title: str) -> Binding:
    return Binding(
        str(index),
        f"show_pane('{name}')",
        title.split(" ", 1)[1],
        show=False,
        id=f"app.pane.{name}",
        tooltip=f"Show the {title.split(' ', 1)[1]} pane",
    )


_log = logging.getLogger("cockpit.ui")

DIALOG_CSS = Path(__file__).with_name("dialogs.tcss")
"""The dialogs' rules: parsed when the first dialog opens, not before the first screen."""


PANES_CSS = Path(__file__).with_name("panes.tcss")
"""The rules of the panes mounted after the first paint: read just before they are."""


def add_dialog_css(app: App[Any]) -> None:
    """Add the dialogs' CSS to ``app``'s stylesheet, once; it is parsed before the next widget is styled."""
    if not app.stylesheet.has_source(str(DIALOG_CSS)):
        app.stylesheet.read(DIALOG_CSS)


def utc_now() -> datetime:
    return datetime.now(UTC)


class CockpitApp(App[None]):
    """The cockpit over one ``Backend``; ``clock`` gives "now" for ages (inject it in tests)."""

    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    """Absolute, so that a subclass defined elsewhere (a test, a benchmark) finds it too."""
    TITLE = "Release Cockpit"
    COMMANDS = App.COMMANDS | {_cockpit_commands}
    PANES = PANES
    TICK_S = 1.0
    """How often the state file, the API budget and stale ages are looked at."""
    SWEEP_IDLE_S = 5.0
    """The full garbage collection (``cockpit.collector.sweep``) waits for this long without a key or a click."""
    BINDINGS: ClassVar[list[BindingType]] = [
        *(_pane_binding(i, name, title) for i, (name, title, _path) in enumerate(PANES)),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave the cockpit"),
        Binding("r", "refresh_pane", "Refresh", id="app.refresh", tooltip="Load the current pane again"),
        Binding("R", "refresh_all", "Refresh all", id="app.refresh_all", tooltip="Load every pane again"),
        Binding("question_mark", "help", "Help", key_display="?", id="app.help", tooltip="List the keys of this pane"),
        Binding("f1", "help", "Help", show=False, id="app.help_f1", tooltip="List the keys of this pane"),
    ]

    def __init__(
        self,
        backend: Backend,
        *,
        clock: Callable[[], datetime] | None = None,
        stylesheet_cache: Path | None = None,
    ) -> None:
        """``stylesheet_cache``: a folder where parsed CSS is kept between starts (``cockpit.ui.stylesheet_cache``);
        the command line passes one, tests usually none (every start parses, as Textual does)."""
        super().__init__()
        if stylesheet_cache is not None:
            from cockpit.ui.stylesheet_cache import CachedStylesheet

            self.stylesheet = CachedStylesheet(stylesheet_cache, variables=self.stylesheet._variables)
        self.backend = backend
        self.clock = clock or utc_now
        self.gates: dict[str, Gate] = {}
        self.library_reports: tuple[Any, ...] = ()  # each domain library's RepoReport, once loaded (overview)
        self.repo_choice = ""  # the repository filter (cockpit.ui.repo_rows): "" for all
        self._checklist_due = False
        self._mounted_ok = False
        self._last_input = 0.0  # time.monotonic() of the last key or mouse event
        self._thresholds: tuple[int, int, int] | None = None  # the collector's, while the screen is up
        self.unexpected_errors: list[BaseException] = []
        self._key_line_place = Container(id="key-line-place")
        # Each pane's slot by pane name: the overview's now, the others' once added (_add_pane_slots).
        self._slots = {"overview": Container(id="overview", classes="pane-slot")}
        self._current = "overview"  # the name of the pane on screen
        self.fatal_error: BaseException | None = None
        self.PANES = panes_for(backend.config.release.version)
        for index, (name, title, _factory) in enumerate(self.PANES[len(PANES) :], start=len(PANES)):
            self.bind(str(index), f"show_pane('{name}')", description=title.split(" ", 1)[1], show=False)
        if backend.config.repos:  # several repositories: the repository filter (cockpit.ui.repo_gates)
            self.bind("at", "cycle_repo", description="Repository", key_display="@")
        remap, self.unbound_ids = split_keymap(backend.config.keymap)
        if remap:
            self.set_keymap(remap)
        drop_unbound(self, self.unbound_ids)
        # Before the CSS is parsed: it uses the themes' $cockpit-* colours. An unknown
        # [ui] theme raises ConfigError here, before the app starts.
        self._theme_chosen = True
        try:
            self._theme_problems = install_themes(
                self, requested=backend.config.theme or None, remembered=self._remembered_theme(), others_later=True
            )
        except ConfigError as exc:
            raise ConfigError(f"{backend.config.path}: key 'ui.theme': {exc.message}") from None

    _theme_chosen = False
    """False while Textual's ``App.__init__`` runs, before the cockpit's theme is chosen (``__init__``)."""

    def get_css_variables(self) -> dict[str, str]:
        # Textual's App.__init__ asks for the variables of its default theme, which the theme chosen just
        # after replaces before any CSS is parsed: working them out (about 1 ms) would be wasted.
        return super().get_css_variables() if self._theme_chosen else {}

    def compose(self) -> ComposeResult:
        release = self.backend.config.release
        title = f"Release Cockpit · {release.repository} {release.version} · {release.branch}"
        yield CockpitHeader(title, read_only=self.backend.read_only, why=self._read_only_why())
        yield PaneTabs(((name, title) for name, title, _path in self.PANES), active="overview", id="tabs")
        # One slot per pane, the one on screen shown: the overview's now, the others' after the first
        # paint (_add_pane_slots). Children of the screen, not of a switcher: a level of full-size
        # containers fewer to style, lay out and draw.
        with self._slots["overview"]:
            yield OverviewPane(self.backend, id="pane-overview")
        yield StatusBar()
        yield self._key_line_place  # the key line (KeysFooter) takes its place after the first paint

    def get_default_screen(self) -> Screen:
        return FirstScreen(id="_default")

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Run the app; what was imported and built until now is kept out of the garbage collector.

        Those objects live as long as the process. Without the freeze the collector's first full
        pass over them (some 30 ms) falls in the middle of drawing the first screen. A collector
        paused by the entry point (``cockpit.collector``) resumes after the first paint.
        """
        gc.freeze()
        try:
            return super().run(*args, **kwargs)
        finally:
            collector.resume()

    def _save_parsed_css(self) -> None:
        save = getattr(self.stylesheet, "save", None)  # a CachedStylesheet's (cockpit.ui.stylesheet_cache)
        if save is not None:
            save()

    def on_mount(self) -> None:
        # After the first paint: mounting the other panes and the loads' threads would delay it.
        self.call_after_refresh(self._after_first_frame)
        self.set_interval(self.TICK_S, self.tick)
        self._mounted_ok = True
        for problem in self._theme_problems:
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=10)
        why = self._read_only_why()
        if why is not None and self.backend.state.problem:  # not asked for: say why, and what to do
            self.notify(str(why), title=f"Read-only: {why.summary}", severity="warning", markup=False, timeout=30)

    def _after_first_paint(self) -> None:
        if not self.stylesheet.has_source(str(PANES_CSS)):  # parsed as the first of them is styled
            self.stylesheet.read(PANES_CSS)
        later = complete_themes(self)  # the themes not chosen, before the palette can offer them
        self._theme_problems += later
        for problem in later:
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=10)
        collector.resume()
        self._thresholds = collector.interactive()
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

    async def _after_first_frame(self) -> None:
        adding = self._add_pane_slots()
        if adding is not None:
            await adding
        self._after_first_paint()

    def _add_pane_slots(self) -> AwaitMount | None:
        """Add the other panes' slots, hidden, once: right after the first paint (five hidden containers
        were about a hundredth of the work before it), or at a pane key pressed before that. None once
        they are added (every pane switch asks)."""
        if len(self._slots) == len(self.PANES):
            return None
        overview = self._slots["overview"]
        slots = []
        for name, _title, _path in self.PANES:
            if name not in self._slots:
                slot = self._slots[name] = Container(id=name, classes="pane-slot")
                slot.display = name == self._current
                slots.append(slot)
        screen = overview.parent
        if not isinstance(screen, Widget):  # the app is closing
            return None
        return screen.mount_all(slots, after=overview)  # in the order of the tabs

    async def _mount_key_line(self) -> None:
        """Put the key line in the place kept for it.

        Textual's ``Footer`` shows no keys before its first bindings update, which comes after the first
        paint: in the first frame it is an empty line, which its place draws alike. Importing it, parsing
        its CSS and mounting it were about a fiftieth of the time to the first frame.
        """
        from cockpit.ui.footer import KeysFooter

        place = self._key_line_place
        if not place.is_attached:  # the app is closing
            return
        footer = KeysFooter()
        await place.screen.mount(footer, before=place)
        await place.remove()
        footer.screen.refresh_bindings()  # the update it would have had, had it been there at the start

    async def _mount_panes(self) -> None:
        """Mount the key line and the panes not composed at start, the one on screen first, each loading at once."""
        await self._mount_key_line()
        waiting = [name for name, _title, _path in self.PANES if not self.query(f"#pane-{name}")]
        while waiting:
            name = self.current_name if self.current_name in waiting else waiting[0]
            waiting.remove(name)
            slot = self._slots[name]
            if not slot.is_attached:  # the app is closing: its widgets are being taken down
                return
            try:
                pane = pane_class(name)(self.backend, id=f"pane-{name}")
                await slot.query(".pane-starting").remove()
                await slot.mount(pane)
            except Exception as exc:  # a bug in one pane: say so, in its tab too, and mount the others
                self.report_unexpected(exc, f"mounting the {name} pane")
                await slot.remove_children()
                await slot.mount(Static(Text(f"This pane could not be built: {error_text(exc)}"), classes="pane-error"))
                slot.query_one(".pane-error").display = True
                continue
            self._start_load(pane)
            if self.current_name == name:  # once it is laid out: a hidden or new widget takes no focus
                self.call_after_refresh(self._focus_pane, name)
            await asyncio.sleep(0)  # let keys and repaints in between two panes
        self._save_parsed_css()  # all panes' widgets are styled: the next start need not parse their CSS

    def _start_load(self, pane: Pane) -> None:
        pane.reload_with(self.gates)

    def mounted_panes(self) -> list[Pane]:
        """The panes in place now (all of them, a moment after start)."""
        return [pane for name, _title, _path in self.PANES if (pane := self.mounted_pane(name)) is not None]

    def mounted_pane(self, name: str) -> Pane | None:
        """Pane ``name`` once it is in place with its widgets (composed), else None."""
        found = self.query(f"#pane-{name}")
        pane = next(iter(found.results(Pane)), None)
        return pane if pane is not None and pane.is_mounted else None

    def tick(self) -> None:
        """Follow the state file, show the work in flight and the API budget, age the stale markers;
        collect the garbage of earlier loads when nobody is typing."""
        self.follow_state()
        self.show_status()
        for pane in self.mounted_panes():
            pane.show_staleness()
        if time.monotonic() - self._last_input >= self.SWEEP_IDLE_S:
            collector.sweep()

    def on_unmount(self) -> None:
        self._save_parsed_css()  # what was parsed since the panes were mounted (a dialog's CSS, say)
        if self._thresholds is not None:
            collector.restore(self._thresholds)
            collector.release()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self._last_input = time.monotonic()
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # A character that comes back here unhandled while an input has the focus was typed in the
        # same burst as the key that focused it ('/carol' typed fast or pasted arrives in one read):
        # it was routed to the table before '/' opened the filter. It is the input's, in order;
        # run as a key of the pane ('c', the bot command) it would surprise.
        # (Textual then runs App._on_key itself, which checks the bindings, unless prevented here.)
        focused = self.screen.focused
        if event.is_printable and isinstance(focused, Input) and not focused.disabled:
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))

    def show_status(self) -> None:
        """The status bar: which panes are loading, which actions are running, the API budget."""
        busy = [w for w in self.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        loading = [name for name, _t, _p in self.PANES if any(w.group == name for w in busy)]
        running = [w.name for w in busy if w.group == "actions"]
        bar = next(iter(self.query(StatusBar)), None)
        if bar is None:  # the app is closing (workers end as their widgets go): nothing to show
            return
        bar.show_tasks(loading, running)
        bar.show_budget(self.backend.rate_limit_text())

    def follow_state(self) -> bool:
        """Re-read the state file when another session changed it; re-render the checklist."""
        try:
            changed = self.backend.state.reload_if_changed()
        except Exception as exc:  # a state file being replaced under us: try again next tick
            _log.info("could not re-read the state file: %s", exc)
            return False
        checklist = self.mounted_pane("checklist")
        if changed and checklist is not None:
            _log.debug("the state file changed; re-evaluating the checklist")
            self._start_load(checklist)
        return changed

    def report_unexpected(self, error: BaseException, where: str = "") -> None:
        """A bug, not the world: log it with its traceback, tell the user in one line, carry on."""
        self.unexpected_errors.append(error)
        _log.error(
            "unexpected error%s", f" in {where}" if where else "", exc_info=(type(error), error, error.__traceback__)
        )
        from cockpit import logging_setup

        hint = (
            f" (details in {logging_setup.current_log()})"
            if logging_setup.current_log()
            else " (run with --debug for details)"
        )
        self.notify(
            logging_setup.scrub(error_text(error) + hint),
            title="Unexpected error",
            severity="error",
            markup=False,
            timeout=10,
        )

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
        """Push a screen with the keys the user unbound in ``[keymap]`` taken off it (and the
        dialogs' CSS read, the first time)."""
        add_dialog_css(self)
        if isinstance(screen, Screen):
            drop_unbound(screen, self.unbound_ids)
        return super().push_screen(screen, *args, **kwargs)

    def _read_only_why(self) -> ReadOnlyReason | None:
        """Why the state file cannot be written, or None (a session that writes; a state that does not say)."""
        return self.backend.state.why_read_only if self.backend.read_only else None

    def _remembered_theme(self) -> str | None:
        try:
            value = self.backend.state.pref("theme")
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
        for pane in self.mounted_panes():
            pane.rerender()  # table cells carry the theme's colours
        if self.backend.read_only:
            self.notify(f"Theme {name}: not remembered, this session is read-only.", markup=False)
            return
        try:
            self.backend.state.set_pref("theme", name)
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
    def overview(self) -> OverviewPane:
        """The overview pane (composed with the app: always there)."""
        return self.query_one("#pane-overview", OverviewPane)

    @property
    def current_name(self) -> str:
        """The name of the pane on screen."""
        return self._current

    @property
    def current_pane(self) -> Pane | None:
        """The pane on screen; None in the moment after start before it is mounted."""
        return self.mounted_pane(self.current_name)

    def action_show_pane(self, name: str) -> None:
        """Show pane ``name`` (a number key, the palette, a click on its tab) and focus it."""
        if name not in {n for n, _t, _p in self.PANES}:
            return
        slot_ready = self._slots.get(name) is not None and self._slots[name].is_mounted
        self._add_pane_slots()  # a key pressed before the first paint: the slots come now
        if name != self._current:
            with self.batch_update():
                self._slots[self._current].display = False
                self._slots[name].display = True
            self._current = name
        self.query_one(PaneTabs).show(name)
        if slot_ready:  # else its pane is mounted first of all, and takes the focus then (_mount_panes)
            self._focus_pane(name)

    def _focus_pane(self, name: str) -> None:
        """Focus the body of pane ``name`` if it is on screen; one not mounted yet shows a loading
        indicator and takes the focus when it is."""
        if self.current_name != name:
            return
        pane = self.mounted_pane(name)
        if pane is not None:
            pane.focus_body()
        else:
            self.screen.set_focus(None)
            slot = self._slots[name]
            if not slot.children:  # a placeholder child, not slot.loading: its cover would keep the focus off
                from textual.widgets import LoadingIndicator

                slot.mount(LoadingIndicator(classes="pane-starting"))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focus never rests in a hidden pane, where keys would act on rows nobody sees."""
        slot = next((a for a in event.widget.ancestors if isinstance(a, Container) and a.has_class("pane-slot")), None)
        if slot is not None and slot.id != self.current_name and event.widget.screen is self.screen:
            _log.debug("focus went to the hidden %s pane; back to %s", slot.id, self.current_name)
            self.screen.set_focus(None)  # the pane on screen takes it now, or when it has loaded
            self._focus_pane(self.current_name)

    def action_cycle_repo(self) -> None:
        """``@``: show all repositories, the core's gates, or one library's, in turn."""
        from cockpit.ui.repo_gates import cycle

        cycle(self)

    def on_repositories_loaded(self, message: Any) -> None:
        """The overview loaded every domain library: the table panes add their rows (never load them)."""
        from cockpit.ui.repo_rows import refresh_tables

        self.library_reports = message.reports
        refresh_tables(self)

    def action_refresh_pane(self) -> None:
        pane = self.current_pane
        if pane is not None:
            self._start_load(pane)

    def action_refresh_all(self) -> None:
        """Start every pane's load at once, each in its own worker group."""
        for pane in self.mounted_panes():
            self._start_load(pane)

    def action_help(self) -> None:
        from cockpit.ui.help import HelpScreen

        name = self.current_name
        title = {n: t for n, t, _p in self.PANES}[name]
        self.push_screen(
            HelpScreen(
                title, merged_bindings(pane_class(name)), merged_bindings(type(self)), keymap=self.backend.config.keymap
            )
        )

    def on_gates_reported(self, message: GatesReported) -> None:
        # A pane has drawn a new report: its data stays until the next load, out of the collector's way.
        self.call_after_refresh(collector.settle)
        self.gates.update({g.name: g for g in message.gates})
        self._propagate_staleness({g.name for g in message.gates})
        self.overview.show_gates(self.gates)
        if any(g.name != "checklist" for g in message.gates) and not self._checklist_due:
            # Several panes often finish together: evaluate the checklist once for all of them.
            self._checklist_due = True
            self.call_after_refresh(self._reevaluate_checklist)

    def _propagate_staleness(self, reported: set[str]) -> None:
        """A pane whose data others derive from failed to load: those show STALE too, never a fresh
        verdict on a list that could not be refreshed (their own retry reads it again)."""
        for source, derived in DERIVED_FROM.items():
            pane = self.mounted_pane(source)
            if pane is None or pane.last_failure is None or not reported & set(pane.GATES):
                continue
            for name in derived:
                other = self.mounted_pane(name)
                loading = any(w.group == name and not w.is_finished for w in self.workers)
                if other is not None and other.report is not None and not other.stale and not loading:
                    other.inputs_failed(pane.last_failure)

    def _reevaluate_checklist(self) -> None:
        self._checklist_due = False
        checklist = self.mounted_pane("checklist")
        if checklist is not None:  # otherwise it loads with these gates when mounted
            self._start_load(checklist)

    def on_verdict_ready(self, message: VerdictReady) -> None:
        self.overview.show_verdict(message.verdict)
