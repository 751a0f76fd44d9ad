"""Walkthrough mode for release day: one checklist step at a time, full screen.

Each step shows its help text, its live evidence (the gate and its details, or the sign-off) and
what to do next, under a progress bar over the whole checklist. ``]``/``[`` and the arrow keys
move; ``space`` ticks the shown manual step and ``x`` runs its command, through the checklist
pane, so confirmations and refusals are the pane's; ``esc`` leaves.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static

from cockpit.domain.reports import ChecklistReport, StepView
from cockpit.ui.footer import KeysFooter
from cockpit.ui.step_log import StepLog
from cockpit.ui.step_text import next_to_do, step_commands, step_evidence, step_mark
from cockpit.ui.widgets import set_status_class


class WalkedPane(Protocol):
    """What the walkthrough needs of the checklist pane it walks: its report, a tick and a run."""

    report: Any

    def toggle(self, view: StepView) -> None:
        """Tick or untick a manual step."""

    def run_step(self, view: StepView, *, log: StepLog | None = None) -> None:
        """Run a step's command, its output in ``log``."""


class WalkthroughScreen(ModalScreen[None]):
    """The checklist of ``pane``, one step at a time, starting at index ``start``.

    Modal, so it covers the whole app and every dialog-aware caller treats it like one (esc leaves).
    """

    DEFAULT_CSS = """
    WalkthroughScreen { padding: 1 2; background: $background; }
    WalkthroughScreen #walk-progress-row { height: 1; }
    WalkthroughScreen #walk-progress-label { width: auto; margin-right: 2; }
    WalkthroughScreen #walk-position { color: $text-muted; margin-top: 1; }
    WalkthroughScreen #walk-title { text-style: bold; margin-bottom: 1; }
    WalkthroughScreen #walk-title.-green { color: $text-success; }
    WalkthroughScreen #walk-title.-red { color: $text-error; }
    WalkthroughScreen #walk-title.-amber { color: $text-warning; }
    WalkthroughScreen .walk-heading { text-style: bold; margin-top: 1; }
    WalkthroughScreen #walk-next { text-style: bold; border: round $accent; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "move(1)", "Next", key_display="]", id="walk.next", tooltip="The next step"),
        Binding(
            "left_square_bracket",
            "move(-1)",
            "Previous",
            key_display="[",
            id="walk.previous",
            tooltip="The previous step",
        ),
        Binding("right,down", "move(1)", "Next", show=False, id="walk.next_arrow", tooltip="The next step"),
        Binding("left,up", "move(-1)", "Previous", show=False, id="walk.previous_arrow", tooltip="The previous step"),
        Binding("space", "toggle", "Tick", id="walk.toggle", tooltip="Tick or untick the shown manual step"),
        Binding("x", "run_step", "Run", id="walk.run", tooltip="Run the shown step's command (dry run first)"),
        Binding("escape", "leave", "Leave", id="walk.leave", tooltip="Back to the checklist pane"),
    ]

    def __init__(self, pane: WalkedPane, start: int = 0) -> None:
        super().__init__()
        self.pane = pane
        self.steps: tuple[StepView, ...] = pane.report[0].steps if pane.report else ()
        self.index = max(0, min(start, len(self.steps) - 1))

    def compose(self) -> ComposeResult:
        with Horizontal(id="walk-progress-row"):
            yield Static("", id="walk-progress-label")
            yield ProgressBar(total=max(1, len(self.steps)), show_eta=False, id="walk-progress")
        with VerticalScroll(id="walk-body"):
            yield Static("", id="walk-position")
            yield Static("", id="walk-title")
            yield Static("", id="walk-next")  # before the evidence, which can be long
            yield Static("What it means", classes="walk-heading")
            yield Static("", id="walk-help")
            yield Static("Evidence", classes="walk-heading")
            yield Static("", id="walk-evidence")
            yield Static("", id="walk-commands")
        yield StepLog(id="walk-log", max_lines=5000)
        yield KeysFooter()  # Textual's Footer, without the keys unbound in [keymap]

    def on_mount(self) -> None:
        self._render_step()

    @property
    def current(self) -> StepView | None:
        return self.steps[self.index] if self.steps else None

    def show_report(self, report: ChecklistReport) -> None:
        """The checklist was evaluated again (a tick, a pane finished loading): stay on the same step."""
        shown = self.current.step.id if self.current else None
        self.steps = report.steps
        self.index = next(
            (i for i, v in enumerate(self.steps) if v.step.id == shown), min(self.index, len(self.steps) - 1)
        )
        if self.is_mounted:
            self._render_step()

    def _render_step(self) -> None:
        done = sum(v.done for v in self.steps)
        bar = self.query_one("#walk-progress", ProgressBar)
        bar.update(total=max(1, len(self.steps)), progress=done)
        self.query_one("#walk-progress-label", Static).update(Text(f"{done} of {len(self.steps)} steps done"))
        view = self.current
        if view is None:
            self.query_one("#walk-title", Static).update(Text("The checklist has no steps."))
            return
        step = view.step
        flags = [step.kind.value, "required" if step.required else "optional"]
        if step.irreversible:
            flags.append("cannot be undone")
        if step.after_go:
            flags.append("after the go decision")
        self.query_one("#walk-position", Static).update(
            Text(f"Step {self.index + 1} of {len(self.steps)} · {step.section} · {', '.join(flags)}")
        )
        mark, status = step_mark(view)
        title = self.query_one("#walk-title", Static)
        title.update(Text(f"{mark} {step.title}"))
        set_status_class(title, status)
        self.query_one("#walk-help", Static).update(Text(step.help or "No help text."))
        self.query_one("#walk-evidence", Static).update(Text("\n".join(step_evidence(view))))
        commands = self.query_one("#walk-commands", Static)
        commands.update(Text("\n".join(step_commands(view))))
        commands.display = bool(step_commands(view))
        self.query_one("#walk-next", Static).update(Text("Next: " + next_to_do(view)))

    def action_move(self, delta: int) -> None:
        if not self.steps:
            return
        self.index = max(0, min(self.index + delta, len(self.steps) - 1))
        self._render_step()

    def action_toggle(self) -> None:  # type: ignore[override]  # the step's tick, not DOMNode's attribute toggle
        if self.current is not None:
            self.pane.toggle(self.current)

    def action_run_step(self) -> None:
        if self.current is not None:
            self.pane.run_step(self.current, log=self.query_one(StepLog))

    def action_leave(self) -> None:
        self.dismiss(None)
