"""The Textual app: a header, six panes in tabs, a footer; the panes do their own work."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, TabbedContent, TabPane

from cockpit.domain.gates import Gate
from cockpit.ui.help import HelpScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.branch_diff import BranchDiffPane
from cockpit.ui.panes.checklist import ChecklistPane
from cockpit.ui.panes.ci import CIPane
from cockpit.ui.panes.milestone import MilestonePane
from cockpit.ui.panes.overview import OverviewPane
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.widgets import CockpitHeader, GatesReported, VerdictReady

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


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class CockpitApp(App[None]):
    """The cockpit over one ``Backend``; ``clock`` gives "now" for ages (inject it in tests)."""

    CSS_PATH = "app.tcss"
    TITLE = "Release Cockpit"
    BINDINGS = [
        *(_pane_binding(i, name, title) for i, (name, title, _cls) in enumerate(PANES)),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave the cockpit"),
        Binding("r", "refresh_pane", "Refresh", id="app.refresh", tooltip="Load the current pane again"),
        Binding("R", "refresh_all", "Refresh all", id="app.refresh_all", tooltip="Load every pane again"),
        Binding("question_mark", "help", "Help", key_display="?", id="app.help", tooltip="List the keys of this pane"),
    ]

    def __init__(self, backend: "Backend", *, clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.clock = clock or utc_now
        self.gates: dict[str, Gate] = {}
        self._checklist_due = False
        if backend.config.keymap:
            self.set_keymap(backend.config.keymap)

    def compose(self) -> ComposeResult:
        release = self.backend.config.release
        title = f"Release Cockpit · {release.repository} {release.version} · {release.branch}"
        yield CockpitHeader(title, read_only=self.backend.read_only)
        with TabbedContent(initial="overview", id="panes"):
            for name, title, cls in PANES:
                with TabPane(title, id=name):
                    yield cls(self.backend, id=f"pane-{name}")
        yield Footer()

    def on_mount(self) -> None:
        self.action_refresh_all()

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
        self.push_screen(HelpScreen(title, list(type(pane).BINDINGS), list(self.BINDINGS),
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
