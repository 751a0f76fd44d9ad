"""A minor release's two phases (issue 28): after the tracker's cut-off (M4) only release-blocking
critical fixes are taken, and each request posted later that is none is flagged with why.

The tracker bodies are written here in the shape pytorch/test-infra's release-create-tracker-issue
runbook gives them ("Phase 1 (until 22/6/26)", the M4 line with its "week of"), in our own words."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PRRef
from cockpit.services import release_tracker
from cockpit.services.merge_readiness import request_refusal
from cockpit.services.phase_picks import PhaseCutoff, apply_phase_rules, cutoff_in_tracker, is_critical, parse_day
from cockpit.services.picks import blocking_flags, picks_report

REPO = "acme/torchlet"
BRANCH = "release/2.13"
RUNBOOK_SHAPED = """We cut a release branch for the 2.13.0 release.

* Phase 1 (until 22/6/26): finish the release branch
* Phase 2 (after 22/6/26): long integration and performance testing of release candidates.

## Release dates

* M3: Release branch cut (week of 8/6/26)
* M4: Release branch finalized, launch date announced, feature classifications published (week of 22/6/26) - Final RC
* M6: Release Day (8/7/26)
"""


def test_the_runbook_shaped_tracker_names_its_cut_off_day_month_year():
    cutoff = cutoff_in_tracker(RUNBOOK_SHAPED, 180506)
    assert cutoff.day == date(2026, 6, 22) and not cutoff.problem
    assert "#180506" in cutoff.source and "22/6/26" in cutoff.source


def test_the_tracker_the_cockpit_writes_reads_back_to_its_own_cut_off():
    dates = release_tracker.key_dates(
        {"m3": "week of 8/6/26", "m4": "week of 22/6/26", "m4_1": "30/6/26", "m5": "1/7/26", "m6": "8/7/26"}
    )
    body = release_tracker.render(
        version="2.13.0", repository=REPO, branch=BRANCH, dates=dates, managers="@rm", ci_url="https://hud"
    )
    assert cutoff_in_tracker(body, 7).day == date(2026, 6, 22)


def test_without_a_phase_line_the_m4_date_is_the_cut_off():
    body = RUNBOOK_SHAPED.replace("Phase 1 (until 22/6/26)", "Phase one").replace("Phase 2 (after 22/6/26)", "Then")
    assert cutoff_in_tracker(body, 1).day == date(2026, 6, 22)


def test_a_tracker_without_phases_is_not_judged_and_says_nothing():
    assert cutoff_in_tracker("Post your requests below.", 1) == PhaseCutoff(None)


def test_an_unreadable_cut_off_is_named_with_what_was_expected():
    cutoff = cutoff_in_tracker("* Phase 1 (until 31/31/26): work", 9)
    assert cutoff.day is None
    assert "#9" in cutoff.problem and "'31/31/26'" in cutoff.problem and "day/month/year" in cutoff.problem


@pytest.mark.parametrize(
    ("written", "day", "remark"),
    [
        ("22/6/26", date(2026, 6, 22), ""),
        ("1/7/2026", date(2026, 7, 1), ""),
        ("2026-06-22", date(2026, 6, 22), ""),
        ("6/22/26", date(2026, 6, 22), "read as month/day/year"),
        ("22.6.26", date(2026, 6, 22), ""),
    ],
)
def test_days_are_read_as_the_announcements_write_them(written, day, remark):
    assert parse_day(written) == (day, remark)


@pytest.mark.parametrize(
    "category", ["critical", "Critical fix: silent correctness", "release-blocking crash", "deadlock"]
)
def test_critical_categories(category):
    assert is_critical(category)


@pytest.mark.parametrize("category", ["docs", "regression", "Special Dispensation", "", "fixnewfeature"])
def test_categories_phase_2_does_not_take(category):
    assert not is_critical(category)


def request(comment_id, category, posted, release_pr):
    return PickRequest(
        comment_id,
        "dev",
        f"Link to release branch PR:\n* #{release_pr}\nCriteria Category:\n* {category}",
        trunk_prs=(PRRef(release_pr - 100),),
        release_prs=(PRRef(release_pr),),
        category=category,
        created_at=posted,
    )


def report(cutoff, *requests, merged=()):
    pulls = {}
    for r in requests:
        number = r.release_prs[0].number
        state = PullState.MERGED if number in merged else PullState.OPEN
        pulls[number] = PullRequest(number, "fix", state, BRANCH, "", f"u/{number}")
        pulls[number - 100] = PullRequest(number - 100, "fix", PullState.MERGED, "main", "", f"u/{number - 100}")
    return picks_report(
        requests,
        tracker_issue=1,
        tracker_title="[v.2.13.0] Release Tracker",
        pulls=pulls,
        release_branch=BRANCH,
        repository=REPO,
        now=datetime(2026, 6, 30, tzinfo=UTC),
        stale_days=365,
        phase_cutoff=cutoff,
    )


def test_after_the_cut_off_only_critical_fixes_pass():
    cutoff = PhaseCutoff(date(2026, 6, 22), "tracker #1")
    on_the_day = request(1, "docs", datetime(2026, 6, 22, 23, 59, tzinfo=UTC), 501)
    late_docs = request(2, "docs", datetime(2026, 6, 23, 0, 1, tzinfo=UTC), 502)
    late_critical = request(3, "critical (silent correctness)", datetime(2026, 6, 25, tzinfo=UTC), 503)
    rows = {r.request.comment_id: r for r in report(cutoff, on_the_day, late_docs, late_critical).rows}
    assert [PickFlag.PHASE_2 in rows[n].flags for n in (1, 2, 3)] == [False, True, False]
    note = next(n for n in rows[2].notes if "phase 2" in n)
    assert "2026-06-23" in note and "2026-06-22" in note and "'docs'" in note and "critical" in note
    assert PickFlag.PHASE_2 in blocking_flags(rows[2])
    refusal = request_refusal(rows[2], REPO) or ""
    assert "phase 2" not in refusal, "merging it is the release manager's decision to take it"
    assert report(cutoff, late_docs).gate.status is GateStatus.RED


def test_a_late_request_the_release_team_already_merged_was_decided_by_them():
    cutoff = PhaseCutoff(date(2026, 6, 22))
    late = request(2, "docs", datetime(2026, 6, 24, tzinfo=UTC), 502)
    (row,) = report(cutoff, late, merged=(502,)).rows
    assert row.status.value == "accepted" and PickFlag.PHASE_2 not in row.flags


def test_no_cut_off_changes_nothing():
    late = request(2, "docs", datetime(2026, 6, 24, tzinfo=UTC), 502)
    (with_none,) = report(PhaseCutoff(None), late).rows
    (without,) = report(None, late).rows
    assert with_none == without and PickFlag.PHASE_2 not in with_none.flags


def test_hostile_category_text_stays_inert_in_the_note():
    late = request(2, "docs\x1b]52;c;ZXZpbA==\x07", datetime(2026, 6, 24, tzinfo=UTC), 502)
    (row,) = apply_phase_rules(report(None, late).rows, PhaseCutoff(date(2026, 6, 22)))
    assert all("\x1b" not in n and "\x07" not in n for n in row.notes)
