"""Confirmed readings of prose requests in the state file: ``[pick_readings."<owner/name>#comment-<id>"]``.

An entry says who confirmed, when, and the reading confirmed ("trunk #1; release #2"). Like the
overrides, an entry whose keys are wrong (hand-edited, or hostile) is not counted: the request
stays flagged, and the problem is logged with the key, what it held and what was expected.
"""

from __future__ import annotations

import logging
from typing import Any

from cockpit.domain.picks import ReadingConfirmation
from cockpit.domain.text import inert

log = logging.getLogger(__name__)


def reading_entry(who: str, when: str, reading: str) -> dict[str, Any]:
    """The state-file entry of a reading confirmed now."""
    return {"confirmed": True, "who": who, "when": when, "reading": reading}


def read_confirmation(entry: Any, *, where: str) -> ReadingConfirmation | None:
    """The confirmation ``entry`` holds, or None (and a logged problem) when it holds none that counts."""
    if not isinstance(entry, dict):
        _broken(where, "(the entry)", entry, "a table")
        return None
    if entry.get("confirmed") is not True:
        _broken(where, "confirmed", entry.get("confirmed"), "true")
        return None
    reading = entry.get("reading")
    if not isinstance(reading, str) or not reading.strip():
        _broken(where, "reading", reading, "the reading confirmed, like 'trunk #1; release #2'")
        return None
    who, when = entry.get("who", ""), entry.get("when", "")
    return ReadingConfirmation(
        inert(who) if isinstance(who, str) else "", inert(when) if isinstance(when, str) else "", reading
    )


def _broken(where: str, key: str, value: Any, expected: str) -> None:
    shown = inert(repr(value))[:80] if value is not None else "missing"
    log.warning("%s: key '%s' is %s, expected %s: this confirmation is not counted", where, key, shown, expected)
