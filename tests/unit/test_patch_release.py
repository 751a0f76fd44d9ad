"""A patch release's story: its schedule as data, and the requests it refuses or questions."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from cockpit.config import parse_config
from cockpit.domain.gates import GateStatus
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PRRef
from cockpit.domain.schedule import PatchPhase, PatchSchedule, PhaseDates
from cockpit.errors import ConfigError
from cockpit.services.patch_picks import PatchRules, issues_to_check, linked_issues, links_ci_failure
from cockpit.services.picks import picks_report
from cockpit.services.schedule import is_patch_release, phase_on, phase_status

REPO = "acme/torchlet"
BRANCH = "release/2.5"
DEADLINE = datetime(2026, 9, 25, 17, 0, tzinfo=UTC)
PATH = Path("/releases/2.5.1/cockpit.toml")
SCHEDULE = {
    "triage": {"start": "2026-09-01", "end": "2026-09-14"},
    "go_no_go": {"start": "2026-09-15", "end": "2026-09-15"},
    "cherry_pick": {"start": "2026-09-16", "end": "2026-09-25"},
    "build_promote": {"start": "2026-09-28", "end": "2026-10-09"},
    "general_availability": {"start": "2026-10-14", "end": "2026-10-14"},
    "cherry_pick_deadline": "2026-09-25T17:00:00Z",
}


def config(schedule=None, version="2.5.1"):
    data = {"release": {"version": version, "repository": REPO}, "git": {"clone": "."}}
    if schedule is not None:
        data["schedule"] = schedule
    return parse_config(PATH, data)


def schedule():
    cfg = config(SCHEDULE)
    assert cfg.schedule is not None
    return cfg.schedule


def test_a_version_with_a_non_zero_patch_number_is_a_patch_release():
    assert is_patch_release("2.5.1") and is_patch_release("2.5.2")
    assert not is_patch_release("2.5.0") and not is_patch_release("2.5")


def test_the_schedule_is_read_from_the_config_with_its_defaults():
    s = schedule()
    assert [p.phase for p in s.phases] == list(PatchPhase)
    assert s.phases[2] == PhaseDates(PatchPhase.CHERRY_PICK, date(2026, 9, 16), date(2026, 9, 25))
    assert s.cherry_pick_deadline == DEADLINE
    assert s.qualifying_labels == ("high priority", "ci failure") and s.triage_label == "triage review"
    assert config().schedule is None


def test_a_deadline_given_as_a_day_means_5_pm_pacific_that_day():
    """PyTorch's cherry-pick deadline is the end of the working day, 5 PM Pacific (the profile's
    patch.cherry_pick_deadline_*): 00:00 UTC the next day in September (PDT)."""
    s = config({"cherry_pick_deadline": "2026-09-25"}).schedule
    assert s is not None and s.cherry_pick_deadline == datetime(2026, 9, 26, 0, 0, tzinfo=UTC)
    winter = config({"cherry_pick_deadline": "2026-12-04"}).schedule
    assert winter is not None and winter.cherry_pick_deadline == datetime(2026, 12, 5, 1, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "schedule, key, expected",
    [
        ({"triage": {"start": "soon", "end": "2026-09-14"}}, "schedule.triage.start", "an ISO date"),
        ({"triage": {"start": "2026-09-14", "end": "2026-09-01"}}, "schedule.triage.end", "on or after start"),
        ({"triage": {"start": "2026-09-01"}}, "schedule.triage.end", "an ISO date"),
        ({"triage": {"begin": "2026-09-01"}}, "schedule.triage.begin", "only 'start' and 'end'"),
        ({"triage": "2026-09-01"}, "schedule.triage", "a table"),
        ({"cherry_picking": {}}, "schedule.cherry_picking", "one of"),
        ({"cherry_pick_deadline": "Friday"}, "schedule.cherry_pick_deadline", "an ISO date or date-time"),
        ({"qualifying_labels": []}, "schedule.qualifying_labels", "a non-empty list"),
        ({"qualifying_labels": "high priority"}, "schedule.qualifying_labels", "a list of strings"),
        ({"triage_label": 3}, "schedule.triage_label", "a string"),
    ],
)
def test_a_wrong_schedule_is_refused_naming_the_file_the_key_and_what_was_expected(schedule, key, expected):
    with pytest.raises(ConfigError) as err:
        config(schedule)
    assert str(PATH) in str(err.value) and f"'{key}'" in str(err.value) and expected in str(err.value)


def at(day: str, hour: int = 12) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=UTC)


def test_today_s_phase_and_the_days_left_in_it_come_from_the_dates():
    s = schedule()
    today = phase_on(s, at("2026-09-23"))
    assert (today.phase, today.days_left, today.where) == (PatchPhase.CHERRY_PICK, 3, "in")
    assert today.summary.startswith("Cherry-picking: 3 days left") and "deadline in 2 days" in today.summary
    late = phase_on(s, at("2026-09-30"))
    assert late.phase is PatchPhase.BUILD_PROMOTE and late.days_left == 10
    assert "deadline passed 4 days ago" in late.summary
    gap = phase_on(s, at("2026-09-27"))
    assert (gap.phase, gap.where, gap.next_phase, gap.days_left) == (None, "between", PatchPhase.BUILD_PROMOTE, 1)
    assert phase_on(s, at("2026-08-20")).where == "before" and phase_on(s, at("2026-11-01")).where == "after"


def test_phase_steps_turn_green_when_their_phase_is_over_and_amber_while_it_runs():
    s = schedule()
    today = date(2026, 9, 20)
    assert phase_status(s, PatchPhase.TRIAGE, today) is GateStatus.GREEN
    assert phase_status(s, PatchPhase.CHERRY_PICK, today) is GateStatus.AMBER
    assert phase_status(s, PatchPhase.BUILD_PROMOTE, today) is GateStatus.UNKNOWN
    assert phase_status(PatchSchedule(()), PatchPhase.TRIAGE, today) is GateStatus.UNKNOWN


def req(comment_id, *, posted, fixes=(), body="", release=(), trunk=()):
    return PickRequest(
        comment_id,
        "dev",
        body,
        trunk_prs=tuple(PRRef(n) for n in trunk),
        release_prs=tuple(PRRef(n) for n in release),
        category="Regression",
        fixes=fixes,
        created_at=posted,
    )


def pull(number, state=PullState.OPEN, base=BRANCH):
    return PullRequest(
        number,
        f"pick {number}",
        state,
        base,
        f"b{number}",
        f"https://github.com/{REPO}/pull/{number}",
        created_at=DEADLINE - timedelta(days=3),
    )


def report(requests, qualifying=frozenset({500})):
    pulls = {p.number: p for p in (pull(11), pull(12), pull(13), pull(14), pull(1, PullState.MERGED, "main"))}
    rules = PatchRules(DEADLINE, qualifying, ("high priority",))
    return picks_report(
        requests,
        tracker_issue=1,
        tracker_title="[v2.5.1] Release Tracker",
        pulls=pulls,
        release_branch=BRANCH,
        repository=REPO,
        now=DEADLINE + timedelta(days=1),
        patch_rules=rules,
    )


def flags_of(rep):
    return {r.request.comment_id: set(r.flags) for r in rep.rows}


def test_a_request_posted_after_the_deadline_is_flagged_and_one_before_it_is_not():
    issue = f"https://github.com/{REPO}/issues/500"
    rep = report(
        [
            req(1, posted=DEADLINE - timedelta(hours=1), fixes=(issue,), release=(11,), trunk=(1,)),
            req(2, posted=DEADLINE + timedelta(minutes=5), fixes=(issue,), release=(12,), trunk=(1,)),
        ]
    )
    flags = flags_of(rep)
    assert PickFlag.AFTER_DEADLINE not in flags[1] and PickFlag.AFTER_DEADLINE in flags[2]
    assert rep.gate.status is GateStatus.RED and "after deadline" in rep.gate.details[0]


def test_a_request_must_link_a_high_priority_issue_or_a_ci_failure():
    hp, plain = f"https://github.com/{REPO}/issues/500", f"https://github.com/{REPO}/issues/501"
    ci_run = "https://github.com/acme/torchlet/actions/runs/7001/job/9001"
    before = DEADLINE - timedelta(days=1)
    rep = report(
        [
            req(1, posted=before, fixes=(hp,), release=(11,), trunk=(1,)),
            req(2, posted=before, fixes=(plain,), release=(12,), trunk=(1,)),
            req(3, posted=before, body=f"Fails on rc1: {ci_run}", release=(13,), trunk=(1,)),
            req(4, posted=before, release=(14,), trunk=(1,)),
        ]
    )
    flags = flags_of(rep)
    assert [PickFlag.NO_QUALIFYING_LINK in flags[n] for n in (1, 2, 3, 4)] == [False, True, False, True]
    notes = {r.request.comment_id: r.notes for r in rep.rows}
    assert any("#501" in n and "'high priority'" in n for n in notes[2])


def test_when_the_labels_could_not_be_read_only_requests_linking_nothing_are_flagged():
    before = DEADLINE - timedelta(days=1)
    rep = report(
        [
            req(1, posted=before, fixes=("#501",), release=(11,), trunk=(1,)),
            req(2, posted=before, release=(12,), trunk=(1,)),
        ],
        qualifying=None,
    )
    flags = flags_of(rep)
    assert PickFlag.NO_QUALIFYING_LINK not in flags[1] and PickFlag.NO_QUALIFYING_LINK in flags[2]


def test_linked_issues_are_read_from_the_fixes_and_the_text_of_this_repository_only():
    r = req(
        1,
        posted=DEADLINE,
        fixes=("#7", "https://github.com/acme/vision/issues/8"),
        body=f"see https://github.com/{REPO}/issues/9 and https://github.com/{REPO}/pull/10",
    )
    assert linked_issues(r, REPO) == {7, 9}
    ci = req(2, posted=DEADLINE, fixes=("#3",), body="https://hud.pytorch.org/pytorch/pytorch/commit/abc")
    assert links_ci_failure(ci) and not links_ci_failure(r)
    assert issues_to_check([r, ci], REPO) == {7, 9}
