"""Commits and the branch diff's verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from cockpit.domain.github import OMIT_WHEN_EMPTY, repository_field


@dataclass(frozen=True)
class CommitRecord:
    sha: str
    subject: str
    body: str = ""
    author: str = ""
    authored_at: int = 0  # epoch seconds
    parents: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        return f"{self.subject}\n\n{self.body}" if self.body else self.subject


class Verdict(StrEnum):
    LANDED = "landed"
    LANDED_MODIFIED = "landed_modified"
    LANDED_BEFORE_CUT = "landed_before_cut"
    MISSING = "missing"
    NOT_MERGED = "not_merged"
    OPEN_ISSUE = "open_issue"
    NEEDS_REVIEW = "needs_review"
    SKIPPED = "skipped"


class EvidenceKind(StrEnum):
    PR_NUMBER = "pr_number"  # whole (#N) suffix or whole-word #N
    PR_URL = "pr_url"  # exact "Pull Request resolved:" URL
    CHERRY_PICK_TRAILER = "cherry_pick_trailer"  # (cherry picked from commit SHA)
    BULK_PICK = "bulk_pick"  # a bulk pick's body lists (#N)
    PATCH_ID = "patch_id"  # same patch id, no reference
    BEFORE_CUT = "before_cut"  # trunk commit is an ancestor of the cut


@dataclass(frozen=True)
class Evidence:
    kind: EvidenceKind
    commit: str  # the release-branch (or trunk, for BEFORE_CUT) commit that carries it
    detail: str = ""


@dataclass(frozen=True)
class ItemDiff:
    """The branch diff's answer for one milestone item."""

    number: int
    title: str
    verdict: Verdict
    evidence: tuple[Evidence, ...] = ()
    commits: tuple[str, ...] = ()  # trunk commits of the PR (or fixing the issue)
    html_url: str = ""
    note: str = ""
    repository: str = repository_field()


@dataclass(frozen=True)
class RevertOwed:
    """A revert on main whose target is in the release branch, which the branch has not taken."""

    revert_sha: str
    revert_subject: str
    reverted_sha: str
    reverted_pr: int | None
    how: tuple[Evidence, ...] = ()
    repository: str = repository_field()


@dataclass(frozen=True)
class PickPrediction:
    """What ``git cherry-pick -x`` of a missing PR's commits (or an owed revert) onto the release
    branch head would do, found by git's own merge in memory (``cockpit.services.pick_predict``).

    ``key`` is the row's reference: ``#N`` for a milestone PR, the revert's SHA for a revert owed.
    ``after``: keys of other missing picks after which (in that order) it applies, when it does
    not alone. ``empty``: the change is already on the branch (the pick would be empty).
    ``group``: the other picks touching the same paths. ``note``: why nothing was predicted.
    """

    key: str
    applies: bool
    conflicts: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    empty: bool = False
    group: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class RCDelta:
    base: str
    head: str
    commits: tuple[CommitRecord, ...] = ()
    prs: tuple[int, ...] = ()


@dataclass(frozen=True)
class BranchDiffReport:
    items: tuple[ItemDiff, ...] = ()
    reverts_to_propagate: tuple[RevertOwed, ...] = ()
    missing_in_main: tuple[CommitRecord, ...] = ()
    rc_delta: RCDelta | None = None
    cut: str = ""
    branch: str = ""
    main: str = ""
    release_only_patterns: tuple[str, ...] = ()  # the subject regexes that set housekeeping aside
    predictions: tuple[PickPrediction, ...] = ()  # asked for (``--predict``): one per missing pick and revert owed
    # why the picks were asked for and not predicted (the diff itself stands); not in the JSON when none
    prediction_trouble: str = field(default="", metadata={OMIT_WHEN_EMPTY: True})

    @property
    def missing(self) -> tuple[ItemDiff, ...]:
        return tuple(i for i in self.items if i.verdict is Verdict.MISSING)
