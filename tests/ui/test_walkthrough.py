"""Release day in walkthrough mode: one step at a time, its help, its evidence, what to do next."""

from __future__ import annotations

import pytest
from test_checklist_pane import STEPS, make_app, on_step, settle
from textual.widgets import ProgressBar, Static

from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.walkthrough import WalkthroughScreen

pytestmark = pytest.mark.anyio
SIZE = (120, 40)


def shown(app, part: str) -> str:
    return str(app.screen.query_one(f"#walk-{part}", Static).render())


async def test_the_walkthrough_moves_with_brackets_and_arrows_and_shows_each_steps_evidence():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "tag_final_rc")
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, WalkthroughScreen)
        assert "Create and push the final RC tag" in shown(app, "title")
        assert "Step 2 of 5 · Final RC requirements · manual, required" in shown(app, "position")
        assert "Tag the branch head." in shown(app, "help")
        assert "Command: git tag -a {rc_tag}" in shown(app, "commands")
        assert "press space to sign it off" in shown(app, "next") and "Press x to run it" in shown(app, "next")

        await pilot.press("right_square_bracket")
        assert "Validation issue created" in shown(app, "title")
        await pilot.press("down", "right")
        assert "Promote wheels to PyPI" in shown(app, "title") and "cannot be undone" in shown(app, "position")
        await pilot.press("right_square_bracket")
        assert "Promote wheels to PyPI" in shown(app, "title"), "the last step stays the last"
        await pilot.press("left_square_bracket")
        evidence = shown(app, "evidence")
        assert "Staged binaries validated" in shown(app, "title") and "RC artifacts valid: RED" in evidence
        assert "missing: torchlet-2.5.0-cp313t-cp313t-manylinux_2_28_x86_64.whl" in evidence
        assert "Overview (RC artifacts) pane (press esc, then 0)" in shown(app, "next")
        await pilot.press("up", "left", "left")
        assert "Milestone is empty" in shown(app, "title")
        await pilot.press("escape")
        assert not isinstance(app.screen, WalkthroughScreen)


async def test_space_ticks_the_shown_step_and_the_progress_bar_follows():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "validation_issue")
        await pilot.press("w")
        await pilot.pause()
        bar = app.screen.query_one(ProgressBar)
        before = bar.progress
        assert bar.total == len(STEPS) and f"{before:.0f} of {len(STEPS)} steps done" in shown(app, "progress-label")
        await pilot.press("space")
        await settle(app, pilot)
        assert isinstance(app.screen, WalkthroughScreen)
        assert app.backend.state.signoffs()["validation_issue"].done
        assert "signed by rm" in shown(app, "evidence")
        assert "Validation issue created" in shown(app, "title"), "the walkthrough stays on the ticked step"
        assert app.screen.query_one(ProgressBar).progress == before + 1
        await pilot.press("space")
        await settle(app, pilot)
        assert not app.backend.state.signoffs()["validation_issue"].done
        assert app.screen.query_one(ProgressBar).progress == before


async def test_running_from_the_walkthrough_streams_into_its_own_log():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "tag_final_rc")
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, WalkthroughScreen)
        assert "$ checklist.dry_run tag_final_rc" in "\n".join(app.screen.query_one("#walk-log").lines)
