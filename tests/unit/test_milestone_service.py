"""The milestone pane's story: is the milestone empty, and which items keep it from being so."""

from __future__ import annotations

from datetime import UTC, datetime

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import ItemKind, ItemState, Milestone, MilestoneItem
from cockpit.services.milestone import filter_items, summarize_milestone

MILESTONE = Milestone(number=40, title="2.5.0", state="open")


def item(
    number, title="Fix foo", *, kind=ItemKind.PULL, state=ItemState.MERGED, labels=(), updated=None, author="alice"
):
    return MilestoneItem(
        number=number,
        kind=kind,
        title=title,
        state=state,
        html_url=f"https://github.com/acme/torchlet/{'pull' if kind is ItemKind.PULL else 'issues'}/{number}",
        labels=labels,
        updated_at=updated,
        author=author,
    )


def test_a_milestone_with_everything_closed_is_green():
    report = summarize_milestone(
        MILESTONE,
        [item(1), item(2, state=ItemState.CLOSED_UNMERGED), item(3, kind=ItemKind.ISSUE, state=ItemState.CLOSED)],
    )
    assert report.gate.name == "milestone_empty"
    assert report.gate.title == "Milestone empty"
    assert report.gate.status is GateStatus.GREEN
    assert len(report.items) == 3
    assert report.gate.details == ()


def test_an_empty_milestone_is_green():
    report = summarize_milestone(MILESTONE, [])
    assert report.gate.status is GateStatus.GREEN
    assert report.items == () and report.skipped == ()


def test_open_items_turn_the_gate_red_and_are_listed():
    report = summarize_milestone(
        MILESTONE,
        [
            item(91234, "Fix foo", state=ItemState.OPEN),
            item(91000, "Crash in bar", kind=ItemKind.ISSUE, state=ItemState.OPEN),
            item(90000, "Done thing"),
        ],
    )
    gate = report.gate
    assert gate.status is GateStatus.RED
    assert "2" in gate.summary
    assert "1 issue" in gate.summary and "1 PR" in gate.summary
    assert gate.details == ("#91000 Crash in bar (issue, open)", "#91234 Fix foo (PR, open)")


def test_feature_requests_are_skipped_and_do_not_block():
    feature = item(5, "Add shiny thing", kind=ItemKind.ISSUE, state=ItemState.OPEN, labels=("release-feature-request",))
    report = summarize_milestone(MILESTONE, [feature, item(6)])
    assert report.skipped == (feature,)
    assert feature not in report.items
    assert report.gate.status is GateStatus.GREEN


def test_skip_labels_are_configurable_and_case_insensitive():
    wontfix = item(7, state=ItemState.OPEN, labels=("Wont-Fix",))
    report = summarize_milestone(MILESTONE, [wontfix], skip_labels=("wont-fix",))
    assert report.skipped == (wontfix,)
    assert report.gate.status is GateStatus.GREEN
    assert summarize_milestone(MILESTONE, [wontfix]).gate.status is GateStatus.RED


def test_markup_like_titles_are_kept_verbatim_in_details():
    report = summarize_milestone(MILESTONE, [item(8, "[bold]x[/bold] <b>y</b>", state=ItemState.OPEN)])
    assert report.gate.details == ("#8 [bold]x[/bold] <b>y</b> (PR, open)",)


ITEMS = (
    item(3, "charlie", state=ItemState.OPEN, labels=("bug",), updated=datetime(2026, 1, 3, tzinfo=UTC)),
    item(1, "Alpha", kind=ItemKind.ISSUE, state=ItemState.CLOSED, labels=("Bug", "docs")),
    item(2, "bravo", state=ItemState.MERGED, updated=datetime(2026, 1, 1, tzinfo=UTC)),
    item(4, "delta", kind=ItemKind.ISSUE, state=ItemState.OPEN),
)


def test_filter_open_only():
    assert [i.number for i in filter_items(ITEMS, open_only=True)] == [3, 4]


def test_filter_by_kind_accepts_enum_or_word():
    assert [i.number for i in filter_items(ITEMS, kind=ItemKind.ISSUE)] == [1, 4]
    assert [i.number for i in filter_items(ITEMS, kind="pull")] == [3, 2]


def test_filter_by_label_is_case_insensitive_and_combines():
    assert [i.number for i in filter_items(ITEMS, label="BUG")] == [3, 1]
    assert [i.number for i in filter_items(ITEMS, label="bug", open_only=True)] == [3]
