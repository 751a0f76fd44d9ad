"""Gates: the green / amber / red answer each pane gives to the release manager."""

from __future__ import annotations

from enum import StrEnum

from cockpit.domain.record import record


class GateStatus(StrEnum):
    """How a gate stands; ordering from best to worst is GREEN < UNKNOWN < AMBER < RED."""

    GREEN = "green"
    UNKNOWN = "unknown"
    AMBER = "amber"
    RED = "red"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {GateStatus.GREEN: 0, GateStatus.UNKNOWN: 1, GateStatus.AMBER: 2, GateStatus.RED: 3}


def worst(statuses: list[GateStatus] | tuple[GateStatus, ...]) -> GateStatus:
    """The worst of several statuses; GREEN when there are none."""
    return max(statuses, key=lambda s: s.rank, default=GateStatus.GREEN)


@record
class Gate:
    """One gate: ``name`` is a stable id (``milestone_empty``), ``summary`` one line of words."""

    name: str
    title: str
    status: GateStatus
    summary: str
    details: tuple[str, ...] = ()


GATE_TITLES = {
    "milestone_empty": "Milestone empty",
    "picks_clear": "Cherry-picks clear",
    "ci_green": "CI green",
    "branch_diff_clean": "Branch diff clean",
    "rc_artifacts": "RC artifacts valid",
    "pypi_not_published": "Not yet on PyPI",
    "checklist": "Checklist",
}
"""The one place a gate's name gets its title, so the overview, the panes and reports agree."""
