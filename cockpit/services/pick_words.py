"""A pick prediction in words: the pane's column, the detail's lines, the JSON of ``--predict``.

The branch diff pane, the cherry-picks pane and ``cockpit missing-in-branch`` all say a prediction
through these functions, so the screen and the script use the same words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cockpit.domain.commits import PickPrediction


def ref_word(key: str) -> str:
    """How a pick is named in words: ``#N`` for a PR, the first 8 characters of a revert's SHA."""
    return key if key.startswith("#") else key[:8]


def ref_json(key: str) -> int | str:
    """How a pick is named in JSON: the PR's number, or the revert's full SHA."""
    return int(key[1:]) if key.startswith("#") and key[1:].isdigit() else key


def _refs(keys: Iterable[str]) -> str:
    return ", ".join(ref_word(k) for k in keys)


def pick_word(p: PickPrediction | None, *, compact: bool = False) -> str:
    """The column: ``applies``, ``conflicts in 2 files``, ``after #N``, ``already in``, or "".
    ``compact`` (a narrow table): ``2 conflicts`` instead."""
    if p is None:
        return ""
    if p.note:
        return "not predicted"
    if p.applies:
        return "applies"
    if p.empty:
        return "already in"
    if p.after:
        return f"after {_refs(p.after)}"
    n = len(p.conflicts)
    if compact:
        return f"{n} conflict{'s' if n != 1 else ''}"
    return f"conflicts in {n} file{'s' if n != 1 else ''}"


def pick_summary(predictions: Iterable[PickPrediction]) -> str:
    """``7 apply, 1 after another, 1 conflicts`` (empty when nothing was predicted)."""
    found = list(predictions)
    counts = (
        (sum(p.applies for p in found), "apply"),
        (sum(bool(p.after) for p in found), "after another"),
        (sum(bool(p.conflicts) and not p.after for p in found), "conflict"),
        (sum(p.empty for p in found), "already in"),
        (sum(bool(p.note) for p in found), "not predicted"),
    )
    return ", ".join(f"{n} {word}" for n, word in counts if n)


def pick_lines(p: PickPrediction | None, branch: str) -> list[str]:
    """The detail: what ``git cherry-pick -x`` onto the branch head would do, and why."""
    if p is None:
        return []
    head = f"Cherry-pick onto the head of {branch or 'the release branch'} (git's merge, in memory):"
    if p.note:
        return [head, f"  {p.note}"]
    if p.applies:
        lines = [head, "  applies cleanly"]
    elif p.empty:
        lines = [head, "  already applied: the pick would be empty (its change is on the branch by another route)"]
    else:
        lines = [head, f"  conflicts in {len(p.conflicts)} file{'s' if len(p.conflicts) != 1 else ''}:"]
        lines += [f"    {path}" for path in p.conflicts]
        if p.after:
            lines.append(f"  applies after {_refs(p.after)} (in that order; confirmed by merging)")
        else:
            lines.append("  no order of other missing picks makes it apply: needs a manual pick")
    if p.group:
        lines.append(f"Touches the same paths as: {_refs(p.group)}")
    return lines


def pick_json(p: PickPrediction) -> dict[str, Any]:
    """``{"applies": bool, "conflicts": [paths], "after": [numbers], "empty": bool, "group": [numbers]}``;
    a revert is named by its SHA where a PR is by its number; ``note`` when nothing was predicted."""
    out: dict[str, Any] = {
        "applies": p.applies,
        "conflicts": list(p.conflicts),
        "after": [ref_json(k) for k in p.after],
        "empty": p.empty,
        "group": [ref_json(k) for k in p.group],
    }
    if p.note:
        out["note"] = p.note
    return out


def posting_advice(p: PickPrediction | None) -> str | None:
    """What to know before posting the bot's cherry-pick command for this pick, or None when it applies:
    the order to post several in (``post on #A first, then #B``), or why the bot's pick would fail."""
    if p is None or p.applies or p.note:
        return None
    me = ref_word(p.key)
    if p.empty:
        return f"{me} is already on the branch by another route: the bot's pick would be empty."
    if p.after:
        order = ", then ".join(ref_word(k) for k in (*p.after, p.key))
        return f"{me} applies only after {_refs(p.after)}: post the cherry-pick commands in this order: {order}."
    n = len(p.conflicts)
    return (
        f"The bot's pick of {me} would conflict in {n} file{'s' if n != 1 else ''} "
        f"({', '.join(p.conflicts[:3])}{', ...' if n > 3 else ''}): it needs a manual pick."
    )
