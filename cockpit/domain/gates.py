"""Gates: the green / amber / red answer each pane gives to the release manager, and the declaration
of a gate (``GateSpec``) each module of ``cockpit.gates`` makes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


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


@dataclass(frozen=True, slots=True)
class Gate:
    """One gate: ``name`` is a stable id (``milestone_empty``), ``summary`` one line of words."""

    name: str
    title: str
    status: GateStatus
    summary: str
    details: tuple[str, ...] = ()
    signable: bool = False  # an amber gate a person may sign over after checking (a run whose inputs are unknown)


def carried_gate(report: Any) -> Gate:
    """The gate a pane's report carries in ``report.gate``: its service judged it as the pane loaded."""
    gate: Gate = report.gate
    return gate


def every_library(*, packages: bool, core_pins: bool) -> bool:
    """Every domain library of the release answers the gate."""
    return True


def libraries_with_packages(*, packages: bool, core_pins: bool) -> bool:
    """Only a domain library that ships packages (``[[repo]] packages``) answers the gate."""
    return packages


def libraries_with_packages_or_pins(*, packages: bool, core_pins: bool) -> bool:
    """A domain library that ships packages or pins the core's version answers the gate."""
    return packages or core_pins


@dataclass(frozen=True, slots=True)
class GateSpec:
    """Everything the cockpit knows about a gate, declared once in its own module of ``cockpit.gates``.

    ``pane``: the id of the pane (``cockpit.domain.panes``) whose report it is read from and where the
    release manager fixes what it reports; ``section`` names the part of that pane when it has several
    (``RC artifacts``). ``order``: its place in the overview's list, the verdict and the status comment.
    ``listed``: one line on the overview (the panes' own gates); the checklist's evidence, promotion and
    phase gates are not, each decides a step. ``blocks``: GO waits for it to be green. ``read``: the gate
    from its pane's report; None for a gate a loader of its own judges for the checklist. ``core``: the
    release's own repository answers it; ``library`` (with ``short``, its label on a library's line)
    says which domain libraries of ``[[repo]]`` answer it too, under ``name[library]``. ``locks``: not
    green means the manual step beside it was done for good (it is a state, not a failure);
    ``locked_when_green``: green means the automatic step it decides was done for good.
    ``family``: the checklist's groups of gates (``evidence``, ``promotion``, ``phase``).
    """

    name: str
    title: str
    pane: str
    order: int
    listed: bool = False
    blocks: bool = False
    read: Callable[[Any], Gate] | None = carried_gate
    section: str = ""
    core: bool = True
    library: Callable[..., bool] | None = None
    short: str = ""
    locks: str = ""
    locked_when_green: str = ""
    family: str = ""
