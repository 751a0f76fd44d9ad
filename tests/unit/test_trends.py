"""The pictures' series, on hand-made data: is the release converging?"""

from __future__ import annotations

from datetime import UTC, date, datetime

from cockpit.domain.ci import RunHistory, WorkflowRun
from cockpit.domain.github import ItemKind, ItemState, Milestone, MilestoneItem, PullRequest, PullState
from cockpit.domain.picks import PickRequest, PickRow, PickStatus, PRRef
from cockpit.services.trends import DailySeries, burn_down, ci_strip, pick_flow
from cockpit.services.trends_text import folded, outcome_line, pick_flow_lines, sparkline


def at(day: int, month: int = 9) -> datetime:
    return datetime(2026, month, day, 15, 30, tzinfo=UTC)


def item(number: int, created: int, closed: int | None = None, state: ItemState | None = None) -> MilestoneItem:
    shut = state or (ItemState.CLOSED if closed else ItemState.OPEN)
    return MilestoneItem(
        number,
        ItemKind.ISSUE,
        f"item {number}",
        shut,
        "",
        created_at=at(created),
        closed_at=at(closed) if closed else None,
    )


def test_the_burn_down_counts_items_open_at_each_days_end_until_today():
    milestone = Milestone(12, "2.5.0", "open", created_at=at(1), due_on=at(10))
    items = [item(1, 1, closed=3), item(2, 2), item(3, 2, closed=2), item(4, 4, closed=5)]
    picture = burn_down(milestone, items, date(2026, 9, 6))
    assert picture.open_items == DailySeries(date(2026, 9, 1), (1, 2, 1, 2, 1, 1))
    assert picture.target == date(2026, 9, 10)


def test_a_reopened_item_is_open_whatever_its_old_closed_at_says():
    milestone = Milestone(12, "2.5.0", "open", created_at=at(1))
    reopened = item(1, 1, closed=2, state=ItemState.OPEN)
    assert burn_down(milestone, [reopened], date(2026, 9, 3)).open_items.values == (1, 1, 1)


def test_the_burn_down_starts_when_the_first_item_came_if_the_milestone_is_older():
    milestone = Milestone(12, "2.5.0", "open", created_at=at(1, month=1))
    picture = burn_down(milestone, [item(1, 5)], date(2026, 9, 6))
    assert picture.open_items.start == date(2026, 9, 5)
    assert picture.open_items.values == (1, 1)


def request(comment_id: int, day: int, release_pr: int | None = None) -> PickRequest:
    return PickRequest(
        comment_id, "someone", "", release_prs=(PRRef(release_pr),) if release_pr else (), created_at=at(day)
    )


def release_pull(number: int, merged: int | None = None, closed: int | None = None) -> PullRequest:
    state = PullState.MERGED if merged else PullState.CLOSED_UNMERGED if closed else PullState.OPEN
    return PullRequest(
        number,
        "pick",
        state,
        "release/2.5",
        "pick",
        "",
        merged_at=at(merged) if merged else None,
        closed_at=at(closed or merged) if (closed or merged) else None,
    )


def test_the_pick_flow_counts_arrivals_resolutions_and_the_queue_per_day():
    rows = [
        PickRow(request(1, 1, 101), PickStatus.ACCEPTED, pulls=(release_pull(101, merged=3),)),
        PickRow(request(2, 1, 102), PickStatus.REJECTED, pulls=(release_pull(102, closed=2),)),
        PickRow(request(3, 2, 103), PickStatus.UNDER_REVIEW, pulls=(release_pull(103),)),
        PickRow(request(4, 3), PickStatus.NO_RELEASE_PR),
        PickRow(
            PickRequest(5, "bot", "thanks", parsed=False, not_a_request=True, created_at=at(2)), PickStatus.UNPARSED
        ),
    ]
    flow = pick_flow(rows, date(2026, 9, 4))
    assert flow.arrived == DailySeries(date(2026, 9, 1), (2, 1, 1, 0))
    assert flow.resolved.values == (0, 1, 1, 0)
    assert flow.pending.values == (2, 2, 2, 2)


def run(run_id: int, name: str, conclusion: str | None, status: str = "completed", sha: str = "") -> WorkflowRun:
    return WorkflowRun(
        run_id,
        name,
        sha or f"{run_id:040x}",
        "release/2.5",
        status,
        conclusion,
        event="push",
        created_at=at(run_id % 28 + 1),
    )


def test_the_first_red_is_on_a_commit_after_the_last_commit_whose_required_runs_all_passed():
    a, b, c = "a" * 40, "b" * 40, "c" * 40
    newest_first = [
        run(9, "pull", "failure", sha=c),
        run(8, "trunk", "success", sha=c),
        run(7, "pull", "failure", sha=b),
        run(6, "trunk", "success", sha=b),
        run(5, "pull", "success", sha=a),
        run(4, "trunk", "success", sha=a),
    ]
    strip = ci_strip(RunHistory("acme/torchlet", "release/2.5", tuple(newest_first), ("pull", "trunk")))
    assert outcome_line(strip) == "✓✓✓✗✓✗"
    assert strip.first_red is not None and strip.first_red.id == 7


def test_the_ci_history_keeps_the_newest_required_runs_oldest_first_and_finds_the_run_that_broke_it():
    newest_first = [
        run(9, "pull", None, status="in_progress"),
        run(8, "lint", "failure"),
        run(7, "docs", "failure"),
        run(6, "trunk", "failure"),
        run(5, "pull", "success"),
        run(4, "trunk", "failure"),
        run(3, "pull", "success"),
    ]
    strip = ci_strip(RunHistory("acme/torchlet", "release/2.5", tuple(newest_first), ("pull", "trunk", "lint")))
    assert strip.outcomes == ("pass", "fail", "pass", "fail", "fail", "pending")
    assert strip.first_red is not None and strip.first_red.id == 6
    assert outcome_line(strip) == "✓✗✓✗✗·"


def test_the_ci_history_shows_at_most_twenty_runs_and_no_red_when_the_newest_passed():
    runs = tuple(run(i, "pull", "failure" if i % 2 else "success") for i in range(40, 0, -1))
    strip = ci_strip(RunHistory("acme/vision", "release/0.20", runs, ("pull",)))
    assert [r.id for r in strip.runs] == list(range(21, 41))
    assert strip.first_red is None


def test_a_sparkline_folds_long_series_keeping_each_peak_and_scales_from_zero():
    assert folded([1, 5, 2, 2, 0, 3], 3) == (5, 2, 3)
    assert sparkline([0, 4, 8]) == "▁▅█"
    assert sparkline([0, 4, 8], top=16) == "▁▃▅"


def test_the_pick_flow_reads_as_three_lines_in_the_report():
    rows = [PickRow(request(1, 1, 101), PickStatus.ACCEPTED, pulls=(release_pull(101, merged=2),))]
    lines = pick_flow_lines(pick_flow(rows, date(2026, 9, 2)))
    assert lines[1:] == ["  - arrived  `█▁` 1 in all", "  - resolved `▁█` 1 in all", "  - pending  `█▁` 0 now"]


def test_the_ci_history_on_screen_tells_each_outcome_by_its_mark_not_by_colour_alone():
    """Issue 32: the overview's CI strip drew the same bar for a pass and a failure, told apart by colour only."""
    from cockpit.services.trends import CIStrip
    from cockpit.ui.trends import ci_line

    strip = CIStrip("acme/torchlet", "release/2.5", ("pass", "fail", "pending", "pass"))
    assert "✓✗·✓" in ci_line(strip).plain
    assert outcome_line(strip) == "✓✗·✓"  # the report's marks: the same ones
