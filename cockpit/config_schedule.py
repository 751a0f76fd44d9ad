"""``[schedule]`` of ``cockpit.toml``: a patch release's phases, deadline and labels, validated strictly."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any

from cockpit.domain.schedule import (
    DEFAULT_QUALIFYING_LABELS,
    DEFAULT_TRIAGE_LABEL,
    PatchPhase,
    PatchSchedule,
    PhaseDates,
)

if TYPE_CHECKING:
    from cockpit.config import _Table

_KEYS = {p.value for p in PatchPhase} | {"cherry_pick_deadline", "qualifying_labels", "triage_label"}
_DATE = "an ISO date such as 2026-09-21"
_DEADLINE = "an ISO date or date-time such as 2026-09-21 or 2026-09-21T17:00:00Z"


def schedule_from(t: _Table) -> PatchSchedule:
    """The schedule of ``t``; a ConfigError names the key and what was expected."""
    for key in t.data:
        if key not in _KEYS:
            raise t.fail(key, f"one of {', '.join(sorted(_KEYS))}")
    phases = []
    for phase in PatchPhase:
        if phase.value not in t.data:
            continue
        sub = t.table(phase.value)
        for key in sub.data:
            if key not in ("start", "end"):
                raise sub.fail(key, "only 'start' and 'end'")
        start, end = _date(sub, "start"), _date(sub, "end")
        if end < start:
            raise sub.fail("end", f"a date on or after start ({start.isoformat()})", end.isoformat())
        phases.append(PhaseDates(phase, start, end))
    labels: tuple[str, ...] = t.strs("qualifying_labels", DEFAULT_QUALIFYING_LABELS)
    if not labels or not all(label.strip() for label in labels):
        raise t.fail("qualifying_labels", 'a non-empty list of issue labels such as ["high priority"]', list(labels))
    return PatchSchedule(
        phases=tuple(phases),
        cherry_pick_deadline=_deadline(t) if "cherry_pick_deadline" in t.data else None,
        qualifying_labels=tuple(label.strip() for label in labels),
        triage_label=_label(t),
    )


def _label(t: _Table) -> str:
    label: str = t.str("triage_label", DEFAULT_TRIAGE_LABEL)
    if not label.strip():
        raise t.fail("triage_label", 'a non-empty label such as "triage review"', label)
    return label.strip()


def _date(t: _Table, key: str) -> date:
    value: Any = t.get(key, (str, date), _DATE, required=True)
    if isinstance(value, datetime):
        raise t.fail(key, _DATE + " (a day, not a time)", value.isoformat())
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise t.fail(key, _DATE, value) from None


def _deadline(t: _Table) -> datetime:
    """A date means the end of that day (UTC); a date-time without a zone is UTC."""
    value: Any = t.get("cherry_pick_deadline", (str, date, datetime), _DEADLINE)
    if isinstance(value, str):
        try:
            text = value.strip()
            has_time = "T" in text or " " in text
            value = datetime.fromisoformat(text) if has_time else date.fromisoformat(text)
        except ValueError:
            raise t.fail("cherry_pick_deadline", _DEADLINE, value) from None
    if not isinstance(value, datetime):
        value = datetime.combine(value, time(23, 59, 59))
    return value if value.tzinfo else value.replace(tzinfo=UTC)
