"""The checklist's patch phase steps, read from the schedule and today's date: one gate per phase.

What each colour means (the checklist template's "Patch release phases" steps say the same):

- before a phase starts, or when the schedule does not name it: UNKNOWN (open; nothing to judge yet);
- while it runs: AMBER, with the days left (today counted);
- once its last day has passed: GREEN, by the dates alone, except for cherry-picking, whose work can be
  known: it is over when its last day or the cherry-pick deadline has passed, and then GREEN only when
  the ``picks_clear`` gate is green (no request pending nor flagged), RED when it is amber or red (the
  phase ended with its work open), UNKNOWN while the cherry-picks are not known.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.schedule import PatchPhase, PatchSchedule, PhaseDates
from cockpit.gates import gate_title
from cockpit.services.schedule import phase_on

PHASE_GATES: dict[PatchPhase, str] = {phase: f"phase_{phase.value}" for phase in PatchPhase}
"""The gate each phase's checklist step reads: ``phase_triage``, ``phase_go_no_go``, ``phase_cherry_pick``,
``phase_build_promote``, ``phase_general_availability``."""
PICKS_GATE = "picks_clear"


def phase_gates(schedule: PatchSchedule, now: datetime, gates: Mapping[str, Gate]) -> dict[str, Gate]:
    """Each phase's gate as of ``now`` (its UTC day), in the order of the phases; ``gates`` gives the
    ``picks_clear`` gate the cherry-picking phase is judged by once it is over."""
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    today = now.astimezone(UTC).date()
    found: dict[str, Gate] = {}
    for phase in PatchPhase:
        dates = next((p for p in schedule.phases if p.phase is phase), None)
        if phase is PatchPhase.CHERRY_PICK:
            gate = _cherry_pick(schedule, dates, now, today, gates.get(PICKS_GATE))
        else:
            gate = _by_dates(phase, dates, today)
        found[gate.name] = gate
    return found


def phase_line(version: str, schedule: PatchSchedule, now: datetime) -> str:
    """The overview's and the report's line: "Patch 2.5.1 · Build and promote: 8 days left ..."."""
    return f"Patch {version} · {phase_on(schedule, now).summary}"


def _gate(phase: PatchPhase, status: GateStatus, summary: str, details: tuple[str, ...] = ()) -> Gate:
    return Gate(PHASE_GATES[phase], gate_title(PHASE_GATES[phase]), status, summary, details)


def _by_dates(phase: PatchPhase, dates: PhaseDates | None, today: date) -> Gate:
    if dates is None:
        return _gate(phase, GateStatus.UNKNOWN, "not in the schedule: add its start and end under [schedule]")
    span = f"{dates.start.isoformat()} to {dates.end.isoformat()}"
    if today < dates.start:
        return _gate(phase, GateStatus.UNKNOWN, f"starts in {_days((dates.start - today).days)} ({span})")
    if today <= dates.end:
        left = (dates.end - today).days + 1
        return _gate(phase, GateStatus.AMBER, f"running: {_days(left)} left, today included ({span})")
    return _gate(phase, GateStatus.GREEN, f"ended on {dates.end.isoformat()} ({span})")


def _cherry_pick(
    schedule: PatchSchedule, dates: PhaseDates | None, now: datetime, today: date, picks: Gate | None
) -> Gate:
    phase = PatchPhase.CHERRY_PICK
    deadline = schedule.cherry_pick_deadline
    deadline_passed = deadline is not None and now > deadline
    started = dates is not None and today >= dates.start
    ended = dates is not None and today > dates.end
    if not (ended or (deadline_passed and (started or dates is None))):
        return _by_dates(phase, dates, today)
    when = f"the deadline {deadline.strftime('%Y-%m-%d %H:%M UTC')}" if deadline_passed and deadline else ""
    if not when and dates is not None:
        when = f"its last day {dates.end.isoformat()}"
    if picks is None or picks.status is GateStatus.UNKNOWN:
        why = picks.summary if picks is not None else "not loaded yet"
        return _gate(
            phase, GateStatus.UNKNOWN, f"over since {when}; whether a request is still open is not known: {why}"
        )
    if picks.status is GateStatus.GREEN:
        return _gate(phase, GateStatus.GREEN, f"over since {when}; no request pending ({picks.summary})")
    return _gate(
        phase,
        GateStatus.RED,
        f"over since {when}, with its work open: {picks.summary}",
        picks.details,
    )


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"
