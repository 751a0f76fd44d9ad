"""Small widgets and helpers shared by the panes: the header, the status bar, gate lines, status
words, messages."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.color import Color
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cockpit.domain.reports import GoNoGo

STATUS_WORD = {
    GateStatus.GREEN: "GREEN",
    GateStatus.AMBER: "AMBER",
    GateStatus.RED: "RED",
    GateStatus.UNKNOWN: "UNKNOWN",
}
_THEME_VAR = {
    GateStatus.GREEN: "cockpit-pass",
    GateStatus.AMBER: "cockpit-pending",
    GateStatus.RED: "cockpit-fail",
    GateStatus.UNKNOWN: "cockpit-stale",
}

_THEME_CACHE: dict[tuple[int, str], dict[str, str]] = {}


def status_class(status: GateStatus) -> str:
    """The CSS state class for a status: ``-green``, ``-amber``, ``-red`` or ``-unknown``."""
    return f"-{status.value}"


def set_status_class(widget: Widget, status: GateStatus | None) -> None:
    """Give ``widget`` exactly one status class."""
    for s in GateStatus:
        widget.remove_class(status_class(s))
    if status is not None:
        widget.add_class(status_class(status))


def colour_of(widget: Widget, status: GateStatus, *, meaning: str | None = None) -> str:
    """The theme's colour for a status as a Rich colour, for table cells (CSS cannot reach cells).

    ``meaning`` names a semantic colour instead ("missing": from the branch, from storage).
    """
    variable = f"cockpit-{meaning}" if meaning else _THEME_VAR.get(status)
    if variable is None:
        return "dim"
    app = widget.app
    key = (id(app), app.theme)
    if key not in _THEME_CACHE:
        _THEME_CACHE[key] = app.get_css_variables()  # about 1 ms: too slow to ask per table cell
    try:
        return Color.parse(_THEME_CACHE[key][variable]).hex
    except Exception:  # a theme with an unusual value: fall back to the terminal's colour
        return ""


def status_text(widget: Widget, status: GateStatus, word: str | None = None, *, meaning: str | None = None) -> Text:
    """A coloured status word for a table cell (``meaning``: a semantic colour such as "missing")."""
    return Text(word or STATUS_WORD[status], style=f"bold {colour_of(widget, status, meaning=meaning)}".strip())


def plain(value: object) -> Text:
    """Outside text as a Rich ``Text``: never parsed as markup."""
    return Text("" if value is None else str(value))


def clip(value: object, width: int | None) -> Text:
    """Outside text as plain ``Text``, cut to ``width`` cells with an ellipsis."""
    text = plain(value)
    if width is not None:
        text.truncate(width, overflow="ellipsis")
    return text


def error_text(exc: BaseException) -> str:
    """One line a person can read; no traceback ever."""
    if isinstance(exc, CockpitError):
        return str(exc)
    return f"Unexpected {type(exc).__name__}: {exc}" if str(exc) else f"Unexpected {type(exc).__name__}"


def age_text(when: datetime | None, now: datetime) -> str:
    """``3h``, ``2d``: how long ago, from the app's clock."""
    if when is None:
        return ""
    seconds = max(0.0, (now - when).total_seconds())
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    if seconds < 86400:
        return f"{int(seconds // 3600)}h"
    return f"{int(seconds // 86400)}d"


def since_text(when: datetime, now: datetime) -> str:
    """``just now``, ``40 s ago``, ``3 min ago``, ``2 h ago``."""
    seconds = max(0.0, (now - when).total_seconds())
    if seconds < 5:
        return "just now"
    if seconds < 60:
        return f"{int(seconds)} s ago"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    return f"{int(seconds // 3600)} h ago"


def days_text(days: float | None) -> str:
    return "" if days is None else (f"{days:.0f}d" if days >= 1 else f"{days * 24:.0f}h")


