"""One computation at a time for results several panes need (the milestone list, the branch diff).

Panes load at the same time in worker threads. A caller that waited while another computed the
result takes that result (or that failure) instead of computing it again; a caller may also take
a result younger than ``reuse_within`` seconds, but never once a later attempt has failed: data
that could not be refreshed is stale, and whatever is derived from it must find out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.domain.artifacts import MatrixRead
    from cockpit.domain.evidence import EvidenceReport
    from cockpit.domain.gates import Gate
    from cockpit.domain.github import Milestone, MilestoneItem
    from cockpit.domain.reports import BranchReport, ChecklistReport, PicksReport
    from cockpit.domain.status import ReadStatus

T = TypeVar("T")


class Shared(Generic[T]):
    """One result computed for every caller waiting on it; see the module docstring for reuse."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._result: tuple[float, T] | None = None  # (monotonic time, value) of the last success
        self._failed: tuple[float, CockpitError] | None = None  # the last failure, when newer than it

    @property
    def last(self) -> T | None:
        """The latest result computed, however old, even after a later failure; None before any."""
        result = self._result
        return None if result is None else result[1]

    def forget(self) -> None:
        """Take no result younger than ``reuse_within`` from before now: something just changed what it
        reads (a workflow started, re-run or approved from the cockpit), so the next caller computes."""
        with self._lock:
            if self._result is not None:
                self._result = (float("-inf"), self._result[1])  # ``last`` keeps it; ``get`` never reuses it

    def get(self, compute: Callable[[], T], *, reuse_within: float = 0.0) -> T:
        """``compute()`` once for every caller waiting; a result younger than ``reuse_within``
        seconds is reused unless a later computation failed."""
        asked = time.monotonic()
        with self._lock:
            last, failed = self._result, self._failed
            if failed is not None and failed[0] >= asked:
                raise failed[1]  # the attempt this caller waited for failed: same answer, no second try
            if last is not None:
                fresh = last[0] >= asked or time.monotonic() - last[0] <= reuse_within
                if fresh and (failed is None or failed[0] < last[0]):
                    return last[1]
            try:
                value = compute()
            except CockpitError as exc:
                self._failed = (time.monotonic(), exc)
                raise
            self._result, self._failed = (time.monotonic(), value), None
            return value


def _milestone() -> Shared[tuple[Milestone, list[MilestoneItem]]]:
    return Shared()


def _branch() -> Shared[BranchReport]:
    return Shared()


def _evidence() -> Shared[EvidenceReport]:
    return Shared()


def _matrix() -> Shared[MatrixRead]:
    return Shared()


def _workflow_runs() -> Shared[dict[str, Gate]]:
    return Shared()


@dataclass
class SharedResults:
    """What one pane's load leaves for the other panes and for the actions, in one session."""

    milestone: Shared[tuple[Milestone, list[MilestoneItem]]] = field(default_factory=_milestone)
    """The milestone and its items (milestone, cherry-pick and branch-diff panes)."""
    branch_diff: Shared[BranchReport] = field(default_factory=_branch)
    """The branch diff (branch-diff and cherry-pick panes; the validation action reads the last)."""
    picks: PicksReport | None = None
    """The latest cherry-pick load: the validation issue lists its accepted picks."""
    evidence: Shared[EvidenceReport] = field(default_factory=_evidence)
    """The checklist's evidence steps (the checklist pane re-evaluates often: read once per ``EVIDENCE_REUSE_S``)."""
    build_matrix: Shared[MatrixRead] = field(default_factory=_matrix)
    """The build matrix's Python builds and variants (storage and promotion; one read per ``MATRIX_REUSE_S``)."""
    workflow_runs: Shared[dict[str, Gate]] = field(default_factory=_workflow_runs)
    """The gates of the steps the release workflows perform (``loaders/workflow_steps.py``)."""
    checklist: ChecklistReport | None = None
    """The latest checklist report: the step actions refuse a step it shows blocked (the runbook's order)."""
    pypi_gate: Gate | None = None
    """From the latest storage load: the checklist actions lock the PyPI step on it."""
    team_status: ReadStatus | None = None
    """The status comment as the latest read of the tracker found it: the team's sign-offs."""
