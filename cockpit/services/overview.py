"""The overview's verdict: go or no-go, and what stands in the way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cockpit.domain.checklist import StepKind
from cockpit.domain.evidence import EVIDENCE_GATES
from cockpit.domain.gates import GATE_TITLES, Gate, GateStatus
from cockpit.domain.reports import ChecklistReport, GoNoGo

BLOCKING = ("milestone_empty", "picks_clear", "ci_green", "branch_diff_clean", "rc_artifacts")


def go_no_go(
    gates: Mapping[str, Gate],
    checklist: ChecklistReport,
    blocking: Sequence[str] = BLOCKING,
) -> GoNoGo:
    """GO only when every blocking gate is GREEN, every required manual step is signed and every required
    step judged from evidence (``[evidence]``) is green: automatic, it stands where its signature stood.

    A blocking gate that was never evaluated counts as UNKNOWN, so it keeps the verdict at NO-GO.
    Steps marked ``after_go`` (the promotion itself, release-day follow-ups) are done after the
    decision and do not hold it back. ``gates`` of the verdict are the blocking ones, in order.
    """
    shown: list[Gate] = []
    reasons: list[str] = []
    for name in blocking:
        title = GATE_TITLES.get(name) or name.replace("_", " ").capitalize()
        gate = gates.get(name) or Gate(name, title, GateStatus.UNKNOWN, "not evaluated yet")
        shown.append(gate)
        if gate.status is not GateStatus.GREEN:
            reasons.append(f"{gate.title} is {gate.status.value}: {gate.summary}")
    unsigned = [
        view.step
        for view in checklist.steps
        if view.step.kind is StepKind.MANUAL and view.step.required and not view.step.after_go and not view.done
    ]
    reasons += [f"not signed: {step.title}" for step in unsigned]
    judged = [  # a step judged from its own evidence holds the decision as its signature would have
        view
        for view in checklist.steps
        if view.step.kind is StepKind.AUTOMATIC
        and view.step.gate in EVIDENCE_GATES
        and view.step.required
        and not view.step.after_go
        and view.gate is not None
        and not view.done
    ]
    reasons += [f"{v.step.title}: {v.gate.status.value}, {v.gate.summary}" for v in judged if v.gate is not None]
    return GoNoGo(
        go=not reasons,
        gates=tuple(shown),
        unsigned=tuple(step.id for step in unsigned),
        reasons=tuple(reasons),
        judged=tuple(v.step.id for v in judged),
    )
