"""Milestone and cherry-pick panes on the real adapters over the sandbox: each action key sends
exactly the requests it shows, a read-only session sends none, and loads cost what they should."""

from __future__ import annotations

import re
import tomllib
from collections import Counter

import pytest
from textual.widgets import Input

from cockpit.bootstrap import build_backend
from cockpit.domain.commits import Verdict
from cockpit.ui.confirm import ConfirmScreen, TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.pick_form import BotCommandForm
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, settle

pytestmark = pytest.mark.anyio


def requests(sandbox) -> list[tuple[str, str]]:
    return [(e["method"], e["path"]) for e in sandbox.github.log()]


def notes(app) -> str:
    return "\n".join(app.notices.messages())


def select(app, pane: str, key: int) -> None:
    table = app.query_one(f"#pane-{pane} .pane-table", RowsTable)
    table.move_cursor(row=table.get_row_index(str(key)))


def comments_on(sandbox, number: int) -> list[str]:
    repo = sandbox.github.repos[sandbox.world.repository.lower()]
    return [c.body for c in repo.comments_on(number)]


def visible(body: str) -> str:
    """A comment as GitHub shows it: without the hidden key the cockpit puts in what it posts."""
    return re.sub(r"\s*<!-- cockpit-key: [0-9a-f]+ -->$", "", body)


@pytest.fixture
def opened(monkeypatch):
    urls: list[str] = []
    monkeypatch.setattr("cockpit.actions.catalog.webbrowser.open", lambda url: urls.append(url) or True)
    return urls


async def test_milestone_keys_open_remove_and_validate_once_with_exactly_their_requests(sandbox, opened):
    repo, config = sandbox.world.repository, sandbox.config
    async with running(build_backend(config)) as (app, pilot):
        # the milestone, branch-diff and picks panes load at once and share one read of the list
        assert sum(1 for _m, p in requests(sandbox) if p.startswith(f"/repos/{repo}/issues?milestone=")) == 1
        await pilot.press("1")
        report = app.pane("milestone").report
        verdicts = {d.number: d.verdict for d in app.pane("branch").report.diff.items}
        closed = [i for i in report.items if i.kind == "issue" and i.state == "closed"]
        closed_issue = next(i for i in closed if verdicts[i.number] in (Verdict.LANDED, Verdict.LANDED_BEFORE_CUT))
        missing_fix = next(i for i in closed if verdicts[i.number] is Verdict.MISSING)
        open_pr = next(i for i in report.items if i.kind == "pull" and i.state == "open")

        # the comment says "this fix is in the release branch": not while the branch diff says otherwise
        sandbox.github.request_log.clear()
        select(app, "milestone", missing_fix.number)
        await pilot.press("v")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert f"#{missing_fix.number} is missing from release/2.5 according to the branch diff" in notes(app)
        assert requests(sandbox) == []

        sandbox.github.request_log.clear()
        select(app, "milestone", closed_issue.number)
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == [closed_issue.html_url] and requests(sandbox) == []

        await pilot.press("v")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        path = f"/repos/{repo}/issues/{closed_issue.number}/comments"
        assert requests(sandbox)[:2] == [("GET", path + "?per_page=100"), ("POST", path)]
        # then the checklist reads its evidence again (the validation comments are a step's): reads only
        assert {method for method, _path in requests(sandbox)[2:]} <= {"GET"}
        text = config.validation_comment.format(
            version=config.release.version, number=closed_issue.number, branch=config.release.branch
        )
        assert comments_on(sandbox, closed_issue.number).count(text) == 1
        assert "validated" in " ".join(
            str(c) for c in app.query_one("#pane-milestone .pane-table", RowsTable).get_row(str(closed_issue.number))
        )

        sandbox.github.request_log.clear()
        await pilot.press("v")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert "already has its validation comment" in notes(app)
        assert requests(sandbox) == [] and comments_on(sandbox, closed_issue.number).count(text) == 1

        select(app, "milestone", open_pr.number)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        assert requests(sandbox) == [
            ("PATCH", f"/repos/{repo}/issues/{open_pr.number}"),
            ("GET", f"/repos/{repo}/milestones/{config.release.milestone}"),
            ("GET", f"/repos/{repo}/issues?milestone={config.release.milestone}&per_page=100&state=all"),
        ]
        assert open_pr.number not in {i.number for i in app.pane("milestone").report.items}
        # and the branch diff, judged on the milestone, no longer lists it either: no r needed (issue 32)
        assert open_pr.number not in {d.number for d in app.pane("branch").report.diff.items}

    audit = tomllib.loads(config.resolved_state_path.read_text(encoding="utf-8"))["audit"]
    assert [(e["action"], e["outcome"]) for e in audit] == [  # each intent on disk before its request
        ("milestone.validate", "started"),
        ("milestone.validate", "ok"),
        ("milestone.remove", "started"),
        ("milestone.remove", "ok"),
    ]


