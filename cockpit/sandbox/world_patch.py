"""The patch-release world: the sandbox release as 2.5.1, mid-flight in its build-and-promote phase.

``make_patch_world(world)`` turns a world built for a patch version into a patch release in
motion: a schedule whose cherry-pick deadline has passed by the world's clock (``PATCH_NOW``), the
"high priority" label on exactly the issues ``QUALIFYING_ISSUES`` name (so requests linking other
issues, or none, lack a qualifying link), and issues labelled for triage review, some in the patch
milestone already, one closed. It records in ``world.truth["patch"]``: ``now``, ``phase``,
``days_left``, ``after_deadline`` and ``no_qualifying_link`` (tracker comment ids of parsed
requests), ``triage`` (the issue numbers the triage pane must list), and ``phase_gates`` (each
phase's checklist gate, worked out here from ``SCHEDULE`` and ``PATCH_NOW``: green once a phase's
last day passed, amber while it runs, unknown before; cherry-picking, over by then, red because
requests are still pending).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from cockpit.sandbox.model import SbIssue, World

PATCH_VERSION = "2.5.1"
PATCH_NOW = datetime(2026, 10, 2, 12, 0, tzinfo=UTC)
DEADLINE = datetime(2026, 9, 25, 17, 0, tzinfo=UTC)
SCHEDULE = {
    "triage": {"start": "2026-09-01", "end": "2026-09-14"},
    "go_no_go": {"start": "2026-09-15", "end": "2026-09-15"},
    "cherry_pick": {"start": "2026-09-16", "end": "2026-09-25"},
    "build_promote": {"start": "2026-09-28", "end": "2026-10-09"},
    "general_availability": {"start": "2026-10-13", "end": "2026-10-13"},
    "cherry_pick_deadline": DEADLINE.strftime("%Y-%m-%dT%H:%M:%SZ"),
    "qualifying_labels": ["high priority", "ci failure"],
    "triage_label": "triage review",
}
QUALIFYING_ISSUES = (91058, 91064)
HIGH_PRIORITY = "high priority"
TRIAGE = "triage review"
# (title, extra labels, in the patch milestone, open)
_CANDIDATES: tuple[tuple[str, list[str], bool, bool], ...] = (
    ("torchlet.load crashes on checkpoints saved by 2.5.0", ["module: regression"], False, True),
    ("torchlet.compile: first call 4x slower than in 2.4", ["oncall: pt2"], False, True),
    ("Docs: wrong default of bias in torchlet.nn.Linear", ["module: docs"], False, True),
    ("CUDA graphs break with the new caching allocator", ["module: cuda"], True, True),
    ("Import warning on Python 3.13 (fixed on main)", [], False, False),
)


def make_patch_world(world: World) -> World:
    """Plant the patch release's schedule, labels and triage candidates into ``world`` (built as 2.5.1)."""
    core = world.repos[world.repository]
    for issue in core.issues:
        issue.labels = [label for label in issue.labels if label != HIGH_PRIORITY]
        if issue.number in QUALIFYING_ISSUES:
            issue.labels.append(HIGH_PRIORITY)
    number = max([i.number for i in core.issues] + [p.number for p in core.pulls]) + 1
    triage = []
    for offset, (title, labels, in_milestone, is_open) in enumerate(_CANDIDATES):
        when = _iso(datetime(2026, 9, 3, 9, tzinfo=UTC) + timedelta(days=2 * offset))
        core.issues.append(
            SbIssue(
                number + offset,
                title,
                "user-reporter",
                "open" if is_open else "closed",
                f"Seen after upgrading to 2.5.0.\n\nLabelled `{TRIAGE}` for the {PATCH_VERSION} patch release.",
                [TRIAGE, *labels],
                [],
                world.milestone_number if in_milestone else None,
                when,
                when,
                None if is_open else when,
                None if is_open else "completed",
            )
        )
        if in_milestone:
            world.truth["verdicts"][str(number + offset)] = "open_issue"
            world.truth["evidence"][str(number + offset)] = []
        elif is_open:
            triage.append(number + offset)
    world.schedule = dict(SCHEDULE)
    world.clock = _iso(PATCH_NOW)
    world.truth["patch"] = _truth(world, triage)
    return world


def _truth(world: World, triage: list[int]) -> dict:
    core = world.repos[world.repository]
    posted = {c.id: c.created_at for c in core.comments}
    requests = [cid for cid, pick in world.truth["picks"].items() if pick["parsed"]]
    late = [cid for cid in requests if posted[int(cid)] > _iso(DEADLINE)]
    qualifying = {f"https://github.com/{world.repository}/issues/{n}" for n in QUALIFYING_ISSUES}
    qualifying |= {f"#{n}" for n in QUALIFYING_ISSUES}
    unlinked = [cid for cid in requests if not qualifying & set(world.truth["picks"][cid]["fixes"])]
    end = date.fromisoformat(SCHEDULE["build_promote"]["end"])  # type: ignore[index]
    return {
        "now": _iso(PATCH_NOW),
        "phase": "build_promote",
        "days_left": (end - PATCH_NOW.date()).days + 1,
        "after_deadline": sorted(late),
        "no_qualifying_link": sorted(unlinked),
        "triage": triage,
        "deadline": _iso(DEADLINE),
        "phase_gates": _phase_gates(world, requests),
    }


def _phase_gates(world: World, requests: list[str]) -> dict[str, str]:
    """Each phase's gate status by the planted dates and clock (written out here, not by the service)."""
    today = PATCH_NOW.date()
    found = {}
    for phase, dates in SCHEDULE.items():
        if not isinstance(dates, dict):
            continue
        start, end = date.fromisoformat(dates["start"]), date.fromisoformat(dates["end"])
        found[f"phase_{phase}"] = "unknown" if today < start else "amber" if today <= end else "green"
    if PATCH_NOW > DEADLINE:  # the cherry-picking is over: red while a planted request is still pending
        pending = ("under_review", "no_release_pr", "free_form", "unparsed")
        still_open = any(world.truth["picks"][cid]["status"] in pending for cid in requests)
        found["phase_cherry_pick"] = "red" if still_open else "green"
    return found


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")
