"""What GitHub holds for a release: milestones, their items, pull requests and comments."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

OMIT_WHEN_EMPTY = "omit_when_empty"
"""Field metadata: a machine-readable report leaves the field out while it is empty."""


def repository_field() -> Any:
    """The ``repository`` field of a row (milestone item, pick, revert): a domain library's ``owner/name``,
    set on its rows only; "" for the session's own repository, and then left out of the JSON report,
    so a single-repository report reads as it always did."""
    return field(default="", metadata={OMIT_WHEN_EMPTY: True})


class ItemKind(StrEnum):
    ISSUE = "issue"
    PULL = "pull"


class ItemState(StrEnum):
    """The state a release manager cares about, not GitHub's two-valued ``state``."""

    OPEN = "open"
    MERGED = "merged"
    CLOSED_UNMERGED = "closed_unmerged"
    CLOSED = "closed"  # a closed issue

    @property
    def is_open(self) -> bool:
        return self is ItemState.OPEN


@dataclass(frozen=True)
class Milestone:
    number: int
    title: str
    state: str
    open_items: int = 0
    closed_items: int = 0
    html_url: str = ""
    created_at: datetime | None = None
    due_on: datetime | None = None  # the date the release team set on GitHub, if any


@dataclass(frozen=True)
class MilestoneItem:
    """An issue or pull request in the milestone.

    For pull requests ``state`` is MERGED or CLOSED_UNMERGED once closed; the adapter decides
    from ``pull_request.merged_at`` in the issues list (no extra request per row). ``author`` is
    "ghost" for an account that was deleted, as GitHub's pages show it.
    """

    number: int
    kind: ItemKind
    title: str
    state: ItemState
    html_url: str
    labels: tuple[str, ...] = ()
    assignees: tuple[str, ...] = ()
    author: str = ""
    updated_at: datetime | None = None
    closed_at: datetime | None = None
    linked_prs: tuple[int, ...] = ()
    body: str = ""
    # why GitHub closed an issue: "completed", "not_planned", "duplicate", "reopened"; "" when open or untold
    state_reason: str = ""
    created_at: datetime | None = None
    repository: str = repository_field()


class PullState(StrEnum):
    OPEN = "open"
    MERGED = "merged"
    CLOSED_UNMERGED = "closed_unmerged"


@dataclass(frozen=True)
class PullRequest:
    number: int
    title: str
    state: PullState
    base_ref: str
    head_ref: str
    html_url: str
    author: str = ""
    created_at: datetime | None = None
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    merge_commit_sha: str | None = None
    body: str = ""
    repository: str = ""
    head_sha: str = ""
    mergeable: bool | None = None  # None until GitHub has computed it (read from the single PR only)
    mergeable_state: str = ""  # clean / dirty / blocked / unstable / unknown


@dataclass(frozen=True)
class IssueComment:
    id: int
    author: str
    body: str
    html_url: str = ""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    # GitHub's word for the author's tie to the repository: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE...
    author_association: str = ""

    @property
    def edited(self) -> bool:
        return self.created_at is not None and self.updated_at is not None and self.updated_at > self.created_at


@dataclass(frozen=True)
class RateLimit:
    """What the last response said about the remaining budget."""

    limit: int
    remaining: int
    reset_at: float  # epoch seconds
