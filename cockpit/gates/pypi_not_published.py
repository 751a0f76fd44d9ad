"""``pypi_not_published``: the release is not on PyPI yet, so the irreversible upload is still ahead
(judged by ``services/storage.py`` with the RC storage). Once not green, the step beside it was done
for good: a state, never a failure ``cockpit check`` lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.gates import Gate, GateSpec

if TYPE_CHECKING:
    from cockpit.domain.reports import StorageGateReport


def read(report: StorageGateReport) -> Gate:
    """The RC storage report carries it beside the RC artifacts gate."""
    return report.pypi_gate


GATE = GateSpec(
    name="pypi_not_published",
    title="Not yet on PyPI",
    pane="overview",
    order=60,
    listed=True,
    read=read,
    locks="already on PyPI",
)
