"""A minor release's two phases, as a flag on the tracker's requests: after the cut-off, only
release-blocking critical fixes. Pure.

Facts from pytorch/test-infra ``.claude/skills/release-create-tracker-issue/SKILL.md`` (4dd9d5cdc): the
tracker says "Phase 1 (until {PHASE_CUTOFF})" and "Phase 2 (after {PHASE_CUTOFF})", the cut-off being
M4's date "exactly as written in the announcement (e.g. ``DD/MM/YY``)", a "week of" prefix taken off
(the 2.13 example: M4 "week of 22/6/26"); phase 2 accepts "only ... **Release-blocking** critical fixes
for: silent correctness, backwards compatibility, crashes, deadlocks, (large) memory leaks". The
cockpit's own tracker body (``templates/release_tracker.md``) writes "Phase 1, until {cutoff}".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date

from cockpit.domain.picks import PickFlag, PickRow
from cockpit.domain.stamps import aware
from cockpit.domain.text import inert

# "Phase 1 (until 22/6/26)", "Phase 1, until week of 22/6/26:", "Phase 1 (until 2026-06-22)"
_UNTIL = re.compile(r"(?i)\bphase\s*1\b[^\n]{0,12}?\buntil\s+(?:the\s+)?(?:week\s+of\s+)?([0-9][0-9./-]{4,11}[0-9])")
# "M4: Release branch finalized, ... (week of 22/6/26)": when no phase line names the date
_M4 = re.compile(r"(?im)^\W*M4\s*:[^\n]*?\((?:week\s+of\s+)?([0-9][0-9./-]{4,11}[0-9])\)")
_DMY = re.compile(r"^(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")

# The words of the phase 2 criteria: a category naming one of them is a critical fix.
CRITICAL_WORDS = (
    "critical",
    "release-blocking",
    "release blocking",
    "release blocker",
    "correctness",
    "crash",
    "deadlock",
    "memory leak",
    "backward compat",
    "backwards compat",
    "bc-breaking",
    "bc breaking",
)


@dataclass(frozen=True)
class PhaseCutoff:
    """The last day of phase 1 (``day``, None when not known), where it came from, and what could not
    be read (``problem``: said on the gate, never taken as "no cut-off")."""

    day: date | None
    source: str = ""
    problem: str = ""


def configured(day: date) -> PhaseCutoff:
    return PhaseCutoff(day, "[release] phase_cutoff")


def cutoff_in_tracker(body: str, number: int) -> PhaseCutoff:
    """The cut-off the tracker issue names: its "Phase 1 (until ...)" line, else its M4 date. None (no
    problem) when it names neither: a tracker written without phases."""
    text = body[:200_000]
    found = _UNTIL.search(text) or _M4.search(text)
    if found is None:
        return PhaseCutoff(None)
    written = found.group(1)
    day, problem = parse_day(written)
    where = f"tracker #{number} ({inert(written)!r})"
    if day is None:
        return PhaseCutoff(None, where, f"the phase 1 cut-off in tracker #{number} {problem}")
    return PhaseCutoff(day, where + (f", {problem}" if problem else ""))


def parse_day(written: str) -> tuple[date | None, str]:
    """``written`` as a day: ``YYYY-MM-DD``, or day/month/year as PyTorch's announcements write it
    (``22/6/26``). A second number over 12 can only be a day, so ``6/22/26`` is read month/day and
    says so. Returns the day and a remark, or None and what was expected."""
    iso = _ISO.match(written)
    dmy = _DMY.match(written)
    remark = ""
    if iso:
        y, m, d = (int(g) for g in iso.groups())
    elif dmy:
        d, m, y = (int(g) for g in dmy.groups())
        if m > 12 >= d:
            d, m, remark = m, d, "read as month/day/year"
        y = y + 2000 if y < 100 else y
    else:
        return None, f"{inert(written)!r} is no date: expected day/month/year such as '22/6/26', or YYYY-MM-DD"
    try:
        return date(y, m, d), remark
    except ValueError:
        return None, f"{inert(written)!r} is no day of the calendar: expected day/month/year such as '22/6/26'"


def is_critical(category: str) -> bool:
    """Whether a request's criteria category names a critical fix (the only kind phase 2 takes)."""
    folded = category.casefold()
    return any(word in folded for word in CRITICAL_WORDS)


def apply_phase_rules(rows: Sequence[PickRow], cutoff: PhaseCutoff) -> tuple[PickRow, ...]:
    """The rows with ``phase_2`` added to each request still pending that was posted after the cut-off
    and whose category is not a critical fix (parsed requests only; one without a date is not judged; one
    the release team already merged or closed was decided by them)."""
    if cutoff.day is None:
        return tuple(rows)
    return tuple(_judged(row, cutoff.day) for row in rows)


def _judged(row: PickRow, last_day: date) -> PickRow:
    req = row.request
    if not row.pending or not req.parsed or req.not_a_request or req.created_at is None:
        return row
    posted = aware(req.created_at).astimezone(UTC).date()
    if posted <= last_day or is_critical(req.category):
        return row
    said = f"'{inert(req.category)[:60]}'" if req.category.strip() else "none"
    note = (
        f"posted {posted:%Y-%m-%d}, in phase 2 (after the cut-off {last_day:%Y-%m-%d}): phase 2 takes only "
        f"release-blocking critical fixes, and its category is {said}"
    )
    return replace(row, flags=tuple(dict.fromkeys((*row.flags, PickFlag.PHASE_2))), notes=(*row.notes, note))
