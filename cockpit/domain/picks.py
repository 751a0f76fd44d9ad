"""Cherry-pick requests parsed from the release tracker, and their analysis."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from cockpit.domain.github import PullRequest, repository_field


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
    """One request comment of the tracker, as parsed.

    ``parsed`` is False when no request was found: no template and no PR named, or a comment that is
    no request (``not_a_request``: a reply, a question to someone, a quoted or empty template, a
    bot's message). ``free_form`` requests were read from free text rather than the template: their
    roles come from their words, and ``mentioned_prs`` are the PRs no word placed. A request read
    from prose ("could #N also be included in 2.5?") keeps in ``prose`` the sentences it was read
    from: a guess a person confirms, never a reading taken silently.
    """

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
    free_form: bool = False
    mentioned_prs: tuple[PRRef, ...] = ()  # PRs of a free-form request whose role no word tells
    not_a_request: bool = False
    prose: tuple[str, ...] = ()  # the sentences a prose request was read from; empty for labelled ones
    created_at: datetime | None = None
    updated_at: datetime | None = None
    html_url: str = ""


@dataclass(frozen=True)
class ReadingConfirmation:
    """A release manager's word that a request read from prose was read right: who, when, and the
    reading they confirmed (``services.pick_readings.reading_of``). A confirmation holds only while
    the comment still reads the same."""

    who: str
    when: str
    reading: str


@dataclass(frozen=True)
class ReadingConfirmed:
    """The target of the ``picks.confirm_reading`` action: a prose request's reading to confirm
    (``reading``), or None to withdraw the confirmation; ``key`` is ``services.pick_readings.reading_key``."""

    key: str
    reading: str | None


class PickStatus(StrEnum):
    UNDER_REVIEW = "under_review"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    NO_RELEASE_PR = "no_release_pr"
    FREE_FORM = "free_form"  # a request in free text whose PRs have no role yet: someone must read it
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
    FREE_FORM = "free_form"
    UNPARSED = "unparsed"
    COULD_NOT_READ = "could_not_read"  # a PR it names failed to load: its other flags are not known
    AFTER_DEADLINE = "after_deadline"  # a patch release's request posted after the cherry-pick deadline
    NO_QUALIFYING_LINK = "no_qualifying_link"  # links neither a high-priority issue nor a CI failure
    READ_FROM_PROSE = "read_from_prose"  # its PRs were read from a sentence: a person confirms the reading
    PHASE_2 = "phase_2"  # a minor release's request posted after the cut-off that is no critical fix


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
    repository: str = repository_field()

    @property
    def pending(self) -> bool:
        return self.status in (
            PickStatus.UNDER_REVIEW,
            PickStatus.NO_RELEASE_PR,
            PickStatus.FREE_FORM,
            PickStatus.UNPARSED,
        )
