"""Cherry-pick requests parsed from the release tracker, and their analysis."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from cockpit.domain.github import PullRequest


@dataclass(frozen=True, order=True)
class PRRef:
    """A reference to a pull request; ``repository`` is ``owner/name`` or "" for "this repository"."""

    number: int
    repository: str = ""

    def label(self, home: str = "") -> str:
        if self.repository and self.repository != home:
            return f"{self.repository}#{self.number}"
        return f"#{self.number}"


@dataclass(frozen=True)
class PickRequest:
    """One request comment of the tracker, as parsed. ``parsed`` is False when the template was not found."""

    comment_id: int
    author: str
    body: str
    trunk_prs: tuple[PRRef, ...] = ()
    release_prs: tuple[PRRef, ...] = ()
    category: str = ""
    trunk_na: bool = False  # "NA": a release-only change
    parsed: bool = True
    hints: tuple[str, ...] = ()  # words appended by release managers: merged, reverted, ...
    fixes: tuple[str, ...] = ()  # issue links mentioned ("Issue fixed:", "--fixes")
    created_at: datetime | None = None
    updated_at: datetime | None = None
    html_url: str = ""


class PickStatus(StrEnum):
    UNDER_REVIEW = "under_review"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    NO_RELEASE_PR = "no_release_pr"
    UNPARSED = "unparsed"


class PickFlag(StrEnum):
    TRUNK_NOT_MERGED = "trunk_not_merged"
    WRONG_BASE = "wrong_base"
    TRUNK_REVERTED = "trunk_reverted"
    MISSING_ISSUE_LINK = "missing_issue_link"
    DUPLICATE = "duplicate"
    NO_RELEASE_PR = "no_release_pr"
    UNREQUESTED_MERGE = "unrequested_merge"
    STALE = "stale"
    UNPARSED = "unparsed"
    COULD_NOT_READ = "could_not_read"  # a PR it names failed to load: its other flags are not known


@dataclass(frozen=True)
class PickRow:
    """A request joined with the live state of its pull requests."""

    request: PickRequest
    status: PickStatus
    flags: tuple[PickFlag, ...] = ()
    age_days: float | None = None
    release_pr_age_days: float | None = None
    notes: tuple[str, ...] = field(default=())
    pulls: tuple[PullRequest, ...] = ()  # the loaded PRs it names (release first, then trunk), for the detail view

    @property
    def pending(self) -> bool:
        return self.status in (PickStatus.UNDER_REVIEW, PickStatus.NO_RELEASE_PR, PickStatus.UNPARSED)
