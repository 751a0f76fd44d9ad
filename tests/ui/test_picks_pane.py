"""The cherry-pick pane as the release manager reads it: status and flags first, long text cut,
hints and ages beside them, the whole comment and its PRs on enter."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import NOW, FakeAction, FakeBackend
from fake_world import picks_report
from pane_alone import PaneAlone, settle
from textual.widgets import Input

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.ui.confirm import ConfirmScreen, TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.pick_form import BotCommandForm
from cockpit.ui.panes.picks import PicksPane
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.widgets import colour_of

pytestmark = pytest.mark.anyio


URL = "https://github.com/acme/torchlet"
SPECIAL = "Special Dispensation - needed by the new export API announced for this release"


def _pr(number, state, base, body):
    return PullRequest(
        number, f"PR {number}", state, base, "h", f"{URL}/pull/{number}", body=body, created_at=NOW - timedelta(days=8)
    )


def tracker_rows() -> tuple[PickRow, ...]:
    base = picks_report(NOW).rows
    special = PickRequest(
        7,
        "gina",
        "Link to landed trunk PR:\n* #91600\n\nLink to release branch PR:\n* #91610\n\n"
        f"Criteria Category:\n* {SPECIAL}\n\nDO NOT MERGE\n",
        (PRRef(91600),),
        (PRRef(91610),),
        SPECIAL,
        hints=("do not merge",),
        created_at=NOW - timedelta(days=12),
        html_url=f"{URL}/issues/900#c7",
    )
    pulls = (
        _pr(91610, PullState.OPEN, "main", "Release-branch **body** of 91610"),
        _pr(91600, PullState.MERGED, "main", "Trunk body: fixes the [red]export[/red] path"),
    )
    stale = PickRow(
        special,
        PickStatus.UNDER_REVIEW,
        (PickFlag.WRONG_BASE, PickFlag.MISSING_ISSUE_LINK, PickFlag.STALE),
        12.0,
        8.0,
        ("release PR #91610 targets main, not release/2.5",),
        pulls,
    )
    chatter = PickRequest(
        8,
        "hank",
        "Is RC1 still on track?\n[bold]no markup[/bold] <b>here</b>\n",
        parsed=False,
        created_at=NOW - timedelta(days=1),
    )
    unparsed = PickRow(
        chatter, PickStatus.UNPARSED, (PickFlag.UNPARSED,), 1.0, notes=("no request template (chatter?)",)
    )
    return (*base, stale, unparsed)


class TrackerBackend(FakeBackend):
    def load_picks(self):
        report = picks_report(NOW)
        return self._load("picks", lambda: replace(report, rows=tracker_rows()))


def make_app(**kwargs) -> PaneAlone:
    app = PaneAlone(TrackerBackend(**kwargs), PicksPane)
    reply = FakeAction("picks.reply", "Reply on the tracker", "mutating", "picks")
    app.backend.actions._actions[reply.id] = reply
    return app


def table(app) -> RowsTable:
    return app.query_one("#pane-picks .pane-table", RowsTable)


def cell(app, comment_id: int, column: str):
    return table(app).get_cell(str(comment_id), column)


def right_edge(app, column: str) -> int:
    """Where a column ends, in cells from the table's left edge."""
    t, edge = table(app), 0
    for key, col in t.columns.items():
        edge += col.get_render_width(t.cell_padding)
        if key.value == column:
            return edge
    raise KeyError(column)


async def test_status_and_flags_stay_visible_at_80_columns_and_a_long_category_is_cut():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert right_edge(app, "flags") <= 80
        assert str(cell(app, 7, "flags")) == "wrong base, missing issue link, stale"
        category = str(cell(app, 7, "category"))
        assert category.endswith("…") and len(category) <= 28 and SPECIAL.startswith(category[:-1])
        assert str(cell(app, 5, "status")) == "no release PR" and str(cell(app, 5, "flags")) == ""


