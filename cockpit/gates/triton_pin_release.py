"""``triton_pin_release``: the Triton version the release pins is on PyPI
(``services/evidence_release_day.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="triton_pin_release",
    title="Triton pin on PyPI",
    pane="checklist",
    order=270,
    read=None,  # judged by loaders/evidence.py
    family="evidence",
)
