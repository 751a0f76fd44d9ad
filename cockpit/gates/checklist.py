"""``checklist``: every required step of the release-day checklist done (judged by
``services/checklist.py`` from every other gate and the sign-offs)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="checklist",
    title="Checklist",
    pane="checklist",
    order=70,
    listed=True,
)
