"""Each release manager's sign-offs, kept in a comment that manager's own GitHub account wrote.

GitHub says who wrote a comment (``user.login``); a git ``user.name`` or a name typed in a data
block says nothing. So the sign-offs the team counts are read only from *sign-off records*: one
comment per manager on the tracker, carrying a marker, a short visible list and a hidden data
block with that manager's entries. An entry whose ``who`` is not the record's author is someone
claiming to be someone else: it is shown as unverified and never counted. The status comment is
only the rendered picture of the records.

A record is written by the cockpit and by nobody else: its body must be exactly what the cockpit
renders from the entries it holds. Text added around it, a second data block, a hand edit of the
visible list or an unreadable block make the record *unreadable*, and a publish stops on it
instead of dropping what it held (see ``cockpit.actions.publish``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from cockpit.domain.github import IssueComment
from cockpit.domain.status import RecordReading, SharedSignoff
from cockpit.services.markdown import md_login, md_text
from cockpit.services.status_block import read_signoffs, shown_signoff, signoff_entry

RECORD_PREFIX = "<!-- release-cockpit:signoffs v=1 release="
DATA_OPEN = "<!-- release-cockpit:signoff-data v=1"
NOTE_LIMIT = 1000


def record_marker(release: str) -> str:
    """The hidden first line of a manager's sign-off record of ``release``."""
    return f"{RECORD_PREFIX}{release} -->"


def is_record(body: str, release: str) -> bool:
    """Whether ``body`` carries the sign-off record marker of ``release`` anywhere in it."""
    return record_marker(release) in (body or "")


def body_digest(body: str) -> str:
    """A short digest of a comment body: what the state file keeps to know a record it wrote."""
    return hashlib.sha256((body or "").encode("utf-8", "surrogatepass")).hexdigest()[:20]


def render_record(release: str, login: str, entries: Mapping[str, SharedSignoff]) -> str:
    """The whole record body of ``login``'s ``entries`` (``who`` is set to ``login``; notes are cut to
    ``NOTE_LIMIT``): marker, visible list, data block. Deterministic, so a reader can tell a
    hand-edited record from one the cockpit wrote."""
    own = {k: SharedSignoff(k, s.done, login, s.when, s.note[:NOTE_LIMIT], s.override) for k, s in entries.items()}
    data = {
        "v": 1,
        "release": release,
        "login": login,
        "signoffs": {k: signoff_entry(s) for k, s in sorted(own.items())},
    }
    raw = base64.b64encode(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()).decode()
    lines = [
        record_marker(release),
        f"Sign-offs of {md_login(login)} for release {md_text(release)}, kept by Release Cockpit. The status "
        "comment shows the team's picture; an edit of this comment by hand makes it unreadable.",
        "",
    ]
    for step_id, s in sorted(own.items()):
        word = "signed" if s.done else "unsigned"
        lines.append(f"- {md_text(step_id)}: {word} at {s.when.replace('T', ' ').rstrip('Z')} UTC")
    if not own:
        lines.append("- (no sign-off)")
    block = [raw[i : i + 76] for i in range(0, len(raw), 76)]
    return "\n".join([*lines, "", DATA_OPEN, *block, "-->"]) + "\n"


def read_record(comment: IssueComment, release: str, now: datetime) -> RecordReading:
    """``comment``'s record, checked against what the cockpit would have written; never raises."""
    login = comment.author
    stamp = comment.updated_at.isoformat() if comment.updated_at else ""
    digest = body_digest(comment.body)
    where = f"the sign-off comment {comment.id} of @{login or 'ghost'}"

    def unreadable(why: str) -> RecordReading:
        return RecordReading(comment.id, login, {}, (), f"{where} {why}", stamp, digest)

    body = comment.body or ""
    if not body.startswith(record_marker(release) + "\n") or body.count(record_marker(release)) != 1:
        return unreadable("has text before its marker or a second marker (edited by hand?)")
    if body.count(DATA_OPEN) != 1:
        return unreadable("has no data block or more than one (edited by hand?)")
    packed = re.sub(r"\s+", "", body.split(DATA_OPEN, 1)[1].rsplit("-->", 1)[0])
    try:
        data = json.loads(base64.b64decode(packed, validate=True).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return unreadable(f"has a data block that is not base64 of JSON ({type(exc).__name__})")
    if not isinstance(data, dict) or data.get("v") != 1 or data.get("release") != release:
        return unreadable(f"has a data block that is not version 1 of release {release}'s record")
    problems: list[str] = []
    claimed = read_signoffs(data.get("signoffs"), problems, now)
    if problems:
        return unreadable(f"has entries that cannot be read ({problems[0]})")
    others = tuple(s for s in claimed.values() if s.who.casefold() != login.casefold())
    if others:
        named = ", ".join(sorted({f"@{s.who}" for s in others}))
        return RecordReading(
            comment.id, login, {}, others, f"{where} holds entries claiming to be {named}'s (unverified)", stamp, digest
        )
    if data.get("login") != login or render_record(release, login, claimed) != body:
        return unreadable("is not what Release Cockpit wrote (text added or changed by hand?)")
    return RecordReading(comment.id, login, claimed, (), "", stamp, digest)


def team_signoffs(records: Iterable[Mapping[str, SharedSignoff]]) -> dict[str, SharedSignoff]:
    """The team's sign-off of each step from every manager's entries: the first signature when
    several signed, else the latest word (``shown_signoff``)."""
    team: dict[str, SharedSignoff] = {}
    for entries in records:
        for step_id, entry in entries.items():
            shown = shown_signoff(team.get(step_id), entry)
            if shown is not None:
                team[step_id] = shown
    return team


def own_entries(local: Mapping[str, SharedSignoff], recorded: Mapping[str, SharedSignoff]) -> dict[str, SharedSignoff]:
    """This manager's entries to publish: the local ones, and what the record already held for a
    step the local state has nothing newer on (a state file lost or another clone never drops one)."""
    out = dict(recorded)
    for step_id, entry in local.items():
        held = out.get(step_id)
        if held is None or entry.when >= held.when:
            out[step_id] = entry
    return out


def team_to_json(team: Mapping[str, Mapping[str, SharedSignoff]]) -> str:
    """Each person's last good sign-offs (login -> step -> entry) as compact JSON, for the state file."""
    data = {login: {k: signoff_entry(s) for k, s in sorted(e.items())} for login, e in sorted(team.items())}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def team_from_json(text: str | int | None) -> dict[str, dict[str, SharedSignoff]]:
    """The inverse of ``team_to_json``; anything unreadable is skipped (an empty copy)."""
    if not isinstance(text, str):
        return {}
    try:
        raw = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(raw, dict):
        return {}
    far = datetime(9999, 1, 1, tzinfo=UTC)
    out = {}
    for login, entries in raw.items():
        if isinstance(login, str) and login:
            read = read_signoffs(entries, [], far)
            out[login] = {k: s for k, s in read.items() if s.who == login}
    return out
