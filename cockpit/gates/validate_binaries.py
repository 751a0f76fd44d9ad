"""``validate_binaries``: the newest run of the binaries' validation workflow for the final RC is green
(``services/evidence.py``, for its checklist step, once ``[evidence]`` says where to look)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="validate_binaries",
    title="Validate-binaries run",
    pane="checklist",
    order=210,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
