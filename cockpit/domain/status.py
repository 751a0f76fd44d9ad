"""The release's status as published on the tracker issue: one comment the whole team reads.

The comment carries what anyone needs to see (verdict, gates, checklist) as Markdown, and, hidden
in it, the same picture as data. The sign-offs the team counts are not taken from it: each manager's
live in a comment that manager's GitHub account wrote (a sign-off record), and the status comment
is only their rendered picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cockpit.domain.gates import Gate
from cockpit.domain.reports import ChecklistReport, GoNoGo


@dataclass(frozen=True)
class SharedSignoff:
    """One checklist step's sign-off as the team shares it: signed or unsigned, by whom, when (UTC ISO).

    An unsigned entry is a deliberate "not done" (someone unticked it), never the mere absence of one.
    ``override``: signed by hand over a gate that was not green.
    """

    step_id: str
    done: bool
    who: str
    when: str
    note: str = ""
    override: bool = False


@dataclass(frozen=True)
class PublishedGate:
    name: str
    title: str
    status: str  # a GateStatus value
    summary: str


@dataclass(frozen=True)
class PublishedStep:
    id: str
    section: str
    title: str
    done: bool


@dataclass(frozen=True)
class PublishedStatus:
    """What one publish put in the comment's hidden block."""

    release: str
    repository: str
    go: bool
    reasons: tuple[str, ...]
    gates: tuple[PublishedGate, ...]
    steps: tuple[PublishedStep, ...]
    signoffs: dict[str, SharedSignoff]
    published_by: str
    published_at: str  # UTC ISO
    visible_sha: str = ""  # digest of the comment's visible part as published (a hand edit shows)


@dataclass(frozen=True)
class StatusInput:
    """What a publish renders: the live picture of this cockpit (gates, checklist, verdict)."""

    version: str
    repository: str
    branch: str
    gates: dict[str, Gate]
    checklist: ChecklistReport
    verdict: GoNoGo


@dataclass(frozen=True)
class RecordReading:
    """One manager's sign-off record as read: its entries (counted), the entries claiming someone else
    (``unverified``), and why it cannot be read (``problem``; then none of its entries is counted)."""

    comment_id: int
    login: str
    entries: dict[str, SharedSignoff]
    unverified: tuple[SharedSignoff, ...] = ()
    problem: str = ""
    updated_at: str = ""
    digest: str = ""


@dataclass(frozen=True)
class ReadStatus:
    """The tracker read back: the status comment's picture (None when unusable), the team's verified
    sign-offs from each manager's record, and what was wrong."""

    status: PublishedStatus | None
    problems: tuple[str, ...] = ()
    comment_id: int | None = None
    comment_url: str = ""
    extra_comments: tuple[int, ...] = field(default=())  # more comments with the marker (newer ones)
    team: dict[str, SharedSignoff] = field(default_factory=dict)  # the verified sign-offs, from the records
    records: tuple[RecordReading, ...] = ()  # each manager's sign-off record as read
    unverified: tuple[SharedSignoff, ...] = ()  # entries claiming someone else: shown, never counted
    blocking: tuple[str, ...] = ()  # what a publish must not write over without the user's word


@dataclass(frozen=True)
class StatusPublication:
    """The target of the publish action: the picture, and the preview the release manager saw.

    Its dry run is ``preview`` when set; with ``read_tracker`` it reads the tracker to render the
    Markdown and the diff against the published comment (GET only, in a worker); otherwise it only
    says where the comment goes (cheap enough for the UI thread). ``repair``: an unreadable or
    hand-edited comment does not stop the publish; the last good copies kept in the state file stand
    for what cannot be read.
    """

    picture: StatusInput
    preview: str = ""
    read_tracker: bool = False
    repair: bool = False  # the user chose to republish from what is known over an unreadable comment
