"""``git log`` output read into commits: one ``-z`` record per commit, fields split by a unit separator.

Pure (no git run here): ``cockpit.adapters.git.GitRepo.log`` asks git for ``LOG_FORMAT`` and hands
the bytes to ``parse_log``. Names, subjects and bodies came from people, so they are made inert as
they are parsed, but only when the bytes hold something ``inert`` would change (a 100k-commit
history usually holds nothing of the kind).
"""

from __future__ import annotations

import re

from cockpit.domain.commits import CommitRecord
from cockpit.domain.text import inert, is_inert

FIELD = "\x1f"
_PLAIN_BYTES = b"\x00\x1f\t\n" + bytes(range(0x20, 0x7F))  # separators, line breaks, printable ASCII
_ACTIVE_UTF8 = re.compile(rb"[\x00-\x7f]|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]")
LOG_FORMAT = "%H%x1f%P%x1f%an%x1f%at%x1f%s%x1f%b"


def decode(data: bytes | str | None) -> str:
    """git's output as text (undecodable bytes replaced); None is empty."""
    if isinstance(data, bytes):
        return data.decode("utf-8", errors="replace")
    return data or ""


def needs_cleaning(raw: bytes) -> bool:
    """Whether git's output holds a character ``inert`` would change, judged on the bytes.

    Most histories hold none, and then the 100k-commit parse pays one 10 ms pass instead of three
    ``inert`` calls per commit: the plain ASCII bytes are dropped, and what is left (control bytes,
    UTF-8 sequences of names) is searched for a control byte or the UTF-8 form of a C1 control,
    a direction mark, override or isolate, or a line separator.
    """
    rest = raw.translate(None, _PLAIN_BYTES)
    return bool(rest) and _ACTIVE_UTF8.search(rest) is not None


def parse_log(raw: bytes) -> list[CommitRecord]:
    """Parse ``git log -z --format=<LOG_FORMAT>`` output; malformed records are skipped."""
    records: list[CommitRecord] = []
    append, record = records.append, CommitRecord
    text = decode(raw)
    if isinstance(raw, bytes):
        clean = needs_cleaning(raw)
    else:
        clean = not is_inert(text.replace("\0", "\n").replace(FIELD, "\n"))
    for chunk in text.split("\0"):
        fields = chunk.split(FIELD, 5)
        if len(fields) < 6:
            continue
        sha, parents, author, at, subject, body = fields
        sha = sha.strip()
        if len(sha) < 40:
            continue
        if clean:
            author, subject, body = inert(author), inert(subject), inert(body, multiline=True)
        # positional arguments: keyword construction of the frozen dataclass was half the parse time
        append(
            record(
                sha,
                subject,
                body.strip("\n"),
                author,
                int(at) if at.isascii() and at.isdigit() else 0,
                tuple(parents.split()),
            )
        )
    return records
