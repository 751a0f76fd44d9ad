"""The release's status as published on the tracker issue: one comment the whole team reads.

The comment carries what anyone needs to see (verdict, gates, checklist) as Markdown, and, hidden
in it, the same picture as data: the sign-offs each manager's cockpit reads back and merges.
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
class SignConflict:
    """The same step signed by one manager and unsigned by the other since their last common version."""

    step_id: str
    mine: SharedSignoff
    theirs: SharedSignoff


@dataclass(frozen=True)
class ReadStatus:
    """A status comment read back: its picture (None when unusable) and what was wrong with it."""

    status: PublishedStatus | None
    problems: tuple[str, ...] = ()
    comment_id: int | None = None
    comment_url: str = ""
    extra_comments: tuple[int, ...] = field(default=())  # more comments with the marker (newer ones)


@dataclass(frozen=True)
class StatusPublication:
    """The target of the publish action: the picture, and the preview the release manager saw.

    Its dry run is ``preview`` when set; with ``read_tracker`` it reads the tracker to render the
    Markdown and the diff against the published comment (GET only, in a worker); otherwise it only
    says where the comment goes (cheap enough for the UI thread).
    """

    picture: StatusInput
    preview: str = ""
    read_tracker: bool = False
