"""``wheel_sizes``: each wheel against the same variant of the previous RC and release, and PyPI's limit on
the wheels bound for PyPI only (``services/variant_sizes.py``, judged as the overview loads the RC storage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.gates import Gate, GateSpec, GateStatus

if TYPE_CHECKING:
    from cockpit.domain.reports import StorageGateReport


def read(report: StorageGateReport) -> Gate:
    """The RC storage report carries it beside the RC artifacts gate."""
    if report.sizes_gate is not None:
        return report.sizes_gate
    return Gate("wheel_sizes", "Wheel sizes", GateStatus.UNKNOWN, "the wheel sizes were not judged")


GATE = GateSpec(
    name="wheel_sizes",
    title="Wheel sizes",
    pane="overview",
    order=160,
    section="RC artifacts",
    read=read,
)
