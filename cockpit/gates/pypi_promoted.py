"""``pypi_promoted``: every package has the release's version on PyPI (``services/promotion_gates.py``,
for its checklist step). Once green the upload step was done for good: PyPI takes a file once, ever."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="pypi_promoted",
    title="On PyPI",
    pane="checklist",
    order=150,
    read=None,  # judged by loaders/promotion.py
    locked_when_green="on PyPI",
    family="promotion",
)
