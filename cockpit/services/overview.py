"""The overview's verdict: go or no-go, and what stands in the way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cockpit.domain.checklist import StepKind
from cockpit.domain.gates import GATE_TITLES, Gate, GateStatus
from cockpit.domain.reports import ChecklistReport, GoNoGo
from cockpit.domain.repos import repo_gate_title

BLOCKING = ("milestone_empty", "picks_clear", "ci_green", "branch_diff_clean", "rc_artifacts")


def go_no_go(
    gates: Mapping[str, Gate],
    checklist: ChecklistReport,
    blocking: Sequence[str] = BLOCKING,
) -> GoNoGo:
    """GO only when every blocking gate is GREEN and every required manual step is signed.

    A blocking gate that was never evaluated counts as UNKNOWN, so it keeps the verdict at NO-GO.
    Steps marked ``after_go`` (the promotion itself, release-day follow-ups) are done after the
    decision and do not hold it back. ``gates`` of the verdict are the blocking ones, in order.
    """
    shown: list[Gate] = []
    reasons: list[str] = []
    for name in blocking:
        title = GATE_TITLES.get(name) or repo_gate_title(name) or name.replace("_", " ").capitalize()
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
    return GoNoGo(
        go=not reasons,
        gates=tuple(shown),
        unsigned=tuple(step.id for step in unsigned),
        reasons=tuple(reasons),
    )
