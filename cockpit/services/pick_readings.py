"""Requests read from prose, and the release manager's confirmations of them.

A request read from a sentence ("#N could also be included in 2.5") is a guess: its row carries
the ``read_from_prose`` flag, which keeps a pending pick from counting as clear, until a release
manager confirms the reading with a key (kept in the state file, ``state.pick_readings``). The
confirmation names the reading it confirmed: when the comment is edited and reads differently,
the flag comes back, with both readings in the notes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from cockpit.domain.picks import PickFlag, PickRequest, PickRow, ReadingConfirmation


def reading_of(request: PickRequest, repository: str = "") -> str:
    """A request's reading in words, as a confirmation records it: "trunk #1; release #2; mentioned #3"."""
    parts = [
        f"{name} {' '.join(ref.label(repository) for ref in refs)}"
        for name, refs in (
            ("trunk", request.trunk_prs),
            ("release", request.release_prs),
            ("mentioned", request.mentioned_prs),
        )
        if refs
    ]
    return "; ".join(parts) or "no PR"


def reading_key(repository: str, comment_id: int) -> str:
    """The state file's key of a comment's confirmation: ``owner/name#comment-<id>``."""
    return f"{repository}#comment-{comment_id}"


def confirmations_for(entries: Mapping[str, ReadingConfirmation], repository: str) -> dict[int, ReadingConfirmation]:
    """The confirmations of ``repository``'s tracker comments, by comment id, from the state file's
    entries (keyed by ``reading_key``)."""
    prefix = f"{repository}#comment-".casefold()
    out = {}
    for key, confirmation in entries.items():
        number = key[len(prefix) :] if key.casefold().startswith(prefix) else ""
        if number.isdigit():
            out[int(number)] = confirmation
    return out


def with_prose_marked(row: PickRow, repository: str, confirmations: Mapping[int, ReadingConfirmation]) -> PickRow:
    """``row`` flagged ``read_from_prose`` unless its reading was confirmed; a row not read from prose as it is."""
    request = row.request
    if not request.prose or not request.parsed:
        return row
    reading = reading_of(request, repository)
    confirmed = confirmations.get(request.comment_id)
    if confirmed is not None and confirmed.reading == reading:
        note = f"read from prose; {confirmed.who or 'someone'} confirmed this reading ({confirmed.when})"
        return replace(row, notes=(note, *row.notes))
    notes = [f"read from prose ({reading}): check it against the sentence, then confirm the reading"]
    if confirmed is not None:
        notes.append(
            f"the reading {confirmed.who or 'someone'} confirmed was {confirmed.reading!r}; it now reads {reading!r}"
        )
    return replace(row, flags=(*row.flags, PickFlag.READ_FROM_PROSE), notes=(*notes, *row.notes))
