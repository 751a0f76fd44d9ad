"""Pane 4 as the release manager uses it: what needs action on top, readable evidence, picks."""

from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest
from fake_backend import NOW, FakeBackend
from textual.widgets import Static

from cockpit.bootstrap import build_backend
from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.rows_table import RowsTable
from tests.pilot import settle

pytestmark = pytest.mark.anyio


def rows(app) -> list[list[str]]:
    table = app.query_one("#pane-branch .pane-table", RowsTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def notes(app) -> str:
    return "\n".join(app.notices.messages())


def fake_app(**kwargs) -> CockpitApp:
    app = CockpitApp(FakeBackend(**kwargs), clock=lambda: NOW)
    app.animation_level = "none"
    return app


async def test_what_needs_action_comes_first_and_the_verdict_stays_visible_at_80_columns():
    app = fake_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        verdicts = [r[0] for r in rows(app)]
        assert verdicts[:5] == ["missing", "revert owed", "landed modified", "needs review", "only on branch"]
        assert verdicts.index("landed") > verdicts.index("open issue") and verdicts[-1] == "rc delta"
        table = app.query_one("#pane-branch .pane-table", RowsTable)
        assert sum(c.get_render_width(table.cell_padding) for c in table.columns.values()) <= 78
        assert table.ordered_columns[0].label.plain == "Verdict"
        summary = str(app.query_one(".branch-summary", Static).render())
        assert "v2.5.0-rc1..v2.5.0-rc2: 1 commits (#91500)" in summary


async def test_evidence_reads_as_words_and_markup_in_titles_stays_text():
    app = fake_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        by_ref = {r[1]: r for r in rows(app)}
        assert by_ref["#91301"][3] == "trailer 22222222"
        assert by_ref["#91102"][3] == "#91102 11111111"
        assert by_ref["#91305"][2] == "Fix NaN in [i]layer_norm[/i]"
        assert by_ref["66666666"][3].startswith("reverts 77777777 (#91190); trailer 88888888")


async def test_enter_lists_every_piece_of_evidence_and_the_trunk_commits():
    app = fake_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        table = app.query_one("#pane-branch .pane-table", RowsTable)
        table.move_cursor(row=[r[1] for r in rows(app)].index("#91301"))
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        text = "\n".join(app.screen.lines)
        assert "Verdict: landed modified" in text and "trailer      " + "2" * 40 in text
        await pilot.press("escape")
        table.move_cursor(row=0)  # the missing PR
        await pilot.press("enter")
        text = "\n".join(app.screen.lines)
        assert "Trunk commits:\n  " + "4" * 40 in text and "Pick: git cherry-pick -x " + "4" * 40 in text


async def test_y_copies_the_pick_of_a_revert_owed_and_b_is_refused_in_read_only_with_the_reason():
    app = fake_app(read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("4", "down")  # the revert owed
        await pilot.press("y")
        assert app.clipboard == "git cherry-pick -x " + "6" * 40
        assert "Copied: git cherry-pick -x 6666" in notes(app)
        await pilot.press("b")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert "read-only session" in notes(app) and app.backend.actions.runs == []


async def test_b_on_the_sandbox_asks_first_then_makes_a_local_pick_branch_and_pushes_nothing(
    sandbox, sandbox_world, world_clone_copy
):
    clone = world_clone_copy / "torchlet"
    config = replace(sandbox.config, git=replace(sandbox.config.git, clone=clone))
    backend = build_backend(config, read_only=False)

    def git(*args):
        return subprocess.run(["git", "-C", str(clone), *args], check=True, capture_output=True, text=True).stdout

    remote_refs = subprocess.run(
        ["git", "-C", sandbox_world.remote_path, "for-each-ref"], capture_output=True, text=True
    ).stdout
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("4")
            assert rows(app)[0][0] == "missing"
            item = app.query_one("#pane-branch").rows[0].target
            made = f"cherry-pick-{item.number}-{sandbox_world.release_branch.replace('/', '-')}"
            await pilot.press("b")
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("n")  # cancelled: nothing made
            await settle(app, pilot)
            assert made not in git("branch")
            await pilot.press("b", "y")
            await settle(app, pilot)
            assert "made local branch" in notes(app), notes(app)
            assert made in git("branch")
            assert f"(cherry picked from commit {item.commits[-1]})" in git("log", "-1", "--format=%B", made)
            assert git("rev-parse", f"{made}~1") == git("rev-parse", sandbox_world.release_branch)
    finally:
        backend.state.close()
    after = subprocess.run(
        ["git", "-C", sandbox_world.remote_path, "for-each-ref"], capture_output=True, text=True
    ).stdout
    assert after == remote_refs
