"""``wheel_sizes``: each wheel against the same variant of the previous RC and release, and PyPI's limit on
the wheels bound for PyPI only (``services/variant_sizes.py``)."""

from __future__ import annotations

from cockpit.domain.gates import GateSpec

GATE = GateSpec(
    name="wheel_sizes",
    title="Wheel sizes",
    pane="overview",
    order=160,
    section="RC artifacts",
    read=None,  # judged by services/variant_sizes.py over the RC's listing and its history
)
