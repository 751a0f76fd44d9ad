"""Pane 5: the promotion checklist; tick manual steps, add notes; automatic steps follow their gate."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from cockpit.domain.checklist import StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import ChecklistReport, GoNoGo, StepView
from cockpit.ui.acting import perform
from cockpit.ui.confirm import TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import STATUS_WORD, VerdictReady, plain, status_text


def step_mark(view: StepView) -> tuple[str, GateStatus]:
    """✔ done, ✘ red gate, ⚠ irreversible and not done, ○ open; with the colour to draw it in."""
    if view.done:
        return "✔", GateStatus.GREEN
    if view.gate is not None and view.gate.status is GateStatus.RED:
        return "✘", GateStatus.RED
    if view.step.irreversible:
        return "⚠", GateStatus.AMBER
    return "○", GateStatus.UNKNOWN


def step_state(view: StepView) -> str:
    """Who signed and when for manual steps; the gate for automatic ones."""
    if view.step.kind is StepKind.AUTOMATIC:
        gate = view.gate
        return f"gate {view.step.gate}: {STATUS_WORD[gate.status]} · {gate.summary}" if gate else f"gate {view.step.gate}: not known yet"
    if view.signoff and view.signoff.done:
        return f"signed by {view.signoff.who} at {view.signoff.when}"
    return "open" + (" (required)" if view.step.required else " (optional)")


class ChecklistPane(Pane):
    """Sections with their steps; the verdict is computed here once the checklist is known."""

    PANE = "checklist"
    GATES = ("checklist",)
    BINDINGS = [
        Binding("space", "toggle", "Tick", id="checklist.toggle", tooltip="Tick or untick the selected manual step"),
        Binding("n", "note", "Note", id="checklist.note", tooltip="Add a note to the selected step"),
        Binding("enter", "detail", "Detail", id="checklist.detail", tooltip="Show what the step means and its command"),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.gates: dict[str, Gate] = {}

    def on_mount(self) -> None:
        self.table.add_columns(" ", "Step", "Kind", "State", "Note")

    def reload_with(self, gates: dict[str, Gate]) -> None:
        """Re-evaluate the checklist against a copy of the app's gates."""
        self.gates = dict(gates)
        self.reload()

    def fetch(self) -> tuple[ChecklistReport, GoNoGo]:
        report = self.backend.load_checklist(self.gates)
        return report, self.backend.go_no_go(self.gates, report)

    def gates_of(self, report: tuple[ChecklistReport, GoNoGo]) -> tuple[Gate, ...]:
        return (report[0].gate,)

    def show(self, report: tuple[ChecklistReport, GoNoGo]) -> None:
        checklist, verdict = report
        table = self.table
        table.clear()
        section = None
        for view in checklist.steps:
            if view.step.section != section:
                section = view.step.section
                table.add_row(Text(""), Text(section, style="bold underline"), "", "", "", key=f"section:{section}")
            mark, status = step_mark(view)
            note = view.signoff.note if view.signoff else ""
            table.add_row(status_text(self, status, mark), plain(view.step.title), Text(view.step.kind.value),
                          plain(step_state(view)), plain(note), key=view.step.id)
        self.post_message(VerdictReady(verdict))

    def selected_step(self) -> StepView | None:
        key = self.selected_key()
        if self.report is None or key is None or key.startswith("section:"):
            self.notify("Select a step (not a section title).", severity="warning")
            return None
        return next((v for v in self.report[0].steps if v.step.id == key), None)

    def action_toggle(self) -> None:
        view = self.selected_step()
        if view is None:
            return
        if view.step.kind is StepKind.AUTOMATIC:
            gate = view.gate
            why = f"{STATUS_WORD[gate.status]}: {gate.summary}" if gate else "not known yet"
            self.notify(f"'{view.step.title}' is automatic: it follows the gate {view.step.gate} ({why}) "
                        "and cannot be ticked by hand.", markup=False)
            return
        irreversible = view.step.irreversible and not view.done
        perform(self, self.PANE, "checklist.toggle", view.step.id, confirm=irreversible,
                danger="irreversible" if irreversible else None, on_done=lambda ok: ok and self.reload())

    def action_note(self) -> None:
        view = self.selected_step()
        if view is None:
            return

        def noted(text: str | None) -> None:
            if text is not None:
                perform(self, self.PANE, "checklist.note", (view.step.id, text), confirm=False,
                        on_done=lambda ok: ok and self.reload())

        old = view.signoff.note if view.signoff else ""
        self.app.push_screen(TextInputScreen(f"Note on '{view.step.title}'", value=old), noted)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        view = self.selected_step()
        if view is not None:
            lines = (view.step.help or "No help text.", f"State: {step_state(view)}",
                     *((f"Command: {view.step.command}",) if view.step.command else ()),
                     *((f"Dry run: {view.step.dry_run}",) if view.step.dry_run else ()),
                     *(("This step cannot be undone.",) if view.step.irreversible else ()))
            self.app.push_screen(DetailScreen(view.step.title, lines=lines))
