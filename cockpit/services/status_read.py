"""Read the team's picture back from the tracker: the status comment and each manager's sign-off record.

Only a comment whose author GitHub reports as the repository's owner, a member or a collaborator
counts: anyone may comment on a public tracker, and a passer-by's comment carrying a marker must
not put signatures in the team's checklist. The status comment is found by its marker anywhere in
such a comment (of several, the oldest is the one; the others are named). The sign-offs counted
are those of the records (``signoff_record``), each owned by the account that wrote it; an entry
in the status comment that no record backs is shown as unverified, never counted.

``blocking`` lists what a publish must not write over without the user's word: an unreadable or
hand-edited status comment or record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from cockpit.domain.checklist import Signoff
from cockpit.domain.github import IssueComment
from cockpit.domain.status import ReadStatus, RecordReading, SharedSignoff
from cockpit.services.signoff_record import is_record, read_record, team_signoffs
from cockpit.services.status_block import decode_block, shown_signoff
from cockpit.services.status_comment import is_status_comment, status_tampered, utc_z

TRUSTED = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})


def _trusted(comments: Sequence[IssueComment], problems: list[str], what: str) -> list[IssueComment]:
    trusted = []
    for c in comments:
        if c.author_association.upper() in TRUSTED:
            trusted.append(c)
        else:
            problems.append(
                f"comment {c.id} by {c.author or 'ghost'} carries the {what} marker, but GitHub does not count its "
                f"author as a member or collaborator ({c.author_association or 'no association'}); ignored"
            )
    return sorted(trusted, key=lambda c: (c.created_at is None, c.created_at, c.id))


def status_comments(comments: Sequence[IssueComment], release: str) -> tuple[list[IssueComment], list[str]]:
    """The trusted status comments of ``release``, oldest first, and a line for each one ignored."""
    problems: list[str] = []
    marked = [c for c in comments if is_status_comment(c.body, release) and not is_record(c.body, release)]
    return _trusted(marked, problems, "status"), problems


def read_records(
    comments: Sequence[IssueComment], release: str, now: datetime
) -> tuple[list[RecordReading], list[str]]:
    """Each trusted manager's sign-off record (the oldest of one author; a second is named), and problems."""
    problems: list[str] = []
    seen: dict[str, RecordReading] = {}
    for c in _trusted([c for c in comments if is_record(c.body, release)], problems, "sign-off record"):
        key = c.author.casefold()
        if key in seen:
            problems.append(f"@{c.author} has a second sign-off comment ({c.id}); only {seen[key].comment_id} is read")
            continue
        seen[key] = read_record(c, release, now)
    return list(seen.values()), problems


def unverified_lines(unverified: Sequence[SharedSignoff], where: str) -> list[str]:
    """One line per entry that claims to be someone's and is not backed by that person's record."""
    return [
        f"{where}: '{s.step_id}' {'signed' if s.done else 'unsigned'} as @{s.who} at {s.when} is unverified "
        "(not in that account's own sign-off comment); not counted"
        for s in unverified
    ]


def read_status(comments: Sequence[IssueComment], release: str, now: datetime) -> ReadStatus:
    """The release's status as published (None when there is none usable), the team's verified
    sign-offs, and what was wrong (``problems``; ``blocking`` for what stops a publish)."""
    found, problems = status_comments(comments, release)
    records, record_problems = read_records(comments, release, now)
    problems += record_problems
    blocking = [r.problem for r in records if r.problem]
    team = team_signoffs(r.entries for r in records)
    unverified = [u for r in records for u in r.unverified]
    if not found:
        return ReadStatus(
            None,
            tuple(problems + blocking + unverified_lines(unverified, "tracker")),
            team=team,
            records=tuple(records),
            unverified=tuple(unverified),
            blocking=tuple(blocking),
        )
    first = found[0]
    status, block_problems = decode_block(first.body, release=release, now=now)
    if status is None:
        blocking += [f"the status comment {first.id}: {p}" for p in block_problems]
    else:
        tampered = status_tampered(first.body, status)
        if tampered:
            blocking.append(f"the status comment {first.id} {tampered}")
        claimed = [s for k, s in status.signoffs.items() if team.get(k) != s]
        unverified += claimed
        problems += block_problems
        status = replace(status, signoffs=dict(team))
    if len(found) > 1:
        problems.append(
            f"{len(found)} status comments for {release}: comment {first.id} (the oldest) is the one read and edited"
        )
    return ReadStatus(
        status,
        tuple(problems + blocking + unverified_lines(unverified, f"comment {first.id}")),
        first.id,
        first.html_url,
        tuple(c.id for c in found[1:]),
        team=team,
        records=tuple(records),
        unverified=tuple(unverified),
        blocking=tuple(blocking),
    )


def with_team_signoffs(local: Mapping[str, Signoff], read: ReadStatus | None) -> dict[str, Signoff]:
    """This cockpit's sign-offs with the team's verified ones: a step signed only by another manager
    shows as signed by that person's GitHub login; when both hold one, ``shown_signoff`` decides."""
    out = dict(local)
    if read is None:
        return out
    for step_id, shared in read.team.items():
        mine = local.get(step_id)
        ours = None
        if mine is not None and mine.who and utc_z(mine.when):
            ours = SharedSignoff(step_id, mine.done, mine.who, utc_z(mine.when), mine.note)
        if shown_signoff(ours, shared) is shared:
            note = shared.note or (mine.note if mine else "")
            out[step_id] = Signoff(step_id, shared.done, shared.who, shared.when, note)
    return out
