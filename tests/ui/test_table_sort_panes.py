"""Sorting a table gives the order a release manager expects, in every pane: numbers as numbers
(#9 before #10), ages as durations (3 hours before 2 days before 10 days), states by what needs
attention first (open before merged; red before amber before green), text without regard to case,
empty cells last whichever the direction. Ties keep the pane's own order, and a filter then a sort
shows the same rows as the sort then the filter."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import NOW, FakeBackend
from fake_world import ci_report, milestone_report, picks_report
from pane_alone import PaneAlone, settle

from cockpit.domain.checklist import StepKind
from cockpit.domain.ci import JobVerdict, RepoCIVerdict
from cockpit.domain.commits import BranchDiffReport, CommitRecord, ItemDiff, RevertOwed, Verdict
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.domain.reports import BranchReport
from cockpit.ui.panes.branch_diff import BranchDiffPane
from cockpit.ui.panes.checklist import ChecklistPane
from cockpit.ui.panes.ci import CIPane
from cockpit.ui.panes.milestone import MilestonePane
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.panes.table_pane import FilterInput
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio
SIZE = (160, 48)
URL = "https://github.com/acme/torchlet"
HOURS_3, DAYS_2, DAYS_10 = timedelta(hours=3), timedelta(days=2), timedelta(days=10)


def order(app) -> list[str]:
    """The row keys from top to bottom."""
    return [str(row.key.value) for row in app.query_one(".pane-table", RowsTable).ordered_rows]


async def sort_by(app, pilot, column_id: str, *, reverse: bool = False) -> list[str]:
    """Press ``s`` until the table is sorted by ``column_id`` (``S`` once more to reverse); the row keys."""
    pane = app.pane()
    for _ in range(len(pane.columns()) + 1):
        column = pane.sorted_by()
        if column is not None and column.id == column_id:
            break
        await pilot.press("s")
    else:
        raise AssertionError(f"s never sorted by {column_id}")
    if reverse:
        await pilot.press("S")
    return order(app)


async def filtered(pilot, regex: str) -> None:
    """``/``, the regex, enter. The regex is put in the filter's box at once: typing it key by key is
    tests/ui/test_app.py's burst tests' subject, and here it cost a pilot round trip a letter."""
    await pilot.press("slash")
    box = pilot.app.query_one(FilterInput)
    assert pilot.app.focused is box
    box.value = regex
    await pilot.press("enter")


def _item(number, kind, state, title, labels=(), who=(), age=None, linked=()):
    path = "pull" if kind is ItemKind.PULL else "issues"
    return MilestoneItem(
        number,
        kind,
        title,
        state,
        f"{URL}/{path}/{number}",
        labels,
        who,
        updated_at=NOW - age if age is not None else None,
        linked_prs=linked,
    )


class SmallNumbersMilestone(FakeBackend):
    """Items numbered across a power of ten, updated hours, days and weeks ago (one never)."""

    def load_milestone(self):
        pr, issue = ItemKind.PULL, ItemKind.ISSUE
        items = (
            _item(100, pr, ItemState.MERGED, "zlib bump", ("release notes",), ("Zed",), DAYS_10),
            _item(9, issue, ItemState.OPEN, "Build breaks on ARM", ("regression",), ("alice",), DAYS_2),
            _item(10, pr, ItemState.CLOSED_UNMERGED, "revert the ARM change", (), (), HOURS_3, linked=(9,)),
            _item(11, issue, ItemState.CLOSED, "docs typo", ("Module: docs",), ("bob",), None),
            _item(95, pr, ItemState.OPEN, "Fix ARM build", ("regression", "module: arm"), ("Carol",), DAYS_2),
        )
        report = milestone_report(NOW)
        return self._load("milestone", lambda: replace(report, items=items, skipped=()))


async def test_the_milestone_sorts_each_column_as_a_release_manager_reads_it():
    app = PaneAlone(SmallNumbersMilestone(), MilestonePane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert order(app) == ["100", "9", "10", "11", "95"], "the report's order until a sort is chosen"
        assert await sort_by(app, pilot, "number") == ["9", "10", "11", "95", "100"]
        assert await sort_by(app, pilot, "number", reverse=True) == ["100", "95", "11", "10", "9"]
        assert await sort_by(app, pilot, "kind") == ["9", "11", "100", "10", "95"]
        assert await sort_by(app, pilot, "state") == ["9", "95", "10", "100", "11"], (
            "open, then closed unmerged, then merged and closed"
        )
        assert await sort_by(app, pilot, "title") == ["9", "11", "95", "10", "100"]
        assert await sort_by(app, pilot, "labels") == ["11", "9", "95", "100", "10"], "no labels last"
        assert await sort_by(app, pilot, "assignees") == ["9", "11", "95", "100", "10"], "Carol before Zed, by name"
        assert await sort_by(app, pilot, "linked") == ["10", "9", "100", "11", "95"], "#9 before #10; none last"
        assert await sort_by(app, pilot, "updated") == ["10", "9", "95", "100", "11"], (
            "3 hours, 2 days (twice, in the report's order), 10 days; never updated last"
        )
        assert await sort_by(app, pilot, "updated", reverse=True) == ["100", "9", "95", "10", "11"], (
            "reversed: ties keep their order and the never-updated item stays last"
        )


async def test_the_milestone_filtered_then_sorted_shows_what_sorted_then_filtered_shows():
    first, second = PaneAlone(SmallNumbersMilestone(), MilestonePane), PaneAlone(SmallNumbersMilestone(), MilestonePane)
    async with first.run_test(size=SIZE) as pilot:
        await settle(first, pilot)
        await filtered(pilot, "arm")
        filter_then_sort = await sort_by(first, pilot, "number")
    async with second.run_test(size=SIZE) as pilot:
        await settle(second, pilot)
        await sort_by(second, pilot, "number")
        await filtered(pilot, "arm")
        sort_then_filter = order(second)
    assert filter_then_sort == sort_then_filter == ["9", "10", "95"]


def _pick(cid, author, status, *, release=(), trunk=(), flags=(), age=None, pr_age=None, category="", hints=()):
    request = PickRequest(
        cid,
        author,
        "request",
        tuple(PRRef(n) for n in trunk),
        tuple(PRRef(n) for n in release),
        category,
        hints=hints,
        html_url=f"{URL}/issues/900#issuecomment-{cid}",
    )
    return PickRow(request, status, flags, age_days=age, release_pr_age_days=pr_age)


class SmallNumbersTracker(FakeBackend):
    def load_picks(self):
        rows = (
            _pick(
                1,
                "alice",
                PickStatus.ACCEPTED,
                release=(10,),
                trunk=(100,),
                age=10.0,
                pr_age=2.0,
                category="Regression",
            ),
            _pick(
                2,
                "bob",
                PickStatus.UNDER_REVIEW,
                release=(9,),
                trunk=(95,),
                flags=(PickFlag.WRONG_BASE,),
                age=2.0,
                pr_age=0.125,
                category="critical fix",
                hints=("merged",),
            ),
            _pick(
                3,
                "Carol",
                PickStatus.NO_RELEASE_PR,
                trunk=(9,),
                flags=(PickFlag.NO_RELEASE_PR,),
                age=0.125,
                category="Docs",
            ),
            _pick(
                4,
                "dan",
                PickStatus.REJECTED,
                release=(11,),
                trunk=(10,),
                flags=(PickFlag.DUPLICATE,),
                category="Regression",
                hints=("do not merge",),
            ),
            _pick(5, "erin", PickStatus.FREE_FORM, trunk=(11,), age=2.0),
        )
        return self._load("picks", lambda: replace(picks_report(NOW), rows=rows))


async def test_the_cherry_picks_sort_each_column_as_a_release_manager_reads_it():
    app = PaneAlone(SmallNumbersTracker(), PicksPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert await sort_by(app, pilot, "release") == ["2", "1", "4", "3", "5"], "#9, #10, #11; none last"
        assert await sort_by(app, pilot, "status") == ["3", "2", "5", "1", "4"], (
            "red (no release PR), amber (under review, free-form), green (accepted), then rejected"
        )
        assert await sort_by(app, pilot, "flags") == ["4", "2", "1", "3", "5"], "flags said by the status count as none"
        assert await sort_by(app, pilot, "trunk") == ["3", "4", "5", "2", "1"]
        assert await sort_by(app, pilot, "hints") == ["4", "2", "1", "3", "5"]
        assert await sort_by(app, pilot, "asked") == ["3", "2", "5", "1", "4"], "3 hours, 2 days, 2 days, 10 days"
        assert await sort_by(app, pilot, "asked", reverse=True) == ["1", "2", "5", "3", "4"]
        assert await sort_by(app, pilot, "pr_open") == ["2", "1", "3", "4", "5"]
        assert await sort_by(app, pilot, "category") == ["2", "3", "1", "4", "5"], "case does not count"
        assert await sort_by(app, pilot, "author") == ["1", "2", "3", "4", "5"], "Carol between bob and dan"


class ManyRefsCI(FakeBackend):
    def load_ci(self):
        report = ci_report()
        branches = (
            *report.branches,
            RepoCIVerdict(
                "acme/text",
                "release/0.9",
                GateStatus.GREEN,
                "all required workflows green",
                head_sha="f" * 40,
                last_green_sha="0" * 40,
                commits_behind_green=10,
            ),
            RepoCIVerdict(
                "Acme/data",
                "release/0.10",
                GateStatus.RED,
                "trunk: 1 job failed",
                failed=(JobVerdict("linux / test", "trunk", "completed", "failure"),),
                head_sha="9" * 40,
                last_green_sha="8" * 40,
                commits_behind_green=9,
            ),
        )
        return self._load("ci", lambda: replace(report, branches=branches))


async def test_ci_sorts_each_column_as_a_release_manager_reads_it():
    app = PaneAlone(ManyRefsCI(), CIPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # rows: 0 torchlet red (3 behind), 1 vision green (head), 2 audio amber (no green), 3 text green (10 behind),
        # 4 Acme/data red (9 behind), 5 torchlet RC tag green
        assert await sort_by(app, pilot, "repository") == ["2", "4", "3", "0", "5", "1"], "Acme/data among acme/*"
        assert await sort_by(app, pilot, "ref") == ["3", "4", "1", "0", "2", "5"], (
            "release/0.9 before release/0.10 before release/0.20 before release/2.5"
        )
        assert await sort_by(app, pilot, "verdict") == ["0", "4", "2", "1", "3", "5"], "red, amber, green"
        assert await sort_by(app, pilot, "counts") == ["1", "3", "5", "2", "4", "0"], (
            "failed, pending, unstable: the fewest failed first"
        )
        assert await sort_by(app, pilot, "last_green") == ["1", "0", "4", "3", "2", "5"], (
            "head, 3, 9, 10 behind; none known and the RC tag last"
        )


class SmallNumbersBranch(FakeBackend):
    def load_branch_diff(self):
        items = (
            ItemDiff(10, "Pin triton", Verdict.LANDED),
            ItemDiff(100, "fix NaN in layer_norm", Verdict.MISSING, (), ("4" * 40,)),
            ItemDiff(9, "Guard cuDNN workspace", Verdict.LANDED_MODIFIED),
            ItemDiff(11, "autograd squash", Verdict.NEEDS_REVIEW),
        )
        reverts = (RevertOwed("6" * 40, 'Revert "Speed up gather (#95)"', "7" * 40, 95),)
        diff = BranchDiffReport(
            items,
            reverts,
            (CommitRecord("9" * 40, "[release/2.5] Fix flaky test (#96)"),),
            None,
            "f" * 40,
            "release/2.5",
            "main",
        )
        gate = Gate("branch_diff_clean", "Branch diff clean", GateStatus.RED, "1 missing, 1 revert owed")
        return self._load("branch_diff", lambda: BranchReport(diff, gate))


async def test_the_branch_diff_sorts_each_column_as_a_release_manager_reads_it():
    app = PaneAlone(SmallNumbersBranch(), BranchDiffPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        pane = app.pane()
        refs = {str(i): row.ref for i, row in enumerate(pane.rows)}
        sections = {str(i): row.section for i, row in enumerate(pane.rows)}
        own_order = order(app)
        assert [sections[k] for k in await sort_by(app, pilot, "verdict")] == [
            "missing",
            "revert owed",
            "landed modified",
            "needs review",
            "only on branch",
            "landed",
        ]
        assert order(app) == own_order, "most urgent first is already the pane's own order"
        assert [sections[k] for k in await sort_by(app, pilot, "verdict", reverse=True)] == [
            "landed",
            "only on branch",
            "needs review",
            "landed modified",
            "revert owed",
            "missing",
        ]
        assert [refs[k] for k in await sort_by(app, pilot, "ref")] == [
            "#9",
            "#10",
            "#11",
            "#100",
            "66666666",
            "99999999",
        ], "PRs by number, then the commits named by SHA"
        titles = [pane.rows[int(k)].title for k in await sort_by(app, pilot, "title")]
        assert titles == sorted(titles, key=str.casefold)


async def test_the_checklist_sorts_steps_by_colour_and_keeps_section_titles_last():
    app = PaneAlone(FakeBackend(), ChecklistPane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.backend.state.set_signoff("validation_issue", done=True, who="rm")
        app.pane().reload_with({"milestone_empty": Gate("milestone_empty", "Milestone", GateStatus.RED, "2 open")})
        await settle(app, pilot)
        keys = await sort_by(app, pilot, "mark")
        steps = [k for k in keys if not k.startswith("section:")]
        assert steps[:3] == ["milestone_empty", "promote_pypi", "validation_issue"], "✘ red, ⚠ amber, ✔ green, then ○"
        assert all(k.startswith("section:") for k in keys[len(steps) :]), "section titles sort after every step"
        kinds = [k for k in await sort_by(app, pilot, "kind") if not k.startswith("section:")]
        automatic = {v.step.id for v in app.pane().report[0].steps if v.step.kind is StepKind.AUTOMATIC}
        assert set(kinds[: len(automatic)]) == automatic


async def test_sorting_600_rows_fills_the_table_once_in_order():
    class BigMilestone(FakeBackend):
        def load_milestone(self):
            items = tuple(
                _item(
                    n,
                    ItemKind.PULL,
                    ItemState.OPEN if n % 3 else ItemState.MERGED,
                    f"Fix {n}",
                    ("regression",),
                    ("alice",),
                    timedelta(hours=n),
                )
                for n in range(600, 0, -1)
            )
            return self._load("milestone", lambda: replace(milestone_report(NOW), items=items, skipped=()))

    app = PaneAlone(BigMilestone(), MilestonePane)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        table = app.query_one(".pane-table", RowsTable)
        calls: list[str] = []

        def counting(name: str):
            original = getattr(table, name)

            def counted(*args, **kwargs):
                calls.append(name)
                return original(*args, **kwargs)

            return counted

        for name in ("add_row", "replace_rows"):
            setattr(table, name, counting(name))
        await filtered(pilot, "Fix [1-5]")
        await sort_by(app, pilot, "number")
        shown = order(app)
        assert len(shown) == 555 and shown[:3] == ["1", "2", "3"] and shown[-1] == "599"
        calls.clear()
        app.pane().action_reverse_sort()  # everything the key does before the screen is painted
        assert order(app)[0] == "599"
        assert calls == ["replace_rows"], "the table is filled once, in order, not row by row"
        # How fast that is belongs to tests/benchmarks/bench_panes.py, not to a test.


@pytest.mark.parametrize(
    ("backend", "pane_cls", "regex"),
    [
        (SmallNumbersMilestone, MilestonePane, "arm"),
        (SmallNumbersTracker, PicksPane, "!rejected"),
        (ManyRefsCI, CIPane, "release/[02]"),
        (SmallNumbersBranch, BranchDiffPane, "#1|6666"),
        (FakeBackend, ChecklistPane, "issue|tag"),
    ],
    ids=["milestone", "picks", "ci", "branch", "checklist"],
)
async def test_in_every_pane_filter_then_sort_shows_what_sort_then_filter_shows(backend, pane_cls, regex):
    filter_first, sort_first = PaneAlone(backend(), pane_cls), PaneAlone(backend(), pane_cls)
    orders: dict[str, list[str]] = {}
    async with filter_first.run_test(size=SIZE) as pilot:
        await settle(filter_first, pilot)
        everything = order(filter_first)
        await filtered(pilot, regex)
        assert 0 < len(order(filter_first)) < len(everything), "the filter keeps some rows, not all"
        column_ids = [c.id for c in filter_first.pane().columns()]
        for column_id in column_ids:
            orders[column_id] = await sort_by(filter_first, pilot, column_id)
    async with sort_first.run_test(size=SIZE) as pilot:
        await settle(sort_first, pilot)
        for column_id in column_ids:
            await sort_by(sort_first, pilot, column_id)
            await filtered(pilot, regex)
            assert order(sort_first) == orders[column_id], f"sorted by {column_id}"
            await pilot.press("slash", "escape")  # the filter cleared; the sort stays
