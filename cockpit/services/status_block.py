"""The hidden, machine-readable block of the status comment: encode, read back (as hostile input).

The block is an HTML comment holding base64 of a JSON object, so nothing in it can end the comment
early or render. Anyone who can edit the tracker comment can write anything in it: reading it
checks every field (type, size, step id, time) and skips what is wrong with a message naming it;
it never raises.

The block also carries a digest of the comment's visible part, so a hand edit of the visible
text is seen. The sign-offs in it are the picture's, never counted: the team's sign-offs are read
from each manager's own record (``signoff_record``). Two views of a step combine as
``shown_signoff`` says: the first signature when both signed, else the latest word.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from cockpit.domain.status import PublishedGate, PublishedStatus, PublishedStep, SharedSignoff
from cockpit.domain.text import inert

BLOCK_OPEN = "<!-- release-cockpit:data v=1"
BLOCK_CLOSE = "-->"
MAX_BLOCK = 48_000  # characters of base64, leaving room for the visible part; 60 steps use a quarter of it
MAX_ENTRIES = 500
_NAME_LIMIT, _NOTE_LIMIT, _TITLE_LIMIT = 100, 1000, 300
_STEP_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,99}$")
_WHEN = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
_BLOCK = re.compile(re.escape(BLOCK_OPEN) + r"\s+([A-Za-z0-9+/=\s]*?)\s*" + re.escape(BLOCK_CLOSE))
_STATUSES = ("green", "amber", "red", "unknown")


def encode_block(status: PublishedStatus) -> str:
    """``status`` as the hidden block: an HTML comment of base64 lines, at most ``MAX_BLOCK`` long.

    A status too big for that loses its notes first, then long titles and summaries (the visible
    table keeps them); raises ValueError when even that does not fit.
    """
    for note_limit, text_limit in ((_NOTE_LIMIT, _NOTE_LIMIT), (200, 300), (0, 80)):
        raw = _packed(status, note_limit, text_limit)
        if len(raw) <= MAX_BLOCK:
            lines = [raw[i : i + 76] for i in range(0, len(raw), 76)]
            return "\n".join([BLOCK_OPEN, *lines, BLOCK_CLOSE])
    raise ValueError(
        f"the status of {len(status.steps)} steps and {len(status.signoffs)} sign-offs is too big for one comment"
    )


def _packed(status: PublishedStatus, note_limit: int, text_limit: int) -> str:
    def cut(text: str) -> str:
        return text[:text_limit]

    data = {
        "v": 1,
        "release": status.release,
        "repository": status.repository,
        "go": status.go,
        "reasons": [cut(r) for r in status.reasons],
        "gates": [[g.name, g.title, g.status, cut(g.summary)] for g in status.gates],
        "steps": [[s.id, s.section, cut(s.title), s.done] for s in status.steps],
        "signoffs": {
            k: signoff_entry(dataclasses.replace(s, note=s.note[:note_limit]))
            for k, s in sorted(status.signoffs.items())
        },
        "published_by": status.published_by,
        "published_at": status.published_at,
        "visible": status.visible_sha,
    }
    return base64.b64encode(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()).decode()


def signoff_entry(s: SharedSignoff) -> dict[str, Any]:
    """One sign-off as the data blocks hold it."""
    entry: dict[str, Any] = {"done": s.done, "who": s.who, "when": s.when}
    if s.note:
        entry["note"] = s.note
    if s.override:
        entry["override"] = True
    return entry


def decode_block(body: str, *, release: str, now: datetime | None = None) -> tuple[PublishedStatus | None, list[str]]:
    """The status in ``body``'s hidden block, and a message for everything that was wrong in it.

    Returns (None, [why]) when the block is missing, oversized, not base64/JSON or for another
    release; bad entries are skipped one by one. A sign-off dated more than a day ahead of ``now``
    is taken for forged and skipped.
    """
    match = _BLOCK.search(body or "")
    if match is None:
        return None, ["the status comment has no data block (edited by hand?); its sign-offs cannot be read"]
    packed = re.sub(r"\s+", "", match.group(1))
    if len(packed) > MAX_BLOCK:
        return None, [f"the status comment's data block is {len(packed):,} characters, over {MAX_BLOCK:,}; ignored"]
    try:
        data = json.loads(base64.b64decode(packed, validate=True).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, [f"the status comment's data block is not base64 of JSON ({type(exc).__name__}); ignored"]
    if not isinstance(data, dict) or data.get("v") != 1:
        return None, ["the status comment's data block is not version 1 of the format; ignored"]
    if data.get("release") != release:
        return None, [
            f"the status comment's data block is for release {_text(data.get('release'), 40)!r}, not {release}"
        ]
    problems: list[str] = []
    signoffs = read_signoffs(data.get("signoffs"), problems, now or datetime.now(UTC))
    status = PublishedStatus(
        release=release,
        repository=_text(data.get("repository"), _TITLE_LIMIT),
        go=data.get("go") is True,
        reasons=tuple(_text(r, _NOTE_LIMIT) for r in _list(data.get("reasons"))[:50]),
        gates=tuple(_gates(data.get("gates"), problems)),
        steps=tuple(_steps(data.get("steps"), problems)),
        signoffs=signoffs,
        published_by=_text(data.get("published_by"), _NAME_LIMIT),
        published_at=_when(data.get("published_at")),
        visible_sha=_text(data.get("visible"), 64),
    )
    return status, problems


def _text(value: Any, limit: int) -> str:
    return inert(value)[:limit] if isinstance(value, str) else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _when(value: Any) -> str:
    if not isinstance(value, str) or not _WHEN.match(value):
        return ""
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return ""
    return value


def read_signoffs(raw: Any, problems: list[str], now: datetime) -> dict[str, SharedSignoff]:
    """Sign-offs (step id -> entry) read as hostile input: a bad entry is skipped with a line in ``problems``."""
    if not isinstance(raw, dict):
        problems.append("the data block's 'signoffs' is not a table; no sign-offs read")
        return {}
    if len(raw) > MAX_ENTRIES:
        problems.append(f"the data block holds {len(raw)} sign-offs, over {MAX_ENTRIES}; none read")
        return {}
    limit = now + timedelta(days=1)
    out: dict[str, SharedSignoff] = {}
    for step_id, entry in raw.items():
        shown = _text(step_id, 40) or "?"
        if not _STEP_ID.match(step_id):
            problems.append(f"sign-off {shown!r}: not a step id; skipped")
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("done"), bool):
            problems.append(f"sign-off {step_id!r}: expected a table with done = true/false; skipped")
            continue
        who, when = entry.get("who"), _when(entry.get("when"))
        if not isinstance(who, str) or not who.strip() or len(who) > _NAME_LIMIT:
            problems.append(f"sign-off {step_id!r}: 'who' is not a name of at most {_NAME_LIMIT} characters; skipped")
            continue
        if not when:
            problems.append(f"sign-off {step_id!r}: 'when' is not a UTC time like 2026-01-31T12:00:00Z; skipped")
            continue
        if datetime.strptime(when, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC) > limit:
            problems.append(f"sign-off {step_id!r}: dated {when}, in the future; taken for forged and skipped")
            continue
        out[step_id] = SharedSignoff(
            step_id,
            entry["done"],
            inert(who),
            when,
            _text(entry.get("note"), _NOTE_LIMIT),
            entry.get("override") is True,
        )
    return out


def _gates(raw: Any, problems: list[str]) -> list[PublishedGate]:
    gates = []
    for row in _list(raw)[:50]:
        if isinstance(row, list) and len(row) == 4 and all(isinstance(x, str) for x in row) and row[2] in _STATUSES:
            gates.append(PublishedGate(_text(row[0], 60), _text(row[1], 100), row[2], _text(row[3], _NOTE_LIMIT)))
        else:
            problems.append("a gate of the data block is malformed; skipped")
    return gates


def _steps(raw: Any, problems: list[str]) -> list[PublishedStep]:
    steps = []
    for row in _list(raw)[:MAX_ENTRIES]:
        ok = isinstance(row, list) and len(row) == 4 and all(isinstance(x, str) for x in row[:3])
        if ok and isinstance(row[3], bool) and _STEP_ID.match(row[0]):
            steps.append(PublishedStep(row[0], _text(row[1], 100), _text(row[2], _TITLE_LIMIT), row[3]))
        else:
            problems.append("a checklist step of the data block is malformed; skipped")
    return steps


def shown_signoff(local: SharedSignoff | None, shared: SharedSignoff | None) -> SharedSignoff | None:
    """What one cockpit shows for a step from its own sign-off and the team's: the first signature
    when both signed, else the latest word."""
    if local is None or shared is None:
        return local or shared
    if local.done and shared.done:
        return local if local.when <= shared.when else shared
    return local if local.when >= shared.when else shared
