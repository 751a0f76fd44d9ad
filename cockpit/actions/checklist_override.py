"""Sign an automatic checklist step by hand over a red or unknown gate: the override.

The note is required (it is what the next reader needs: why the step may go ahead although its
evidence says no, or cannot be read). The gate's status and summary as the release manager saw them
are kept with the sign-off, and the audit log entry names who, when, the gate's status and the note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.actions.step_context import locked_reason
from cockpit.domain.checklist import StepOverride
from cockpit.domain.gates import GateStatus

if TYPE_CHECKING:
    from cockpit.ports import Ports

OVERRIDABLE = (GateStatus.RED, GateStatus.UNKNOWN)


def override_refusal(target: StepOverride) -> str | None:
    """Why ``target`` cannot be signed over its gate, in words, or None."""
    step, gate = target.step, target.gate
    if not step.kind.judged:
        return f"'{step.title}' is a manual step: tick it with space; an override is for a step a gate decides"
    if gate.status is GateStatus.GREEN:
        return f"'{step.title}' is already done: its gate is green, there is nothing to override"
    if gate.status not in OVERRIDABLE and not (gate.status is GateStatus.AMBER and gate.signable):
        return (
            f"'{step.title}' cannot be overridden while its gate is {gate.status.value} ({gate.summary}): "
            "an override signs over a red or unknown gate (or a run whose inputs are unknown); "
            "wait until this one has finished"
        )
    if not target.note.strip():
        return (
            f"an override of '{step.title}' needs a note saying why it goes ahead over a {gate.status.value} "
            "gate; the note was empty"
        )
    return None


def register_override(reg: ActionRegistry, backend: Ports) -> None:
    """Register ``checklist.override``."""

    def applicable(target: StepOverride) -> str | None:
        return override_refusal(target) or locked_reason(backend, target.step.id)

    def run(target: StepOverride) -> str:
        gate, note = target.gate, " ".join(target.note.split())
        backend.state.sign_override(
            target.step.id, who=backend.who, note=note, gate_status=gate.status.value, gate_summary=gate.summary
        )
        return (
            f"'{target.step.title}' signed over a {gate.status.value} gate by {backend.who} ({gate.summary}); "
            f"note: {note}"
        )

    def describe(target: StepOverride) -> str:
        return (
            f"record in {backend.state.path}: '{target.step.title}' signed by {backend.who} over its "
            f"{target.gate.status.value} gate ({target.gate.summary}), note: {target.note.strip() or '(none)'}"
        )

    reg.register(
        Action(
            "checklist.override",
            "Sign a step over its red or unknown gate (note required)",
            Danger.MUTATING,
            "checklist",
            run=run,
            describe=describe,
            applicable=applicable,
            label=lambda target: target.step.id,
            local=True,
        )
    )
