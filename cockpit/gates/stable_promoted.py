"""``stable_promoted``: the RC's files are all in the stable index (``services/promotion_gates.py``,
for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="stable_promoted",
    title="Promoted to the stable index",
    pane="checklist",
    order=140,
    read=None,  # judged by loaders/promotion.py
    family="promotion",
)
