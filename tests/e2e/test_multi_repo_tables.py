"""The table panes of a release over three repositories: the libraries' rows beside the core's, the
repository filter narrowing every table, and actions that never act on the core for a library's row."""

from __future__ import annotations

from typing import Any

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.app import CockpitApp
from tests.e2e.test_snapshots_sandbox import NOW, showing

CORE, VISION = "acme/torchlet", "acme/vision"


def _repos_of(pane: Any) -> set[str]:
    return {row.item.repo for row in pane._rows if pane.table.row_count and row.key in _shown_keys(pane)}


def _shown_keys(pane: Any) -> set[str]:
    table = pane.table
    return {table.coordinate_to_cell_key((i, 0)).row_key.value for i in range(table.row_count)}


def _ci_repositories(pane: Any) -> set[str]:
    return {pane.verdicts()[int(key)].repository for key in _shown_keys(pane)}


async def _on_row(pilot: Any, pane: Any, key: str) -> None:
    pane.table.move_cursor(row=pane.table.get_row_index(key), animate=False)
    await pilot.pause()


def _written(servers: Any) -> list[tuple[str, str]]:
    return [(e["method"], e["path"]) for e in servers.github.log() if e["method"] not in ("GET", "HEAD")]


def _asked(servers: Any, since: int) -> list[tuple[str, str]]:
    return [(e["method"], e["path"]) for e in servers.github.log()[since:]]


@pytest.fixture()
def app_backend(multi_sandbox):
    backend = build_backend(multi_sandbox.config, clock=lambda: NOW)
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    yield app
    backend.state.close()


@pytest.mark.anyio
async def test_every_table_lists_the_libraries_rows_and_the_filter_narrows_each_of_them(app_backend, multi_sandbox):
    app = app_backend
    async with app.run_test(size=(160, 48)) as pilot:
        await showing(None)(pilot)
        milestone, picks, branch, ci = (app.mounted_pane(n) for n in ("milestone", "picks", "branch", "ci"))
        assert _repos_of(milestone) == {"torchlet", "vision", "audio"}
        assert {"torchlet", "vision"} <= _repos_of(picks)
        assert {"torchlet", "vision"} <= _repos_of(branch)
        assert _ci_repositories(ci) == {CORE, VISION, "acme/audio"}
        for pane in (milestone, picks, branch):
            assert pane.columns()[0].id == "repo"
        # each library's milestone list was read once for all panes: the tables reuse the overview's load
        paths = [e["path"] for e in multi_sandbox.github.log() if e["method"] == "GET"]
        for repository in (VISION, "acme/audio"):
            assert len([p for p in paths if p.startswith(f"/repos/{repository}/issues?") and "milestone=" in p]) == 1

        await pilot.press("at", "at")  # all -> torchlet -> vision
        await pilot.pause()
        assert app.repo_choice == "vision"
        assert _repos_of(milestone) == _repos_of(branch) == {"vision"}
        assert _repos_of(picks) in ({"vision"}, set())
        assert _ci_repositories(ci) == {VISION}
        # the milestone's bulk actions act on the core's milestone: under vision's filter they refuse, naming both
        await pilot.press("1")
        await pilot.pause()
        app.clear_notifications()
        before = len(multi_sandbox.github.log())
        for key in ("V", "N"):
            await pilot.press(key)
            await pilot.pause(0.1)
        said = app.notices.messages()
        for title in ("Post the validation comment on all closed issues", "Create the validation issue"):
            words = f"{title} acts on the milestone of {CORE}, and the filter shows vision: choose torchlet"
            assert f"{words} or every repository with @ first" in said, said
        assert {m for m, _p in _asked(multi_sandbox, before)} <= {"GET", "HEAD"}
        # before the libraries are loaded (or after their load failed), a filtered pane says so
        from cockpit.ui.repo_rows import refresh_tables

        loaded, app.library_reports = app.library_reports, ()
        refresh_tables(app)
        await pilot.pause()
        line = str(picks.query_one(".pane-filter").render())
        assert line == "No cherry-pick requests of vision · vision: loading…" and not _repos_of(picks)
        app.library_reports = loaded
        refresh_tables(app)
        await pilot.press("at", "at")  # audio -> all
        await pilot.pause()
        assert app.repo_choice == "" and _repos_of(milestone) == {"torchlet", "vision", "audio"}


