"""A patch release's schedule as data: its phases, their dates and the cherry-pick deadline."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum


class PatchPhase(StrEnum):
    """The phases of a patch release, in the order the process document runs them."""

    TRIAGE = "triage"
    GO_NO_GO = "go_no_go"
    CHERRY_PICK = "cherry_pick"
    BUILD_PROMOTE = "build_promote"
    GENERAL_AVAILABILITY = "general_availability"

    @property
    def words(self) -> str:
        """The phase as the release manager says it."""
        return PHASE_TITLES[self]


PHASE_TITLES = {
    PatchPhase.TRIAGE: "Triage",
    PatchPhase.GO_NO_GO: "Go/No-go",
    PatchPhase.CHERRY_PICK: "Cherry-picking",
    PatchPhase.BUILD_PROMOTE: "Build and promote",
    PatchPhase.GENERAL_AVAILABILITY: "General availability",
}

DEFAULT_QUALIFYING_LABELS = ("high priority", "ci failure")
DEFAULT_TRIAGE_LABEL = "triage review"


@dataclass(frozen=True)
class PhaseDates:
    """One phase's first and last day (both inclusive)."""

    phase: PatchPhase
    start: date
    end: date


@dataclass(frozen=True)
class PatchSchedule:
    """``[schedule]`` of the config: the phases in order, the deadline after which no request is
    accepted (timezone-aware), the issue labels that qualify a request, and the triage label."""

    phases: tuple[PhaseDates, ...]
    cherry_pick_deadline: datetime | None = None
    qualifying_labels: tuple[str, ...] = DEFAULT_QUALIFYING_LABELS
    triage_label: str = DEFAULT_TRIAGE_LABEL


@dataclass(frozen=True)
class PhaseToday:
    """Where a day falls in the schedule: inside ``phase`` (with ``days_left`` counting today), or
    before the first phase, between two, or after the last (``phase`` None and ``where`` says)."""

    phase: PatchPhase | None
    days_left: int
    where: str  # "in", "before", "between", "after"
    next_phase: PatchPhase | None = None
    days_to_deadline: float | None = None  # negative once the deadline has passed

    @property
    def summary(self) -> str:
        """One line for the overview: "Cherry-picking: 3 days left; deadline passed 2 days ago"."""
        if self.where == "in" and self.phase is not None:
            text = f"{self.phase.words}: {_days(self.days_left)} left (today included)"
        elif self.where == "before" and self.next_phase is not None:
            text = f"before {self.next_phase.words}: starts in {_days(self.days_left)}"
        elif self.where == "between" and self.next_phase is not None:
            text = f"between phases: {self.next_phase.words} starts in {_days(self.days_left)}"
        else:
            text = "after general availability: the schedule is over"
        if self.days_to_deadline is not None:
            if abs(self.days_to_deadline) < 1:
                text += "; cherry-pick deadline " + ("passed today" if self.days_to_deadline < 0 else "today")
            elif self.days_to_deadline < 0:
                text += f"; cherry-pick deadline passed {_days(int(-self.days_to_deadline))} ago"
            else:
                text += f"; cherry-pick deadline in {_days(int(self.days_to_deadline))}"
        return text


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"
