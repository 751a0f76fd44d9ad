"""CI health over the real adapters and the GitHub emulator: what a load costs, what a refresh
costs, and what a re-run sends, read from the emulator's own request log."""

from __future__ import annotations

from math import ceil

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.gates import GateStatus
from cockpit.loaders.ci import LAST_GREEN_WALK
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, settle

pytestmark = pytest.mark.anyio


@pytest.fixture()
def backend(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    yield backend
    backend.state.close()


def gets(sandbox) -> list[dict]:
    return [e for e in sandbox.github.log() if e["method"] == "GET" and not e["path"].startswith("/_sandbox")]


def cost_of_ref(repo, sha: str) -> int:
    """What reading one ref's check runs costs: its pages of 100, plus the workflow-runs join."""
    runs = sum(1 for c in repo.check_runs if c.head_sha == sha)
    return max(1, ceil(runs / 100)) + 1


def test_a_cold_load_costs_a_page_per_100_check_runs_plus_a_constant_per_repository(sandbox, sandbox_world, backend):
    world = sandbox_world
    report = backend.load_ci()
    bound = 0
    for verdict in report.branches:
        repo = world.repos[verdict.repository]
        history = repo.branch_history[verdict.ref]
        walked = LAST_GREEN_WALK if verdict.commits_behind_green is None else verdict.commits_behind_green
        bound += sum(cost_of_ref(repo, sha) for sha in history[: walked + 1])
        bound += 1 if walked else 0  # the commits request that finds the shas behind the head
    for rc in report.rc_builds:
        repo = world.repos[rc.repository]
        bound += cost_of_ref(repo, repo.tags[rc.ref])
    bound += len(report.history)  # one page of the newest runs on each release branch (the CI history)

    sent = gets(sandbox)
    assert len(sent) == report.requests <= bound
    assert report.requests == bound == 20  # 3 repositories, 5 refs read, 514 check runs in the world
    at_head = world.truth["ci_detail"]["acme/torchlet"]["check_runs_at_head"]
    head_pages = [e for e in sent if e["path"].startswith("/repos/acme/torchlet/commits/release%2F2.5/check-runs")]
    assert len(head_pages) == ceil(at_head / 100)
    assert not any("/commits?" in e["path"] and "vision" in e["path"] for e in sent)  # green head: no walk


def test_a_refresh_with_nothing_changed_is_answered_by_304s_only(sandbox, backend):
    first = backend.load_ci()
    sandbox.github.request_log.clear()
    again = backend.load_ci()
    statuses = [e["status"] for e in gets(sandbox)]
    assert statuses and set(statuses) == {304}
    assert again.requests == again.not_modified == len(statuses) == first.requests
    assert [v.status for v in again.branches] == [v.status for v in first.branches]


def ci_row(app, repository: str, ref: str) -> str:
    table = app.query_one("#pane-ci .pane-table", RowsTable)
    for i in range(table.row_count):
        cells = [str(c) for c in table.get_row_at(i)]
        if cells[0] == repository and cells[1] == ref:
            return "  ".join(cells)
    raise AssertionError(f"no row for {repository} @ {ref}")


def reruns(sandbox) -> list[str]:
    return [
        e["path"] for e in sandbox.github.log() if e["method"] == "POST" and e["path"].endswith("/rerun-failed-jobs")
    ]


async def go_to_torchlet(app, pilot) -> None:
    """On an app whose loads have settled: the CI pane shown, the cursor on torchlet's branch, which is red."""
    await pilot.press("3")
    table = app.query_one("#pane-ci .pane-table", RowsTable)
    table.move_cursor(row=0)
    assert ci_row(app, "acme/torchlet", "release/2.5").split("  ")[2] == "RED"


async def test_re_running_the_red_repository_posts_once_per_failed_run_and_the_pane_turns_amber(sandbox, sandbox_world):
    backend = build_backend(sandbox.config)
    async with running(backend) as (app, pilot):
        await go_to_torchlet(app, pilot)
        failed = app.pane("ci").report.branches[0].failed
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        runs = sorted({j.run_id for j in failed})
        assert reruns(sandbox) == [f"/repos/acme/torchlet/actions/runs/{r}/rerun-failed-jobs" for r in runs]
        assert len(runs) == 1
        row = ci_row(app, "acme/torchlet", "release/2.5")
        assert row.split("  ")[2] == "AMBER" and "1 job pending" in row
        assert backend.state.audit_log()[-1].action == "ci.rerun"


async def test_a_read_only_viewer_sends_no_re_run(sandbox):
    async with running(build_backend(sandbox.config, read_only=True)) as (app, pilot):
        await go_to_torchlet(app, pilot)
        await pilot.press("x")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert any("read-only session" in n for n in app.notices.messages())
        assert reruns(sandbox) == []
        assert {e["method"] for e in sandbox.github.log()} <= {"GET", "HEAD"}
        assert app.pane("ci").report.branches[0].status is GateStatus.RED


def test_a_ref_github_does_not_know_is_its_rows_trouble_not_the_panes(sandbox):
    """One CI target on a branch the emulator never heard of (GitHub answers 422): that row is UNKNOWN
    with the reason, every other row is judged as before, and the pane loads."""
    from dataclasses import replace

    config = sandbox.config
    ghost = replace(config.ci[0], branch="release/9.9")
    backend = build_backend(replace(config, ci=(*config.ci, ghost)), read_only=True)
    try:
        report = backend.load_ci()
    finally:
        backend.state.close()
    rows = {(v.repository, v.ref): v for v in report.branches}
    unknown = rows[(ghost.repository, "release/9.9")]
    assert unknown.status is GateStatus.UNKNOWN and "release/9.9" in unknown.reason and "422" in unknown.reason
    assert len(report.branches) == len(config.ci) + 1
    assert all(v.status is not GateStatus.UNKNOWN for v in report.branches if v is not unknown)
