"""Overrides in the state file: a sign-off given over a gate that was not green.

An override is a ``[signoffs.<step>]`` entry with ``override = true``, the gate's ``gate_status``
and ``gate_summary`` when it was signed, and the ``override_note`` that says why. Entries written
before overrides existed have none of these keys and load as plain sign-offs. An entry whose override
keys are wrong (hand-edited, or hostile) is not counted: the step stays open and the sign-off carries
a ``problem`` naming the key, what it held and what was expected.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cockpit.domain.checklist import Signoff
from cockpit.domain.text import inert

OVERRIDABLE = ("red", "unknown", "amber")
"""Gate statuses a release manager may sign over: a failing gate, one whose evidence could not be read, or an
amber one that asks for it (a workflow run that succeeded with inputs the cockpit does not know)."""
_KEYS = ("override", "gate_status", "gate_summary", "override_note")


def override_entry(who: str, when: str, note: str, gate_status: str, gate_summary: str) -> dict[str, Any]:
    """The state-file entry of an override signed now (``done`` true)."""
    return {
        "done": True,
        "who": who,
        "when": when,
        "override": True,
        "gate_status": gate_status,
        "gate_summary": gate_summary,
        "override_note": note,
    }


def read_override(signoff: Signoff, entry: dict[str, Any], *, where: str) -> Signoff:
    """``signoff`` with the override ``entry`` holds, or with a ``problem`` when its override keys are wrong."""
    if not any(key in entry for key in _KEYS):
        return signoff
    flag = entry.get("override", False)
    if not isinstance(flag, bool):
        return _broken(signoff, where, "override", flag, "true or false")
    if not flag:
        return signoff
    status = entry.get("gate_status")
    if status not in OVERRIDABLE:
        return _broken(signoff, where, "gate_status", status, " or ".join(repr(s) for s in OVERRIDABLE))
    note = entry.get("override_note")
    if not isinstance(note, str) or not note.strip():
        return _broken(signoff, where, "override_note", note, "the note saying why the step goes ahead (required)")
    summary = entry.get("gate_summary", "")
    if not isinstance(summary, str):
        return _broken(signoff, where, "gate_summary", summary, "a string")
    return replace(
        signoff,
        override=True,
        gate_status=status,
        gate_summary=inert(summary),
        override_note=inert(note),
    )


def _broken(signoff: Signoff, where: str, key: str, value: Any, expected: str) -> Signoff:
    shown = inert(repr(value))[:80] if value is not None else "missing"
    problem = f"{where}: key '{key}' is {shown}, expected {expected}: this override is not counted"
    return replace(signoff, done=False, problem=problem)
