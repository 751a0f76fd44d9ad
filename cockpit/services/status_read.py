"""Find this release's status comment among the tracker's comments and read it back.

Only a comment whose author GitHub reports as the repository's owner, a member or a collaborator
counts: anyone may comment on a public tracker, and a passer-by's comment carrying the marker must
not put signatures in the team's checklist. Of several, the oldest is the one (the others are
named, so a publish can say so and remove its own duplicate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from cockpit.domain.checklist import Signoff
from cockpit.domain.github import IssueComment
from cockpit.domain.status import ReadStatus, SharedSignoff
from cockpit.services.status_block import decode_block, shown_signoff
from cockpit.services.status_comment import is_status_comment, utc_z

TRUSTED = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})


def status_comments(comments: Sequence[IssueComment], release: str) -> tuple[list[IssueComment], list[str]]:
    """The trusted status comments of ``release``, oldest first, and a line for each one ignored."""
    trusted, problems = [], []
    for c in comments:
        if not is_status_comment(c.body, release):
            continue
        if c.author_association.upper() in TRUSTED:
            trusted.append(c)
        else:
            problems.append(
                f"comment {c.id} by {c.author or 'ghost'} carries the status marker, but GitHub does not count its "
                f"author as a member or collaborator ({c.author_association or 'no association'}); ignored"
            )
    return sorted(trusted, key=lambda c: (c.created_at is None, c.created_at, c.id)), problems


def read_status(comments: Sequence[IssueComment], release: str, now: datetime) -> ReadStatus:
    """The release's status as published (None when there is none usable), with what was wrong."""
    found, problems = status_comments(comments, release)
    if not found:
        return ReadStatus(None, tuple(problems))
    first = found[0]
    status, block_problems = decode_block(first.body, release=release, now=now)
    if len(found) > 1:
        problems.append(
            f"{len(found)} status comments for {release}: comment {first.id} (the oldest) is the one read and edited"
        )
    return ReadStatus(
        status,
        tuple(problems + block_problems),
        first.id,
        first.html_url,
        tuple(c.id for c in found[1:]),
    )


def with_team_signoffs(local: Mapping[str, Signoff], read: ReadStatus | None) -> dict[str, Signoff]:
    """This cockpit's sign-offs with the team's from the status comment: a step signed only by another
    manager shows as signed by that person; when both hold one, ``shown_signoff`` decides."""
    out = dict(local)
    if read is None or read.status is None:
        return out
    for step_id, shared in read.status.signoffs.items():
        mine = local.get(step_id)
        ours = None
        if mine is not None and mine.who and utc_z(mine.when):
            ours = SharedSignoff(step_id, mine.done, mine.who, utc_z(mine.when), mine.note)
        if shown_signoff(ours, shared) is shared:
            note = shared.note or (mine.note if mine else "")
            out[step_id] = Signoff(step_id, shared.done, shared.who, shared.when, note)
    return out
