"""The cherry-pick pane's story: each request against the real state of its pull requests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PickStatus, PRRef
from cockpit.services.pick_rows import analyze_picks
from cockpit.services.picks import (
    blocking_flags,
    needed_pull_numbers,
    picks_gate,
    picks_report,
    pr_numbers_in_subjects,
)

REPO = "acme/torchlet"
BRANCH = "release/2.5"
NOW = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)
ISSUE = "https://github.com/acme/torchlet/issues/500"


def pr(number, state=PullState.MERGED, base="main", *, days_old=1.0, repository=REPO, title=None):
    return PullRequest(
        number=number,
        title=title or f"Fix thing {number}",
        state=state,
        base_ref=base,
        head_ref=f"branch-{number}",
        html_url=f"https://github.com/{repository}/pull/{number}",
        created_at=NOW - timedelta(days=days_old),
        repository=repository,
    )


def request(comment_id, trunk=(), release=(), *, category="Regression", fixes=(ISSUE,), days_old=1.0, **kw):
    return PickRequest(
        comment_id=comment_id,
        author="dev",
        body="...",
        trunk_prs=tuple(PRRef(n) if isinstance(n, int) else n for n in trunk),
        release_prs=tuple(PRRef(n) if isinstance(n, int) else n for n in release),
        category=category,
        fixes=fixes,
        created_at=NOW - timedelta(days=days_old),
        **kw,
    )


def analyze(requests, pulls, **kw):
    kw.setdefault("release_branch", BRANCH)
    kw.setdefault("repository", REPO)
    kw.setdefault("now", NOW)
    return analyze_picks(requests, pulls={p.number: p for p in pulls}, **kw)


def only_row(requests, pulls, **kw):
    rows, _ = analyze(requests, pulls, **kw)
    return rows[0]


def test_status_comes_from_the_release_pr_state():
    pulls = [
        pr(1),
        pr(11, PullState.OPEN, BRANCH),
        pr(2),
        pr(12, PullState.MERGED, BRANCH),
        pr(3),
        pr(13, PullState.CLOSED_UNMERGED, BRANCH),
    ]
    rows, _ = analyze([request(1, [1], [11]), request(2, [2], [12]), request(3, [3], [13])], pulls)
    assert [r.status for r in rows] == [PickStatus.UNDER_REVIEW, PickStatus.ACCEPTED, PickStatus.REJECTED]
    assert all(r.flags == () for r in rows)


def test_a_request_without_release_pr_is_flagged():
    row = only_row([request(1, [1], [])], [pr(1)])
    assert row.status is PickStatus.NO_RELEASE_PR
    assert PickFlag.NO_RELEASE_PR in row.flags


def test_an_unreadable_request_blocks_but_chatter_does_not():
    unreadable = PickRequest(1, "dev", "please cherry-pick https://github.com/acme/torchlet/pull/7", parsed=False)
    half_template = PickRequest(2, "dev", "Criteria Category:\n* Regression\n\n(links to follow)", parsed=False)
    chatter = PickRequest(3, "dev", "When is rc2? The cherry-pick window closes soon.", parsed=False)
    rows, _ = analyze([unreadable, half_template, chatter], [])
    assert all(r.status is PickStatus.UNPARSED and r.flags == (PickFlag.UNPARSED,) for r in rows)
    assert [bool(blocking_flags(r)) for r in rows] == [True, True, False]
    assert picks_gate(rows[2:], ()).status is GateStatus.GREEN
    gate = picks_gate(rows, ())
    assert gate.status is GateStatus.RED and gate.summary == "2 flagged requests"


def test_a_pick_whose_trunk_pr_is_not_merged_is_flagged():
    row = only_row([request(1, [1], [11])], [pr(1, PullState.OPEN), pr(11, PullState.OPEN, BRANCH)])
    assert PickFlag.TRUNK_NOT_MERGED in row.flags
    assert any("#1 is open" in n for n in row.notes)


def test_a_release_pr_aimed_at_the_wrong_branch_is_flagged():
    row = only_row([request(1, [1], [11])], [pr(1), pr(11, PullState.OPEN, "main")])
    assert PickFlag.WRONG_BASE in row.flags
    assert any("targets main" in n for n in row.notes)


def test_a_closed_release_pr_on_the_wrong_branch_is_not_flagged():
    row = only_row(
        [request(1, [1], [11, 12])], [pr(1), pr(11, PullState.CLOSED_UNMERGED, "main"), pr(12, PullState.OPEN, BRANCH)]
    )
    assert PickFlag.WRONG_BASE not in row.flags
    assert row.status is PickStatus.UNDER_REVIEW


def test_a_pick_whose_trunk_pr_was_reverted_is_flagged():
    row = only_row([request(1, [1], [11])], [pr(1), pr(11, PullState.MERGED, BRANCH)], reverted_trunk_prs={1})
    assert row.status is PickStatus.ACCEPTED
    assert PickFlag.TRUNK_REVERTED in row.flags
    assert picks_gate([row], ()).status is GateStatus.RED


def test_a_regression_pick_without_an_issue_link_is_flagged():
    for category in ("Regression", "Critical fix", "fix new feature", "Fixnewfeature"):
        row = only_row([request(1, [1], [11], category=category, fixes=())], [pr(1), pr(11, PullState.OPEN, BRANCH)])
        assert PickFlag.MISSING_ISSUE_LINK in row.flags, category
    docs = only_row([request(1, [1], [11], category="Docs", fixes=())], [pr(1), pr(11, PullState.OPEN, BRANCH)])
    assert PickFlag.MISSING_ISSUE_LINK not in docs.flags


def test_a_second_request_for_the_same_trunk_pr_is_a_duplicate():
    pulls = [pr(1), pr(11, PullState.OPEN, BRANCH), pr(12, PullState.OPEN, BRANCH)]
    rows, _ = analyze([request(1, [1], [11]), request(2, [1], [12])], pulls)
    assert PickFlag.DUPLICATE not in rows[0].flags
    assert PickFlag.DUPLICATE in rows[1].flags
    assert any("comment 1" in n for n in rows[1].notes)


def test_a_retry_after_a_rejected_pick_is_not_a_duplicate():
    pulls = [pr(1), pr(11, PullState.CLOSED_UNMERGED, BRANCH), pr(12, PullState.OPEN, BRANCH)]
    rows, _ = analyze([request(1, [1], [11]), request(2, [1], [12])], pulls)
    assert PickFlag.DUPLICATE not in rows[1].flags


def test_a_pick_under_review_for_too_long_is_stale():
    pulls = [pr(1), pr(11, PullState.OPEN, BRANCH), pr(2), pr(12, PullState.OPEN, BRANCH)]
    rows, _ = analyze([request(1, [1], [11], days_old=9), request(2, [2], [12], days_old=2)], pulls, stale_days=7)
    assert PickFlag.STALE in rows[0].flags
    assert PickFlag.STALE not in rows[1].flags
    assert rows[0].age_days == 9


def test_an_accepted_pick_is_never_stale():
    row = only_row([request(1, [1], [11], days_old=30)], [pr(1), pr(11, PullState.MERGED, BRANCH)])
    assert PickFlag.STALE not in row.flags


def test_release_only_picks_skip_trunk_checks():
    row = only_row(
        [request(1, [], [11], trunk_na=True, category="Release only", fixes=())], [pr(11, PullState.MERGED, BRANCH)]
    )
    assert row.status is PickStatus.ACCEPTED and row.flags == ()


def test_release_pr_age_is_measured_from_its_creation():
    row = only_row([request(1, [1], [11])], [pr(1), pr(11, PullState.OPEN, BRANCH, days_old=3)])
    assert row.release_pr_age_days == 3


def test_an_unloaded_release_pr_stays_pending_and_says_so():
    row = only_row([request(1, [1], [11])], [pr(1)])
    assert row.status is PickStatus.UNDER_REVIEW
    assert any("#11 not loaded" in n for n in row.notes)


def test_prs_of_other_repositories_are_looked_up_by_their_ref():
    vision = PRRef(88, "acme/vision")
    vision_pick = PRRef(89, "acme/vision")
    pulls = {
        vision: pr(88, repository="acme/vision"),
        vision_pick: pr(89, PullState.MERGED, "release/0.20", repository="acme/vision"),
    }
    rows, _ = analyze_picks(
        [request(1, [vision], [vision_pick])], pulls=pulls, release_branch=BRANCH, repository=REPO, now=NOW
    )
    assert rows[0].status is PickStatus.ACCEPTED
    assert PickFlag.WRONG_BASE not in rows[0].flags  # vision has its own release branch


def test_release_prs_merged_without_a_request_are_unrequested():
    pulls = [pr(1), pr(11, PullState.MERGED, BRANCH), pr(20, PullState.MERGED, BRANCH, title="Sneaky change")]
    rows, unrequested = analyze([request(1, [1], [11])], pulls, branch_pr_numbers={1, 11, 20, 21})
    assert [p.number for p in unrequested] == [20, 21]
    assert unrequested[0].title == "Sneaky change"
    assert unrequested[1].title == "(not loaded)"
    gate = picks_gate(rows, unrequested)
    assert gate.status is GateStatus.RED
    assert "2 unrequested merges" in gate.summary
    assert any("#20 Sneaky change" in d for d in gate.details)


def test_hints_that_disagree_with_the_real_state_become_notes():
    row = only_row([request(1, [1], [11], hints=("merged",))], [pr(1), pr(11, PullState.OPEN, BRANCH)])
    assert row.status is PickStatus.UNDER_REVIEW
    assert any("says merged" in n for n in row.notes)


def test_gate_is_green_when_everything_is_settled():
    pulls = [pr(1), pr(11, PullState.MERGED, BRANCH), pr(2), pr(12, PullState.CLOSED_UNMERGED, BRANCH)]
    report = picks_report(
        tracker_issue=9000,
        tracker_title="[v2.5.0] Release Tracker",
        requests=[request(1, [1], [11]), request(2, [2], [12], fixes=())],
        pulls={p.number: p for p in pulls},
        release_branch=BRANCH,
        repository=REPO,
        branch_pr_numbers={1, 11},
        now=NOW,
    )
    assert report.gate.name == "picks_clear"
    assert report.gate.status is GateStatus.GREEN
    assert "1 accepted, 1 rejected" in report.gate.summary
    assert report.tracker_issue == 9000 and len(report.rows) == 2 and report.unrequested == ()


def test_gate_is_amber_while_picks_are_only_under_review():
    rows, _ = analyze(
        [request(1, [1], [11]), request(2, [2], [12])],
        [pr(1), pr(2), pr(11, PullState.OPEN, BRANCH), pr(12, PullState.OPEN, BRANCH)],
    )
    gate = picks_gate(rows, ())
    assert gate.status is GateStatus.AMBER
    assert gate.summary == "2 picks under review"
    assert gate.details == ("#11: under review", "#12: under review")


def test_gate_is_red_with_counts_when_something_is_flagged():
    rows, _ = analyze([request(1, [1], []), request(2, [2], [12])], [pr(1), pr(2), pr(12, PullState.OPEN, BRANCH)])
    gate = picks_gate(rows, ())
    assert gate.status is GateStatus.RED
    assert gate.summary == "1 flagged request, 1 under review"
    assert "trunk #1: no release pr" in gate.details


def test_the_loader_fetches_exactly_the_prs_of_this_repository_it_needs():
    requests = [request(1, [1, PRRef(5, "acme/vision")], [11]), request(2, [PRRef(2, REPO)], [])]
    assert needed_pull_numbers(requests, REPO) == {1, 2, 11}


def test_branch_pr_numbers_come_from_subject_suffixes():
    subjects = ["Fix crash (#100) (#210)", "Bump version to 2.5.1 (#211)", "Merge branch", "Ref #5 in text"]
    assert pr_numbers_in_subjects(subjects) == {100, 210, 211}


def test_naive_now_is_taken_as_utc():
    row = only_row(
        [request(1, [1], [11], days_old=2)], [pr(1), pr(11, PullState.OPEN, BRANCH)], now=NOW.replace(tzinfo=None)
    )
    assert round(row.age_days, 3) == 2


FAILED_503 = (
    "GitHub: read pull request #11 of acme/torchlet: GitHub failed (503) after 2 retries; try again in a minute."
)


def test_a_release_pr_that_failed_to_load_makes_its_request_and_the_gate_unknown_never_clean():
    # #11 aims at main (wrong base), but its read failed: the flag cannot be known, so nothing says clean
    rows, unrequested = analyze(
        [request(1, [1], [11]), request(2, [2], [12])],
        [pr(1), pr(2), pr(12, PullState.MERGED, BRANCH)],
        unreadable_pulls={11: FAILED_503},
    )
    assert PickFlag.COULD_NOT_READ in rows[0].flags
    assert f"release PR #11 could not be read: {FAILED_503}" in rows[0].notes
    gate = picks_gate(rows, unrequested)
    assert gate.status is GateStatus.UNKNOWN
    assert gate.summary == f"could not read 1 request: release PR #11 could not be read: {FAILED_503}"
    assert f"#11: release PR #11 could not be read: {FAILED_503}" in gate.details


def test_a_trunk_pr_that_failed_to_load_keeps_an_accepted_pick_unknown():
    rows, unrequested = analyze(
        [request(1, [1], [11])],
        [pr(11, PullState.MERGED, BRANCH)],
        unreadable_pulls={1: "GitHub: read pull request #1 of acme/torchlet: not found (404)"},
    )
    assert rows[0].status is PickStatus.ACCEPTED and PickFlag.COULD_NOT_READ in rows[0].flags
    assert picks_gate(rows, unrequested).status is GateStatus.UNKNOWN


def test_a_rejected_pick_needs_nothing_more_even_when_its_trunk_pr_failed_to_load():
    rows, unrequested = analyze(
        [request(1, [1], [11])], [pr(11, PullState.CLOSED_UNMERGED, BRANCH)], unreadable_pulls={1: "GitHub: rate limit"}
    )
    assert picks_gate(rows, unrequested).status is GateStatus.GREEN


def test_an_unreadable_pr_is_named_beside_the_red_flags_without_hiding_them():
    rows, unrequested = analyze(
        [request(1, [1], []), request(2, [2], [12])], [pr(1), pr(2)], unreadable_pulls={12: "GitHub: rate limit"}
    )
    gate = picks_gate(rows, unrequested)
    assert gate.status is GateStatus.RED
    assert gate.summary == "1 flagged request, could not read 1 request"
    assert "#12: release PR #12 could not be read: GitHub: rate limit" in gate.details


def test_history_that_could_not_be_read_keeps_the_gate_from_green_and_says_why():
    why = "which trunk PRs were reverted on main is not known: Git: no branch 'release/2.5' in the clone"
    report = picks_report(
        [request(1, [1], [11])],
        tracker_issue=9000,
        tracker_title="Tracker",
        pulls={1: pr(1), 11: pr(11, PullState.MERGED, BRANCH)},
        release_branch=BRANCH,
        repository=REPO,
        unread=[why],
        now=NOW,
    )
    assert report.gate.status is GateStatus.UNKNOWN and report.unread == (why,)
    assert report.gate.summary == f"could not read the branch history: {why}"
