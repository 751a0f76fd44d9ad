"""``phase_<phase>``: each phase of a patch release is on time or done (``services/phase_gates.py``,
from the ``[schedule]`` and today; for its checklist step). One gate per phase of
``cockpit.domain.schedule.PatchPhase``, in the process document's order; a test keeps the two equal."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

_PHASES = (
    ("triage", "Triage"),
    ("go_no_go", "Go/No-go"),
    ("cherry_pick", "Cherry-picking"),
    ("build_promote", "Build and promote"),
    ("general_availability", "General availability"),
)
# Written out rather than read from PatchPhase: the registry is read before the first screen, and a
# release without a [schedule] never loads the schedule's module.

GATES = tuple(
    GateSpec(
        name=f"phase_{phase}", title=f"Phase: {words}", pane="checklist", order=310 + 10 * i, read=None, family="phase"
    )
    for i, (phase, words) in enumerate(_PHASES)
)
