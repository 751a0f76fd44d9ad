"""``validation_comments``: every closed milestone issue carries its validation comment
(``services/evidence.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="validation_comments",
    title="Validation comments",
    pane="checklist",
    order=220,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
