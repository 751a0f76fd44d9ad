"""A revert the release branch owes, as the pull request that brings it there (issue 29 section 2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cockpit.domain.commits import PickPrediction, RevertOwed


class RevertPROutcome(StrEnum):
    """What the guarded action does with one revert owed."""

    OPEN = "open"  # push the pick to the fork and open the PR
    REUSE = "reuse"  # a PR from that head branch is already there: nothing new is made
    MANUAL = "manual"  # the pick conflicts (section 1's prediction): a person cherry-picks it
    NOT_ON_BRANCH = "not_on_branch"  # the reverted commit is not in the release branch: nothing to revert
    EMPTY = "empty"  # the branch already holds the revert's change


@dataclass(frozen=True)
class RevertPR:
    """One revert owed, with the PR that would carry it onto the release branch.

    ``branch``: the fork's head branch (``cherry-pick-revert-<PR>-<X.Y>``). ``rc_tags``: the RC tags
    holding the reverted commit; ``other_lines``: those of another release line (github_analyze.py's
    RC-tag heuristic flags them; only ancestry decides). ``pull_number``/``pull_url``: the PR found
    or opened.
    """

    revert_sha: str
    revert_subject: str
    reverted_sha: str
    reverted_pr: int | None
    branch: str
    title: str
    body: str
    outcome: RevertPROutcome
    detail: str
    conflicts: tuple[str, ...] = ()
    rc_tags: tuple[str, ...] = ()
    other_lines: tuple[str, ...] = ()
    pull_number: int | None = None
    pull_url: str = ""


@dataclass(frozen=True)
class RevertPRBatch:
    """The reverts owed of one release branch, previewed together and confirmed once."""

    release_branch: str
    repository: str
    fork: str  # the fork's owner: PR heads are ``<fork>:<branch>``
    head: str  # the release head the picks are made onto
    plans: tuple[RevertPR, ...]
    comment: bool = False  # also post the tracker's request comment for each PR opened or reused

    @property
    def to_open(self) -> tuple[RevertPR, ...]:
        return tuple(p for p in self.plans if p.outcome is RevertPROutcome.OPEN)


@dataclass(frozen=True)
class RevertPRAsk:
    """The action's target: the reverts owed and section 1's predictions of their picks, as the branch
    diff found them; ``comment``: also post the tracker's request for each PR opened."""

    reverts: tuple[RevertOwed, ...]
    predictions: tuple[PickPrediction, ...] = ()
    comment: bool = False
