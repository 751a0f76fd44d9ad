"""Keep the state file from growing without end: the audit log and the RC size history are rotated,
oldest first, to an archive beside the state file, never deleted.

The archive is ``<state file stem>.archive.jsonl`` in the state file's folder: one JSON object a
line (``{"kind": "audit", ...}`` or ``{"kind": "rc_sizes", "tag": ..., "sizes": {...}}``), appended
and flushed to disk *before* the state file drops the entries, so a kill in between leaves an entry
in both places, never in neither.

Bounds (README, "Session state"):
- the audit log holds at most ``AUDIT_LIMIT`` entries; past it, the oldest move to the archive until
  ``AUDIT_KEEP`` remain. An action that started and never told its outcome stays (the next session
  must still ask about it).
- the RC size history holds at most ``RC_SIZES_LIMIT`` RC tags; past it, the oldest tags of *other*
  releases move to the archive. The tags of the release being recorded always stay, whatever their
  number: the size trends compare the RCs of the current release.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cockpit.errors import StateError

AUDIT_LIMIT = 5000
AUDIT_KEEP = 4000
RC_SIZES_LIMIT = 40
_STARTED = "started"  # the registry's word for an intent written before the action (actions.intents)


def archive_path(state_path: Path) -> Path:
    """Where the rotated entries of ``state_path`` go."""
    return state_path.with_name(f"{state_path.stem}.archive.jsonl")


def append(state_path: Path, records: list[dict[str, Any]]) -> None:
    """Append ``records`` to the archive and flush them to disk; ``StateError`` when that fails."""
    if not records:
        return
    path = archive_path(state_path)
    text = "".join(json.dumps(r, ensure_ascii=True, separators=(",", ":")) + "\n" for r in records)
    try:
        with path.open("a", encoding="ascii") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        raise StateError(f"{path}: cannot move old entries there ({exc.strerror or exc}); nothing was moved") from None


def audit_overflow(log: list[Any]) -> tuple[list[Any], list[Any]]:
    """(entries to archive, entries to keep) of the audit ``log`` once it is over ``AUDIT_LIMIT``."""
    if len(log) <= AUDIT_LIMIT:
        return [], log
    answered: set[tuple[Any, Any]] = set()
    unfinished = set()
    for k in range(len(log) - 1, -1, -1):
        entry = log[k]
        if not isinstance(entry, dict):
            continue
        key = (entry.get("action"), entry.get("target"))
        if entry.get("outcome") == _STARTED:
            if key not in answered:
                unfinished.add(k)
        else:
            answered.add(key)
    cut = len(log) - AUDIT_KEEP
    moved = [e for k, e in enumerate(log[:cut]) if k not in unfinished]
    kept = [e for k, e in enumerate(log[:cut]) if k in unfinished] + log[cut:]
    return moved, kept


def release_of(tag: str) -> str:
    """The release an RC tag belongs to: ``v2.5.0-rc3`` -> ``v2.5.0``."""
    return tag.rsplit("-rc", 1)[0]


def sizes_overflow(table: dict[str, Any], current_tag: str) -> list[str]:
    """The RC tags of ``table`` (oldest first) to archive once it holds more than ``RC_SIZES_LIMIT``."""
    excess = len(table) - RC_SIZES_LIMIT
    if excess <= 0:
        return []
    current = release_of(current_tag)
    return [tag for tag in table if release_of(tag) != current][:excess]
