"""The branch diff pane on the sandbox says what each missing pick would do before anyone tries it:
one applies, one conflicts (its paths in the detail), one applies only after another (and 'y'
copies the two picks in that order)."""

from __future__ import annotations

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.detail import DetailScreen
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running

pytestmark = pytest.mark.anyio


def cells(app) -> dict[str, list[str]]:
    table = app.query_one("#pane-branch .pane-table", RowsTable)
    return {str(row[1]): [str(c) for c in row] for row in (table.get_row_at(i) for i in range(table.row_count))}


async def select(app, pilot, ref: str) -> None:
    table = app.query_one("#pane-branch .pane-table", RowsTable)
    table.move_cursor(row=next(i for i in range(table.row_count) if str(table.get_row_at(i)[1]) == ref))
    await pilot.pause()


async def test_each_missing_pick_says_whether_it_applies_conflicts_or_needs_another_first(sandbox, sandbox_world):
    planted = sandbox_world.truth["pick_predictions"]
    applies, after, needs = planted["applies"], planted["after"]["pr"], planted["after"]["needs"]
    conflict = planted["conflicts"]["pr"]
    async with running(build_backend(sandbox.config), pane="branch") as (app, pilot):
        table = cells(app)
        assert table[f"#{applies}"][2] == "applies"
        assert table[f"#{conflict}"][2] == "conflicts in 1 file"
        assert table[f"#{after}"][2] == f"after #{needs}"

        await select(app, pilot, f"#{conflict}")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DetailScreen)
        text = "\n".join(screen.lines)
        assert planted["conflicts"]["paths"][0] in text and "needs a manual pick" in text
        await pilot.press("escape")

        await select(app, pilot, f"#{after}")
        await pilot.press("y")
        await pilot.pause()
        copied = app.clipboard
        first, second = (sandbox_world.truth["trunk"][role] for role in ("missing_3", "missing_4"))
        assert copied == f"git cherry-pick -x {first} && git cherry-pick -x {second}"


async def test_composing_the_bot_command_for_a_pick_that_needs_another_says_the_order_to_post_them(
    sandbox, sandbox_world
):
    planted = sandbox_world.truth["pick_predictions"]
    after, needs = planted["after"]["pr"], planted["after"]["needs"]
    async with running(build_backend(sandbox.config), pane="picks") as (app, pilot):
        table = app.query_one("#pane-picks .pane-table", RowsTable)
        found = [i for i in range(table.row_count) if str(table.get_row_at(i)[3]) == f"#{after}"]
        assert found, f"no request names #{after}"
        assert str(table.get_row_at(found[0])[4]) == f"after #{needs}"
        table.move_cursor(row=found[0])
        await pilot.pause()
        notes: list[str] = []
        app.notify = lambda message, **_: notes.append(str(message))  # what the pane tells, in order
        await pilot.press("c")
        await pilot.pause()
        said = "\n".join(notes)
        assert f"post the cherry-pick commands in this order: #{needs}, then #{after}" in said
        await pilot.press("escape")
