"""`L` on the checklist hides the step log after a command ran (the table gets its rows back) and shows it
again; a new command shows it by itself (#32: a 12-line log stayed open with no key to hide it)."""

from __future__ import annotations

import pytest
from fake_backend import FakeBackend
from pane_alone import PaneAlone, settle

from cockpit.ui.panes.checklist import ChecklistPane
from cockpit.ui.step_log import StepLog

pytestmark = pytest.mark.anyio


async def test_L_hides_and_shows_the_step_log_once_it_was_used():
    app = PaneAlone(FakeBackend(), ChecklistPane)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        log = app.query_one("#step-log", StepLog)
        app.pane().focus()
        await pilot.press("L")
        assert not log.display and "the log is empty" in "\n".join(app.notices.messages())
        assert log.used() is None  # as a step command does when it starts: at 30 rows, the log opens
        log.write_line("$ git tag ...")
        await pilot.pause()
        assert log.display
        await pilot.press("L")
        await pilot.pause()
        assert not log.display and "step log hidden" in app.notices.messages()[-1]
        await pilot.press("L")
        await pilot.pause()
        assert log.display


async def test_at_a_small_size_the_step_log_starts_closed_and_L_opens_it_for_the_next_commands():
    app = PaneAlone(FakeBackend(), ChecklistPane)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        log = app.query_one("#step-log", StepLog)
        assert log.used() == "the step log is closed at this size: L shows it"
        await pilot.pause()
        assert not log.display
        app.pane().focus()
        await pilot.press("L")
        await pilot.pause()
        assert log.display
        assert log.used() is None  # opened by hand: the next command leaves it open
        await pilot.pause()
        assert log.display
