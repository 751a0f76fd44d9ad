"""``pypi_staged``: every expected wheel is in the staging channel, within the limits, and PyPI does
not have the version yet (``services/promotion_gates.py``, for its checklist step)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="pypi_staged",
    title="PyPI wheels staged",
    pane="checklist",
    order=130,
    read=None,  # judged by loaders/promotion.py
    family="promotion",
)