async def test_pick_keys_reply_and_post_the_bot_command_with_exactly_their_requests(sandbox, opened):
    repo, config = sandbox.world.repository, sandbox.config
    tracker = config.release.tracker_issue
    async with running(build_backend(config)) as (app, pilot):
        await pilot.press("2")
        rows = app.pane("picks").report.rows
        critical = next(
            r
            for r in rows
            if r.status == "accepted" and r.request.category == "Critical fix" and r.request.fixes and not r.flags
        )
        trunk = critical.request.trunk_prs[0].number

        sandbox.github.request_log.clear()
        select(app, "picks", critical.request.comment_id)
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == [critical.request.html_url]

        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        release_pr = next(p for p in critical.pulls if p.base_ref == config.release.branch)
        assert critical.request.body.strip() in app.screen.markdown and release_pr.body.strip() in app.screen.markdown
        await pilot.press("escape")

        await pilot.press("m")
        assert isinstance(app.screen, TextInputScreen)
        field = app.screen.query_one(Input)
        assert field.value == f"@{critical.request.author} "
        field.value += "thanks, merged into the branch"
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        reply = f"@{critical.request.author} thanks, merged into the branch"
        # looked up first (a reply carrying the same key is not posted twice), then posted with its hidden key
        assert requests(sandbox) == [
            ("GET", f"/repos/{repo}/issues/{tracker}/comments?per_page=100"),
            ("POST", f"/repos/{repo}/issues/{tracker}/comments"),
        ]
        assert visible(comments_on(sandbox, tracker)[-1]) == reply

        sandbox.github.request_log.clear()
        await pilot.press("c")
        assert isinstance(app.screen, BotCommandForm)
        assert app.screen.query_one("#bot-category").value == "critical"
        await pilot.click("#bot-ok")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        assert requests(sandbox) == [
            ("GET", f"/repos/{repo}/issues/{trunk}/comments?per_page=100"),
            ("POST", f"/repos/{repo}/issues/{trunk}/comments"),
        ]
        command = (
            f"@pytorchbot cherry-pick --onto {config.release.branch} -c critical --fixes {critical.request.fixes[0]}"
        )
        assert comments_on(sandbox, trunk)[-1].splitlines()[0] == command, "the bot reads the line of its command"
        assert visible(comments_on(sandbox, trunk)[-1]) == command

    audit = tomllib.loads(config.resolved_state_path.read_text(encoding="utf-8"))["audit"]
    assert [(e["action"], e["target"], e["outcome"]) for e in audit if e["outcome"] != "started"] == [
        ("picks.reply", f"{repo}#{tracker}", "ok"),
        ("picks.bot_command", f"{repo}#{trunk}", "ok"),
    ]
    assert [e["outcome"] for e in audit] == ["started", "ok", "started", "ok"]


async def test_a_read_only_session_refuses_every_action_key_with_the_reason_and_sends_only_gets(sandbox, opened):
    async with running(build_backend(sandbox.config, read_only=True)) as (app, pilot):
        await pilot.press("1")
        closed = next(i for i in app.pane("milestone").report.items if i.state == "closed")
        select(app, "milestone", closed.number)
        await pilot.press("d", "v", "o")
        await pilot.press("2")
        pick = next(r for r in app.pane("picks").report.rows if r.status == "accepted" and r.request.trunk_prs)
        select(app, "picks", pick.request.comment_id)
        await pilot.press("m", "c", "o")
        await settle(app, pilot)
        assert app.screen is app.screen_stack[0], "no dialog opens in a read-only session"
        said = notes(app)
        for title in (
            "Remove from milestone",
            "Post validation comment",
            "Reply on the tracker",
            "Post cherry-pick command",
        ):
            # what it would do, or (where the writing cockpit refuses it too) why it does not apply
            assert f"read-only session: {title} would" in said or f"read-only session: {title} does not apply" in said
        assert len(opened) == 2  # opening the browser changes nothing and stays allowed
    assert {e["method"] for e in sandbox.github.log()} <= {"GET", "HEAD"}
    assert (
        not sandbox.config.resolved_state_path.exists() or "audit" not in sandbox.config.resolved_state_path.read_text()
    )


def test_a_cold_load_reads_each_list_once_and_only_the_trunk_prs_outside_the_milestone(sandbox):
    repo = sandbox.world.repository
    backend = build_backend(sandbox.config, read_only=True)
    try:
        milestone = backend.load_milestone()
        picks = backend.load_picks()
        log = requests(sandbox)
        sandbox.github.request_log.clear()
        in_milestone = {i.number for i in (*milestone.items, *milestone.skipped)}
        singles = {int(p.rsplit("/", 1)[1]) for m, p in log if p.startswith(f"/repos/{repo}/pulls/")}
        named = {
            ref.number
            for r in picks.rows
            for ref in (*r.request.trunk_prs, *r.request.release_prs)
            if not ref.repository
        }
        onto_branch = {p.number for p in backend.github.pulls(repo, base=sandbox.config.release.branch)}
        assert singles and singles == named - in_milestone - onto_branch
        lists = Counter(p.split("?")[0] for m, p in log if "per_page=100" in p)
        assert lists == {
            f"/repos/{repo}/issues": 1,
            f"/repos/{repo}/issues/{sandbox.config.release.tracker_issue}/comments": 1,
            f"/repos/{repo}/pulls": 1,
        }
        assert len(log) == 3 + 2 + len(singles)  # + the milestone and the tracker issue themselves

        sandbox.github.request_log.clear()
        backend.load_milestone()
        backend.load_picks()
        again = sandbox.github.log()
        assert again and {e["status"] for e in again} == {304}
    finally:
        backend.state.close()
