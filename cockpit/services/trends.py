"""The series behind the pictures: is the release converging?

Pure functions over what the panes already loaded: the milestone's items (burn-down), the tracker's
pick requests (arrivals, resolutions, the queue), and the newest runs pushed to each release branch
(CI history). A day is a UTC calendar day; every series runs from its first day to ``today``
inclusive, one value a day.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from cockpit.domain.ci import RunHistory, WorkflowRun
from cockpit.domain.github import Milestone, MilestoneItem, PullRequest
from cockpit.domain.picks import PickRow, PickStatus

CI_HISTORY_LENGTH = 20
"""How many of the newest required-workflow runs the CI history shows."""

PASSED = frozenset({"success", "skipped", "neutral"})


@dataclass(frozen=True)
class DailySeries:
    """One value a day from ``start``."""

    start: date
    values: tuple[int, ...] = ()

    @property
    def end(self) -> date:
        return self.start + timedelta(days=max(0, len(self.values) - 1))

    def on(self, day: date) -> int | None:
        """The value on ``day``, None outside the series."""
        index = (day - self.start).days
        return self.values[index] if 0 <= index < len(self.values) else None


@dataclass(frozen=True)
class BurnDown:
    """Open milestone items per day, and the day the release team set as the milestone's due date."""

    open_items: DailySeries
    target: date | None = None


@dataclass(frozen=True)
class PickFlow:
    """Pick requests arriving and resolved per day, and the queue of pending ones at each day's end."""

    arrived: DailySeries
    resolved: DailySeries
    pending: DailySeries


@dataclass(frozen=True)
class CIStrip:
    """The newest required-workflow runs of a release branch, oldest first, each "pass", "fail" or "pending";
    ``first_red`` is the first failed run after the last green commit (the run that turned the branch red)."""

    repository: str
    branch: str
    outcomes: tuple[str, ...] = ()
    runs: tuple[WorkflowRun, ...] = ()
    first_red: WorkflowRun | None = None


def _day(moment: datetime | None) -> date | None:
    return moment.date() if moment is not None else None


def _days(start: date, today: date) -> list[date]:
    return [start + timedelta(days=i) for i in range((today - start).days + 1)] if start <= today else []


def burn_down(milestone: Milestone, items: Iterable[MilestoneItem], today: date) -> BurnDown:
    """Items open at the end of each day, from the milestone's creation (or, when its items came later,
    from the day the first arrived: the days before say nothing) to ``today``.

    An item counts from its ``created_at`` (items without one count from the first day) until the day
    it closed. An item reopened since is open now, whatever its old ``closed_at`` says.
    """
    items = list(items)
    created = [d for i in items if (d := _day(i.created_at)) is not None]
    first = _day(milestone.created_at) or min(created, default=today)
    if created and min(created) > first:
        first = min(created)
    values = []
    for day in _days(first, today):
        values.append(
            sum(
                (_day(i.created_at) or first) <= day
                and (i.state.is_open or (closed := _day(i.closed_at)) is None or closed > day)
                for i in items
            )
        )
    return BurnDown(DailySeries(first, tuple(values)), _day(milestone.due_on))


def _release_pull(row: PickRow) -> PullRequest | None:
    wanted = {ref.number for ref in row.request.release_prs}
    return next((p for p in row.pulls if p.number in wanted), None)


def resolved_on(row: PickRow, today: date) -> date | None:
    """The day a request was settled: its release PR merged or closed (else the request's last edit,
    else ``today``); None while it is pending."""
    if row.status not in (PickStatus.ACCEPTED, PickStatus.REJECTED):
        return None
    pull = _release_pull(row)
    when = (pull.merged_at or pull.closed_at) if pull is not None else None
    return _day(when) or _day(row.request.updated_at) or today


def pick_flow(rows: Sequence[PickRow], today: date) -> PickFlow:
    """Requests arriving (by their comment's day) and resolved per day, and the queue pending at each
    day's end, from the first request's day to ``today``. Comments that are no request do not count."""
    requests = [r for r in rows if r.request.parsed and not r.request.not_a_request]
    arrived_on = [_day(r.request.created_at) or today for r in requests]
    settled_on = [resolved_on(r, today) for r in requests]
    first = min(arrived_on, default=today)
    days = _days(first, today)
    arrived = tuple(sum(a == day for a in arrived_on) for day in days)
    resolved = tuple(sum(s == day for s in settled_on) for day in days)
    pending, queue = [], 0
    for came, went in zip(arrived, resolved, strict=True):
        queue += came - went
        pending.append(queue)
    return PickFlow(DailySeries(first, arrived), DailySeries(first, resolved), DailySeries(first, tuple(pending)))


def outcome(run: WorkflowRun) -> str:
    """ "pass", "fail" or "pending" for one workflow run."""
    if run.status != "completed":
        return "pending"
    return "pass" if run.conclusion in PASSED else "fail"


def ci_strip(history: RunHistory, length: int = CI_HISTORY_LENGTH) -> CIStrip:
    """The newest ``length`` runs of the required workflows pushed to the branch, oldest first, and the
    first red after the last green: the oldest failed run of a commit pushed after the newest commit whose
    runs all passed (None when that commit is the newest, or no commit in the window passed whole)."""
    required = set(history.required)
    runs = [r for r in history.runs if not required or r.name in required][:length]
    runs.reverse()
    outcomes = tuple(outcome(r) for r in runs)
    commits = list(dict.fromkeys(r.head_sha for r in runs))  # oldest first, as pushed
    green = [
        sha for sha in commits if all(o == "pass" for r, o in zip(runs, outcomes, strict=True) if r.head_sha == sha)
    ]
    first_red = None
    if green:
        after = set(commits[commits.index(green[-1]) + 1 :])
        first_red = next((r for r, o in zip(runs, outcomes, strict=True) if o == "fail" and r.head_sha in after), None)
    return CIStrip(history.repository, history.branch, outcomes, tuple(runs), first_red)
