"""Where today falls in a patch release's schedule, and how the checklist's phase steps read from it."""

from __future__ import annotations

from datetime import UTC, date, datetime

from cockpit.domain.gates import GateStatus
from cockpit.domain.release import Release
from cockpit.domain.schedule import PatchPhase, PatchSchedule, PhaseToday


def is_patch_release(version: str) -> bool:
    """A version whose patch number is not zero ("2.5.1") is a patch release."""
    parts = version.split(".")
    return len(parts) >= 3 and parts[2].isdigit() and int(parts[2]) != 0


def release_is_patch(release: Release) -> bool:
    """Whether the configured release is a patch release."""
    return is_patch_release(release.version)


def phase_on(schedule: PatchSchedule, now: datetime) -> PhaseToday:
    """The phase ``now`` falls in (its UTC date), the days left in it (today counted), and the
    days to the cherry-pick deadline (negative once passed)."""
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    today = now.astimezone(UTC).date()
    to_deadline = None
    if schedule.cherry_pick_deadline is not None:
        to_deadline = (schedule.cherry_pick_deadline - now).total_seconds() / 86400
    phases = sorted(schedule.phases, key=lambda p: (p.start, p.end))
    if not phases:
        return PhaseToday(None, 0, "after", days_to_deadline=to_deadline)
    inside = [p for p in phases if p.start <= today <= p.end]
    if inside:
        current = inside[-1]  # overlapping phases: the later one has begun, so it is today's
        return PhaseToday(current.phase, (current.end - today).days + 1, "in", days_to_deadline=to_deadline)
    upcoming = [p for p in phases if p.start > today]
    if upcoming:
        nxt = upcoming[0]
        where = "before" if nxt is phases[0] else "between"
        return PhaseToday(None, (nxt.start - today).days, where, nxt.phase, to_deadline)
    return PhaseToday(None, 0, "after", days_to_deadline=to_deadline)


def phase_status(schedule: PatchSchedule, phase: PatchPhase, today: date) -> GateStatus:
    """A phase step of the checklist from the dates: GREEN once the phase has ended, AMBER while it
    runs, UNKNOWN before it starts or when the schedule does not name it."""
    dates = next((p for p in schedule.phases if p.phase is phase), None)
    if dates is None or today < dates.start:
        return GateStatus.UNKNOWN
    return GateStatus.GREEN if today > dates.end else GateStatus.AMBER
