"""The overview's verdict: go or no-go, and what stands in the way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cockpit.domain.checklist import StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import ChecklistReport, GoNoGo
from cockpit.domain.repos import repo_gate_title
from cockpit.gates import blocking as blocking_gates
from cockpit.gates import listed, registry
from cockpit.services.checklist import override_line

BLOCKING = blocking_gates()
"""The release's own gates that hold GO (each declared ``blocks=True`` in ``cockpit.gates``)."""
PANE_GATES = frozenset(spec.name for spec in listed())
"""The panes' own gates: ``blocking`` decides which of them hold GO. Any other gate a required step
follows (the evidence the checklist reads for itself: RC health, staged binaries, the final RC tag)
holds GO until its step is done."""


def go_no_go(
    gates: Mapping[str, Gate],
    checklist: ChecklistReport,
    blocking: Sequence[str] = BLOCKING,
) -> GoNoGo:
    """GO only when every blocking gate is GREEN, every required manual step is signed and every
    other required automatic step is done (its gate green, or a signed override over it).

    Overrides count towards GO, and the verdict lists each one in ``overrides`` so that nobody takes
    an overridden step for a green one.

    A blocking gate that was never evaluated counts as UNKNOWN, so it keeps the verdict at NO-GO.
    Steps marked ``after_go`` (the promotion itself, release-day follow-ups) are done after the
    decision and do not hold it back. ``gates`` of the verdict are the blocking ones, in order.
    """
    shown: list[Gate] = []
    reasons: list[str] = []
    overridden = _overridden_gates(checklist)
    for name in blocking:
        spec = registry().get(name)
        title = (spec.title if spec else repo_gate_title(name)) or name.replace("_", " ").capitalize()
        gate = gates.get(name) or Gate(name, title, GateStatus.UNKNOWN, "not evaluated yet")
        shown.append(gate)
        if gate.status is not GateStatus.GREEN and name not in overridden:
            reasons.append(f"{gate.title} is {gate.status.value}: {gate.summary}")
    unsigned = [
        view.step
        for view in checklist.steps
        if view.step.kind is StepKind.MANUAL and view.step.required and not view.step.after_go and not view.done
    ]
    reasons += [f"not signed: {step.title}" for step in unsigned]
    before_go = [v for v in checklist.steps if v.step.required and not v.step.after_go]
    automatic = [
        v for v in before_go if v.step.kind.judged and v.step.gate not in blocking and v.step.gate not in PANE_GATES
    ]
    not_done = [v for v in automatic if not v.done and v.gate is not None]  # it holds GO as a signature would
    reasons += [f"not done: {v.step.title} ({v.gate.status.value}: {v.gate.summary})" for v in not_done if v.gate]
    return GoNoGo(
        go=not reasons,
        gates=tuple(shown),
        unsigned=tuple(step.id for step in unsigned),
        reasons=tuple(reasons),
        overrides=tuple(override_line(v) for v in before_go if v.override),
        judged=tuple(v.step.id for v in not_done),
    )


def _overridden_gates(checklist: ChecklistReport) -> set[str]:
    """Gates every required step following them is signed over (a gate two steps follow needs both)."""
    following: dict[str, list[bool]] = {}
    for view in checklist.steps:
        if view.step.kind.judged and view.step.required and view.step.gate:
            following.setdefault(view.step.gate, []).append(bool(view.override))
    return {gate for gate, signed in following.items() if all(signed)}
