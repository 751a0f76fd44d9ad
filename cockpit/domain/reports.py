"""What each pane renders: one report per pane, each carrying its gate."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from cockpit.domain.artifacts import StorageReport
from cockpit.domain.blame import CIBlame, SizeJump
from cockpit.domain.checklist import ChecklistStep, Signoff
from cockpit.domain.ci import RepoCIVerdict, RunHistory
from cockpit.domain.commits import BranchDiffReport, PickPrediction
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import OMIT_WHEN_EMPTY, Milestone, MilestoneItem, PullRequest
from cockpit.domain.picks import PickRow


@dataclass(frozen=True)
class MilestoneReport:
    milestone: Milestone
    items: tuple[MilestoneItem, ...]
    skipped: tuple[MilestoneItem, ...]
    gate: Gate


@dataclass(frozen=True)
class PicksReport:
    tracker_issue: int
    tracker_title: str
    rows: tuple[PickRow, ...]
    unrequested: tuple[PullRequest, ...]
    gate: Gate
    unread: tuple[str, ...] = ()  # what could not be read for the whole pane (the history), with the reason
    # the branch diff's, oldest on main first: what each request's pick would do (not in the JSON when none)
    predictions: tuple[PickPrediction, ...] = field(default=(), metadata={OMIT_WHEN_EMPTY: True})


@dataclass(frozen=True)
class CIReport:
    branches: tuple[RepoCIVerdict, ...]
    rc_builds: tuple[RepoCIVerdict, ...]
    gate: Gate
    requests: int = 0  # GitHub requests this load sent (304s included)
    not_modified: int = 0  # of those, answered 304: unchanged since the previous load
    notes: tuple[str, ...] = ()  # what was configured but could not be judged, in words
    history: tuple[RunHistory, ...] = ()  # per repository, the newest runs on its release branch
    # each red release branch (since its last green commit) and red RC build (since the previous RC), blamed
    blames: tuple[CIBlame, ...] = field(default=(), metadata={OMIT_WHEN_EMPTY: True})


@dataclass(frozen=True)
class ReleaseDays:
    """The days the burn-down marks: the branch cut (its commit's date), each RC tag's (oldest first),
    and the final-RC target from the config; None or empty where unknown."""

    cut: date | None = None
    rc_tags: tuple[tuple[str, date], ...] = ()
    final_rc_target: date | None = None


@dataclass(frozen=True)
class BranchReport:
    diff: BranchDiffReport
    gate: Gate
    days: ReleaseDays = field(default_factory=ReleaseDays)


@dataclass(frozen=True)
class StorageGateReport:
    report: StorageReport
    gate: Gate
    pypi_gate: Gate
    # the wheel sizes at each RC: tag -> filename -> bytes, the recorded RCs with this load's observation
    rc_sizes: dict[str, dict[str, int]] = field(default_factory=dict)
    # ``wheel_sizes``: each wheel against the same variant of the previous RC and release (None: not judged)
    sizes_gate: Gate | None = None
    # the previous release's label (``v2.4.1``) and the sizes of its wheels that have a counterpart in this
    # RC (filename -> bytes; empty when the stable channel has none): with ``rc_sizes``, each variant's history
    release_sizes: tuple[str, dict[str, int]] = ("", {})
    size_flagged: tuple[str, ...] = ()  # the wheels ``wheel_sizes`` flags (over PyPI's limit, or a jump)
    # each wheel that jumped between two builds, with the commits between them (reverts netted out)
    size_jumps: tuple[SizeJump, ...] = field(default=(), metadata={OMIT_WHEN_EMPTY: True})
    # ``[storage.pypi_bound]``: variant -> platform globs of the wheels that face PyPI's limit
    pypi_bound: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class StepView:
    """A checklist step with its live state: a sign-off for manual steps, a gate for automatic ones."""

    step: ChecklistStep
    signoff: Signoff | None = None
    gate: Gate | None = None
    related_gate: Gate | None = None  # shown beside a manual step (is it already on PyPI?)
    locked: str = ""  # why the step is done for good and can be neither unticked nor re-run
    override: str = ""  # an automatic step done by a signed override over its gate: who, when, over what, why
    blocked: str = ""  # why the step may not be run, ticked or signed yet (an earlier step's gate is not green)

    @property
    def done(self) -> bool:
        if self.locked:
            return True
        if self.gate is not None:
            return self.gate.status is GateStatus.GREEN or bool(self.override)
        return bool(self.signoff and self.signoff.done)


@dataclass(frozen=True)
class ChecklistReport:
    steps: tuple[StepView, ...]
    gate: Gate
    team_problems: tuple[str, ...] = ()  # what the last read of the team's status comment found wrong in it


@dataclass(frozen=True)
class GoNoGo:
    go: bool
    gates: tuple[Gate, ...] = field(default=())
    unsigned: tuple[str, ...] = ()  # required manual step ids not yet signed
    reasons: tuple[str, ...] = ()  # one line per thing that keeps it from GO, in the release manager's words
    overrides: tuple[str, ...] = ()  # steps signed by hand over a gate that is not green: GO counts them, visibly
    judged: tuple[str, ...] = ()  # required step ids judged from evidence ([evidence]) that are not green


@dataclass(frozen=True)
class RepoReport:
    """One domain library judged on its own milestone, tracker, clone and packages.

    A report is None when its load failed (the reason in ``errors``, its gate UNKNOWN) or when the
    config leaves it out (no packages: no RC artifact gate). ``requests``: what its cold load cost
    on GitHub, counted in the thread that loaded it.
    """

    name: str
    repository: str
    version: str
    branch: str
    gates: tuple[Gate, ...]
    milestone: MilestoneReport | None = None
    branch_diff: BranchReport | None = None
    picks: PicksReport | None = None
    storage: StorageGateReport | None = None
    errors: dict[str, str] = field(default_factory=dict)
    requests: int = 0


@dataclass(frozen=True)
class ReleasePicture:
    """Everything at once, for ``cockpit report`` / ``cockpit check``: each pane's report (None when
    its load failed, with the error in ``errors``), the gates by name, the checklist and the verdict."""

    version: str
    repository: str
    branch: str
    gates: dict[str, Gate]
    checklist: ChecklistReport
    verdict: GoNoGo
    milestone: MilestoneReport | None = None
    picks: PicksReport | None = None
    ci: CIReport | None = None
    branch_diff: BranchReport | None = None
    storage: StorageGateReport | None = None
    errors: dict[str, str] = field(default_factory=dict)
    patch_phase: str = ""  # a patch release with a [schedule]: "Patch 2.5.1 · Build and promote: 8 days left ..."
    phase_gates: dict[str, Gate] = field(default_factory=dict)  # and each phase's gate, as its checklist step reads it
    repos: tuple[RepoReport, ...] = ()  # RepoReport of each domain library ([[repo]]); none for a single repository
