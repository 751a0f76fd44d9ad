"""The schema of ``[schedule]``: a patch release's phases, deadline and labels (read only when the config has it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from cockpit.config import pytorch
from cockpit.config.kinds import Day, Deadline, Kind, Text, Texts, key
from cockpit.config.tables import Strict, Table
from cockpit.config.where import Where
from cockpit.domain.schedule import (
    DEFAULT_QUALIFYING_LABELS,
    DEFAULT_TRIAGE_LABEL,
    PHASE_TITLES,
    PatchPhase,
    PatchSchedule,
    PhaseDates,
)

_DATE = Day("an ISO date such as 2026-09-21")


class Labels(Kind):
    """A non-empty list of issue labels."""

    expected = 'a non-empty list of issue labels such as ["high priority"]'

    def read(self, where: Where, key: str, value: Any) -> Any:
        labels = Texts().read(where, key, value)
        if not labels or not all(label.strip() for label in labels):
            raise where.fail(key, self.expected, list(labels))
        return tuple(label.strip() for label in labels)


class Label(Kind):
    """One non-empty issue label."""

    expected = 'a non-empty label such as "triage review"'

    def read(self, where: Where, key: str, value: Any) -> Any:
        label = Text().read(where, key, value)
        if not label.strip():
            raise where.fail(key, self.expected, label)
        return label.strip()


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class PhaseTable:
    """One phase of a patch release: its first and last day."""

    start: date = key(_DATE, "Its first day.")
    end: date = key(_DATE, "Its last day.")

    def problem(self) -> tuple[str, str, Any] | None:
        if self.end < self.start:
            return "end", f"a date on or after start ({self.start.isoformat()})", self.end.isoformat()
        return None


_PHASE = Table(PhaseTable, strict=Strict(wording="only 'start' and 'end'"))


@dataclass(frozen=True, slots=True, eq=False, repr=False)  # read, never compared
class ScheduleTable:
    """``[schedule]``: a patch release's phases, each a table of ISO ``start`` and ``end`` days."""

    triage: PhaseTable | None = key(_PHASE, PHASE_TITLES[PatchPhase.TRIAGE] + ".", default=None)
    go_no_go: PhaseTable | None = key(_PHASE, PHASE_TITLES[PatchPhase.GO_NO_GO] + ".", default=None)
    cherry_pick: PhaseTable | None = key(_PHASE, PHASE_TITLES[PatchPhase.CHERRY_PICK] + ".", default=None)
    build_promote: PhaseTable | None = key(_PHASE, PHASE_TITLES[PatchPhase.BUILD_PROMOTE] + ".", default=None)
    general_availability: PhaseTable | None = key(
        _PHASE, PHASE_TITLES[PatchPhase.GENERAL_AVAILABILITY] + ".", default=None
    )
    cherry_pick_deadline: datetime | None = key(
        Deadline(pytorch.DEADLINE_TIME, pytorch.DEADLINE_ZONE),
        "The last moment a pick is taken (a day means 5 PM Pacific that day, the end of the working day).",
        default=None,
    )
    qualifying_labels: tuple[str, ...] = key(
        Labels(), "Labels that make an issue qualify for the patch release.", default=DEFAULT_QUALIFYING_LABELS
    )
    triage_label: str = key(Label(), "The label of issues waiting for triage.", default=DEFAULT_TRIAGE_LABEL)

    def schedule(self) -> PatchSchedule:
        """The domain's view: the phases given, in order."""
        phases = tuple(
            PhaseDates(phase, dates.start, dates.end)
            for phase in PatchPhase
            if (dates := getattr(self, phase.value)) is not None
        )
        return PatchSchedule(phases, self.cherry_pick_deadline, self.qualifying_labels, self.triage_label)