@pytest.mark.anyio
async def test_an_action_on_a_library_row_acts_on_that_library_or_refuses_and_never_touches_the_core(
    app_backend, multi_sandbox
):
    app = app_backend
    async with app.run_test(size=(160, 48)) as pilot:
        await showing("milestone")(pilot)
        milestone = app.mounted_pane("milestone")
        vision_items = [row.item for row in milestone._rows if row.item.repo == "vision"]
        closed = next(r.item for r in vision_items if not r.item.state.is_open)
        assert closed.repository == VISION

        # removing a vision item from its milestone: the PATCH goes to acme/vision, never to the core
        await _on_row(pilot, milestone, f"vision:{closed.number}")
        before = len(multi_sandbox.github.log())
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")  # the confirmation
        for _ in range(200):
            await pilot.pause(0.02)
            if _written(multi_sandbox):
                break
        assert _written(multi_sandbox) == [("PATCH", f"/repos/{VISION}/issues/{closed.number}")]
        # the pane reloads its lists after the change, but nothing asks for the core's item of that number
        asked = [path for _m, path in _asked(multi_sandbox, before)]
        assert not [p for p in asked if p.split("?")[0].startswith(f"/repos/{CORE}/issues/{closed.number}")], asked

        # the validation comment names the core's release: refused for a vision item, with both names
        app.clear_notifications()
        other = next(r.item for r in vision_items if not r.item.state.is_open and r.item.number != closed.number)
        await _on_row(pilot, milestone, f"vision:{other.number}")
        await pilot.press("v")
        await pilot.pause()
        said = app.notices.messages()
        assert any(f"acts on {CORE} only; this row is {VISION}" in m for m in said), said

        # merging a vision request's release PR: refused before any request for the core's PR of that number
        await pilot.press("2")
        await pilot.pause()
        picks = app.mounted_pane("picks")
        vision_pick = next(row for row in picks._rows if row.item.repo == "vision")
        await _on_row(pilot, picks, vision_pick.key)
        app.clear_notifications()
        before = len(multi_sandbox.github.log())
        for key in ("M", "c", "m"):
            await pilot.press(key)
            await pilot.pause(0.1)
        said = app.notices.messages()
        for title in ("Merge the release PR", "Post cherry-pick command", "Reply on the tracker"):
            assert any(m.startswith(f"{title} acts on {CORE} only; this row is {VISION}") for m in said), said
        assert not any(path.startswith(f"/repos/{CORE}/") for _m, path in _asked(multi_sandbox, before))

        # a local pick branch is made in the core's clone: refused for a vision row
        await pilot.press("4")
        await pilot.pause()
        branch = app.mounted_pane("branch")
        vision_row = next(row for row in branch._rows if row.item.repo == "vision" and row.item.target is not None)
        await _on_row(pilot, branch, vision_row.key)
        app.clear_notifications()
        await pilot.press("b")
        await pilot.pause()
        said = app.notices.messages()
        assert any(m.startswith(f"Make local pick branch acts on {CORE} only; this row is {VISION}") for m in said)
        assert _written(multi_sandbox) == [("PATCH", f"/repos/{VISION}/issues/{closed.number}")]


def test_a_row_of_the_core_is_acted_on_as_before(sandbox):
    """The registry's own guard: a target without a repository, or the core's, is the core's."""
    from cockpit.domain.github import ItemKind, ItemState, MilestoneItem

    backend = build_backend(sandbox.config, read_only=True)
    try:
        item = MilestoneItem(1, ItemKind.ISSUE, "t", ItemState.OPEN, "u")
        core = backend.repository
        assert (
            backend.actions.dry_run("milestone.remove", item) == f'PATCH /repos/{core}/issues/1 {{"milestone": null}}'
        )
        from dataclasses import replace

        library = replace(item, repository="acme/vision")
        assert backend.actions.dry_run("milestone.remove", library).startswith("PATCH /repos/acme/vision/issues/1 ")
    finally:
        backend.state.close()
