"""Pane 0: one line per gate and the go/no-go verdict, filled in as the other panes load."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from cockpit.domain.gates import GATE_TITLES, Gate, GateStatus
from cockpit.domain.reports import GoNoGo, StorageGateReport
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import STATUS_WORD, set_status_class

_PANE_KEYS = {"milestone_empty": "1", "picks_clear": "2", "ci_green": "3", "branch_diff_clean": "4", "checklist": "5"}
GATE_ORDER = tuple((name, title, _PANE_KEYS.get(name, "")) for name, title in GATE_TITLES.items())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def verdict_line(verdict: GoNoGo) -> str:
    """"NO-GO: 4 gates red, 3 required steps unsigned" or "GO: ..." in the release manager's words."""
    if verdict.go:
        return "GO: every gate green, every required step signed"
    gates = [g for g in verdict.gates if g.name != "checklist"]
    red = sum(g.status is GateStatus.RED for g in gates)
    other = sum(g.status in (GateStatus.AMBER, GateStatus.UNKNOWN) for g in gates)
    parts = [f"{_plural(red, 'gate')} red"]
    if other:
        parts.append(f"{other} amber or unknown")
    parts.append(f"{_plural(len(verdict.unsigned), 'required step')} unsigned")
    return "NO-GO: " + ", ".join(parts)


class GateRow(Horizontal):
    """One gate: its name, a coloured status word, and the summary."""

    def __init__(self, name: str, title: str, pane_key: str) -> None:
        super().__init__(id=f"gate-{name}", classes="gate-row")
        self.gate_name, self.title, self.pane_key = name, title, pane_key

    def compose(self) -> ComposeResult:
        yield Static(Text(self.title), classes="gate-title")
        yield Static("…", classes="gate-status -unknown")
        yield Static(Text("loading…"), classes="gate-summary")
        # The leading space keeps the hint off a summary that fills its column ("1 unrequested merge[2]").
        yield Static(Text(f" [{self.pane_key}]" if self.pane_key else ""), classes="gate-key")

    def show_gate(self, gate: Gate) -> None:
        status = self.query_one(".gate-status", Static)
        status.update(STATUS_WORD[gate.status])
        set_status_class(status, gate.status)
        self.query_one(".gate-summary", Static).update(Text(gate.summary))


class OverviewPane(Pane):
    """The gates of every pane, the verdict, and the RC storage problems (this pane loads storage)."""

    PANE = "overview"
    GATES = ("rc_artifacts", "pypi_not_published")
    BINDINGS = []

    def compose_body(self) -> ComposeResult:
        yield Static(Text("Verdict pending: waiting for the panes to load"), id="verdict", classes="verdict -unknown")
        with Vertical(id="gate-rows"):
            for name, title, key in GATE_ORDER:
                yield GateRow(name, title, key)
        with VerticalScroll(id="storage-scroll"):  # a long problem list scrolls at 80x24
            yield Static("", id="storage-problems", classes="pane-table")

    def compose(self) -> ComposeResult:
        yield Static("", classes="pane-error")
        yield from self.compose_body()

    @property
    def body(self) -> Widget:
        return self.query_one("#storage-problems")

    def focus_body(self) -> None:
        self.screen.set_focus(self.query_one("#storage-scroll"))

    def on_resize(self) -> None:
        self.set_class(self.size.height < 30, "-compact")  # a smaller verdict box leaves room for the problems

    def fetch(self) -> Any:
        return self.backend.load_storage()

    def gates_of(self, report: StorageGateReport) -> tuple[Gate, ...]:
        return (report.gate, report.pypi_gate)

    def show(self, report: StorageGateReport) -> None:
        text = Text()
        where = f" in {report.report.index_url}" if report.report.index_url else ""
        text.append(f"RC artifacts{where}\n", style="bold")
        # The file on one line and what is wrong under it: wheel names alone nearly fill 80 columns.
        for problem in report.report.problems:
            text.append(f"  {problem.kind.replace('_', ' '):<13} ", style="bold")
            text.append(f"{problem.filename}\n")
            text.append(f"  {'':<13} {problem.detail}\n")
        if not report.report.problems:
            text.append(f"  all {len(report.report.expected)} expected wheels staged, no problems found\n")
        if report.report.published_on_pypi:
            text.append("  already on PyPI: the upload step is done and locked\n", style="bold")
        self.body.update(text)

    def show_gates(self, gates: dict[str, Gate]) -> None:
        """Re-render the gate rows from the app's gates (UI thread)."""
        for name, _title, _key in GATE_ORDER:
            if name in gates:
                self.query_one(f"#gate-{name}", GateRow).show_gate(gates[name])

    def show_verdict(self, verdict: GoNoGo) -> None:
        widget = self.query_one("#verdict", Static)
        widget.update(Text(verdict_line(verdict)))
        set_status_class(widget, GateStatus.GREEN if verdict.go else GateStatus.RED)
