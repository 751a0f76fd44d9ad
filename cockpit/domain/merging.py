"""What decides whether a release-branch PR may be merged from the cockpit, and the merge it would make."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Review:
    """One review of a pull request: ``state`` is GitHub's (APPROVED, CHANGES_REQUESTED, COMMENTED,
    DISMISSED, PENDING); ``commit_id`` the head it was given on."""

    author: str
    state: str
    commit_id: str = ""
    submitted_at: datetime | None = None


@dataclass(frozen=True)
class CommitStatus:
    """One legacy commit status (``context`` and ``state``: success, failure, error, pending)."""

    context: str
    state: str


@dataclass(frozen=True)
class CheckVerdict:
    """A check the merge waits on, as the confirmation lists it."""

    name: str
    outcome: str  # success, failure, pending, missing, ... (a check run's conclusion or a status's state)
    required: bool

    @property
    def green(self) -> bool:
        return self.outcome in ("success", "skipped", "neutral")


@dataclass(frozen=True)
class MergePlan:
    """A release-branch PR's merge as the release manager saw it in the confirmation.

    ``head_sha`` is the head that was judged: the merge is sent with it, so GitHub refuses (409)
    when someone pushed since. ``problems`` is empty when every condition holds; otherwise each
    names the condition that failed. ``required_from`` says where the required checks came from.
    """

    repository: str
    number: int
    title: str
    base: str
    head_sha: str
    method: str
    approvals: tuple[str, ...]
    changes_requested: tuple[str, ...]
    checks: tuple[CheckVerdict, ...]
    required_from: str
    problems: tuple[str, ...] = ()

    @property
    def mergeable(self) -> bool:
        return not self.problems
