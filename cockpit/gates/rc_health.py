"""``rc_health``: every configured repository's binary builds on its final RC tag are green (judged by
``services/promotion_gates.py`` for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="rc_health",
    title="RC builds green on the tag",
    pane="checklist",
    order=110,
    read=None,  # judged by loaders/promotion.py
    family="promotion",
)
