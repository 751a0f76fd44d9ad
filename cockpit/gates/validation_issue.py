"""``validation_issue``: the release's validation issue exists and its task list is done
(``services/evidence.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="validation_issue",
    title="Validation issue",
    pane="checklist",
    order=230,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
