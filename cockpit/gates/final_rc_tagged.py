"""``final_rc_tagged``: the newest RC tag is on the remote and names the branch head that was judged
(``services/promotion_gates.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="final_rc_tagged",
    title="Final RC tag at the branch head",
    pane="checklist",
    order=120,
    read=None,  # judged by loaders/promotion.py
    family="promotion",
)