async def test_hints_and_ages_are_shown_and_a_stale_pick_is_highlighted():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        assert str(cell(app, 7, "hints")) == "do not merge"
        asked, pr_open = cell(app, 7, "asked"), cell(app, 7, "pr_open")
        assert (str(asked), str(pr_open)) == ("12d", "8d")
        warning = colour_of(app.pane("picks"), GateStatus.AMBER)
        assert warning in str(asked.spans[0].style) and warning in str(pr_open.spans[0].style)
        fresh = cell(app, 2, "asked")
        assert str(fresh) == "2d" and not fresh.spans
        assert "1 waiting over 7 days" in str(app.query_one("#pane-picks .pane-filter").render())


async def test_enter_shows_the_comment_and_the_bodies_of_its_prs_as_markdown():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table(app).move_cursor(row=table(app).get_row_index("7"))
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, DetailScreen)
        assert screen.markdown.startswith("Link to landed trunk PR:")
        assert (
            "### Release PR #91610: PR 91610" in screen.markdown
            and "Release-branch **body** of 91610" in screen.markdown
        )
        assert "### Trunk PR #91600" in screen.markdown and "[red]export[/red]" in screen.markdown
        assert "Hint in the comment: do not merge" in screen.lines
        assert "Note: release PR #91610 targets main, not release/2.5" in screen.lines


async def test_an_unparsed_comment_shows_its_text_as_written_on_enter():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table(app).move_cursor(row=table(app).get_row_index("8"))
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, DetailScreen) and screen.markdown is None
        assert "Is RC1 still on track?" in screen.lines
        assert "[bold]no markup[/bold] <b>here</b>" in screen.lines


async def test_reply_is_written_in_a_box_addressed_to_the_author_and_confirmed():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "m")
        assert isinstance(app.screen, TextInputScreen)
        box = app.screen.query_one(Input)
        assert box.value == "@bob "
        await pilot.press(*"please")  # typed, as a user does: the mention is kept, not replaced
        box.value += " add the issue link"
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        assert app.backend.actions.runs == [("picks.reply", "@bob please add the issue link")]


async def test_the_bot_form_preselects_the_class_and_refuses_rows_the_bot_cannot_pick():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("c")
        assert isinstance(app.screen, BotCommandForm)
        assert app.screen.query_one("#bot-category").value == "regression"
        await pilot.press("escape")
        read_only = make_app(read_only=True)
    async with read_only.run_test(size=(160, 48)) as pilot:
        await settle(read_only, pilot)
        await pilot.press("c", "m")
        assert not isinstance(read_only.screen, (BotCommandForm, TextInputScreen))
        said = "\n".join(n.message for n in read_only.notices.said)
        assert "read-only session: Post the cherry-pick bot command" in said
        assert "read-only session: Reply on the tracker" in said


class PhaseTwoBackend(FakeBackend):
    """bob's request (row 2, under review) came in phase 2: the tracker says something against its merge."""

    def load_picks(self):
        report = picks_report(NOW)
        rows = tuple(
            replace(r, flags=(*r.flags, PickFlag.PHASE_2)) if r.request.comment_id == 2 else r for r in report.rows
        )
        return self._load("picks", lambda: replace(report, rows=rows))


async def test_a_merge_of_a_request_the_tracker_speaks_against_asks_twice_and_a_second_no_sends_nothing():
    app = PaneAlone(PhaseTwoBackend(), PicksPane)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table(app).move_cursor(row=table(app).get_row_index("2"))
        await pilot.press("M")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen), "asked a second time"
        second = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "@bob's request is still under review" in second and "phase 2" in second
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.backend.actions.runs == []
        assert any(n.message.endswith("cancelled") for n in app.notices.said)
        await pilot.press("M")  # yes, and yes again: merged
        await settle(app, pilot)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("y")
        await settle(app, pilot)
        assert [action for action, _row in app.backend.actions.runs] == ["picks.merge"]


async def test_a_merge_the_tracker_says_nothing_against_is_asked_once():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        table(app).move_cursor(row=table(app).get_row_index("2"))
        await pilot.press("M")
        await settle(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert [action for action, _row in app.backend.actions.runs] == ["picks.merge"]