class GateLine(Static):
    """The one-line gate a pane shows on top: title, status word, summary."""

    def show_gate(self, gate: Gate, *, note: str = "", busy: str = "") -> None:
        """Show ``gate``; ``note`` (e.g. "STALE · last good 3 min ago") is appended and marks it -stale;
        ``busy`` ("refreshing…") says a load of newer data is under way."""
        line = Text.assemble((f"{gate.title}: ", "bold"), (STATUS_WORD[gate.status], "bold"), "  ", gate.summary)
        if note:
            line.append("  ")
            line.append(f" {note} ", style="bold reverse")
        if busy:
            line.append(f"  · {busy}", style="italic")
        self.update(line)
        set_status_class(self, gate.status)
        self.set_class(bool(note), "-stale")


class CockpitHeader(Widget):
    """Release, repository and branch; a READ-ONLY badge when the session cannot act. One widget, one line.

    ``why`` (a ``ReadOnlyReason``) puts its summary in the badge ("READ-ONLY · state locked by pid 4242
    on build-7"; a viewer's badge stays plain) and the whole reason, with what to do, in the tooltip.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"cockpit-header--badge"}
    DEFAULT_CSS = """
    CockpitHeader {
        height: 1;
        background: $panel;
        color: $text;
        & > .cockpit-header--badge { background: $warning; color: $text; text-style: bold; }
    }
    """

    def __init__(self, title: str, *, read_only: bool, why: object | None = None) -> None:
        super().__init__(id="header")
        self.heading, self.read_only, self.why = title, read_only, why
        if read_only and why is not None:
            self.tooltip = Text(f"Read-only: {why}")

    def render(self) -> Content:
        line = Content.styled(f" {self.heading} ", "bold")
        if self.read_only:
            summary = getattr(self.why, "summary", "")
            badge = f" READ-ONLY · {summary} " if summary and summary != "viewer" else " READ-ONLY "
            line += Content.styled(badge, self.get_visual_style("cockpit-header--badge"))
        return line


class StatusBar(Widget):
    """The line above the keys: the loads and actions in flight, and the GitHub API budget.

    One widget drawing both parts (the work in flight on the left, cut with "…" when the line is
    short; the budget on the right, whole): three widgets were about a hundredth of the first
    screen's work.
    """

    def __init__(self) -> None:
        super().__init__(id="status-bar")
        self.tasks = ""
        """``loading: ci, branch · running: milestone.remove``; empty when nothing is in flight."""
        self.budget = ""
        """``GitHub 4,873/5,000 · 41 requests``; empty before the first request."""

    def show_tasks(self, loading: list[str], running: list[str], failing: Sequence[str] = ()) -> None:
        parts = []
        if loading:
            parts.append("loading: " + ", ".join(loading))
        if failing:
            parts.append("not loaded: " + ", ".join(failing) + " (retrying; r now)")
        if running:
            parts.append("running: " + ", ".join(running))
        self._show(" · ".join(parts), self.budget)

    def show_budget(self, text: str) -> None:
        self._show(self.tasks, text)

    def _show(self, tasks: str, budget: str) -> None:
        if (tasks, budget) != (self.tasks, self.budget):
            self.tasks, self.budget = tasks, budget
            self.refresh()

    def render(self) -> Text:
        """`` tasks… `` then `` budget ``, each part with a cell of padding on either side."""
        width = self.size.width
        budget = Text(self.budget)
        budget_width = budget.cell_len + 2
        tasks = Text(self.tasks, no_wrap=True)
        room = max(0, width - budget_width - 2)
        tasks.truncate(room, overflow="ellipsis", pad=True)
        return Text.assemble(" ", tasks, " ", " ", budget, " ", no_wrap=True, end="")


class GatesReported(Message):
    """A pane's report arrived (or failed) and these gates are now known."""

    def __init__(self, gates: tuple[Gate, ...]) -> None:
        super().__init__()
        self.gates = gates


class VerdictReady(Message):
    """The checklist was evaluated against the gates and the go/no-go verdict is known."""

    def __init__(self, verdict: GoNoGo) -> None:
        super().__init__()
        self.verdict = verdict
