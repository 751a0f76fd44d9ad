"""The release manager drives the cockpit with the keyboard over a hand-made release."""

from __future__ import annotations

import threading

import pytest
from fake_backend import NOW, FakeBackend
from textual.widgets import Static

from cockpit.domain.gates import GateStatus
from cockpit.errors import GitHubError
from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.help import HelpScreen
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.widgets import StatusBar
from tests.pilot import settle

pytestmark = pytest.mark.anyio
SIZE = (160, 48)


def make_app(**kwargs) -> CockpitApp:
    app = CockpitApp(FakeBackend(**kwargs), clock=lambda: NOW)
    app.animation_level = "none"
    return app


def table_text(app, pane: str) -> str:
    table = app.query_one(f"#pane-{pane} .pane-table", RowsTable)
    return "\n".join(" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count))


def notes(app) -> str:
    return "\n".join(app.notices.messages())


async def test_tab_and_brackets_step_through_the_panes_and_tab_still_moves_the_focus_in_a_dialog():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = [spec.name for spec in app.PANES]
        await pilot.press("tab")
        assert app.current_name == order[1]
        await pilot.press("right_square_bracket")
        assert app.current_name == order[2]
        await pilot.press("left_square_bracket", "shift+tab")
        assert app.current_name == order[0]
        await pilot.press("shift+tab")  # wraps around
        assert app.current_name == order[-1]
        await pilot.press("1", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("tab")  # in a dialog, Tab is the dialog's
        assert isinstance(app.screen, HelpScreen) and app.current_name == "milestone"
        await pilot.press("escape")


async def test_after_a_resize_every_table_fits_its_view_and_cut_text_ends_in_an_ellipsis():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.resize_terminal(80, 24)
        for key in "12345":
            await pilot.press(key)
            await settle(app, pilot)
            table = app.query_one(f"#pane-{app.current_name} .pane-table", RowsTable)
            assert table.virtual_size.width <= table.size.width, app.current_name
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert any("…" in line for line in lines), lines  # the checklist's steps and states are cut, and say so


async def test_every_pane_is_one_key_away_shows_its_report_and_lists_its_keys():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        header = app.query_one("#header").render().plain
        assert header == " Release Cockpit · acme/torchlet 2.5.0 · release/2.5 "
        expected = {
            "1": ("milestone", "torch.compile regression on A100"),
            "2": ("picks", "trunk reverted, missing issue link"),
            "3": ("ci", "acme/audio"),
            "4": ("branch", "revert owed"),
            "5": ("checklist", "Promote wheels to PyPI"),
        }
        for key, (pane, text) in expected.items():
            await pilot.press(key)
            assert app.current_name == pane
            assert text in table_text(app, pane)
            assert isinstance(app.focused, RowsTable)
        await pilot.press("1", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        pane_rows = app.screen.sections[0][1]
        assert ("d", "Remove the selected item from the milestone", "milestone.remove") in pane_rows
        assert any(binding_id == "app.refresh_all" for _k, _t, binding_id in app.screen.sections[1][1])
        await pilot.press("escape", "0")
        assert app.current_name == "overview"
        verdict = str(app.query_one("#verdict", Static).render())
        assert verdict == "NO-GO: 5 gates red, 3 required steps unsigned"
        assert set(app.gates) == {
            "milestone_empty",
            "picks_clear",
            "ci_green",
            "branch_diff_clean",
            "rc_artifacts",
            "pypi_not_published",
            "wheel_sizes",
            "checklist",
        }


async def test_the_release_manager_signs_off_manual_steps_but_not_automatic_ones():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        table = app.query_one("#pane-checklist .pane-table", RowsTable)

        table.move_cursor(row=table.get_row_index("ci_green"))
        await pilot.press("space")
        assert app.backend.actions.runs == []
        assert "follows its gate (CI green: RED" in notes(app)

        table.move_cursor(row=table.get_row_index("final_rc_tag"))
        await pilot.press("space")
        await settle(app, pilot)
        signoff = app.backend.state.signoffs()["final_rc_tag"]
        assert signoff.done and signoff.who == "rm"
        assert "signed by rm" in table_text(app, "checklist")
        assert "2 required steps unsigned" in str(app.query_one("#verdict", Static).render())
        assert table.cursor_row == table.get_row_index("final_rc_tag")


async def test_the_pypi_step_needs_the_version_typed_back():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        table = app.query_one("#pane-checklist .pane-table", RowsTable)
        table.move_cursor(row=table.get_row_index("promote_pypi"))
        await pilot.press("space")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y", "enter")  # "y" goes into the input: it does not confirm
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen) and app.backend.actions.runs == []
        await pilot.press("backspace", *"2.5.0", "enter")
        await settle(app, pilot)
        assert app.backend.actions.runs == [("checklist.toggle", "promote_pypi")]
        assert app.backend.state.signoffs()["promote_pypi"].done


async def test_a_slow_then_failing_ci_load_never_blocks_the_keys_and_ends_as_an_error_in_pane_3():
    github_answers = threading.Event()

    def on_load(name: str) -> None:
        if name == "ci":
            github_answers.wait(10)

    app = make_app(
        fail={"ci": GitHubError("500 from GET /repos/acme/torchlet/commits/release/2.5/check-runs")}, on_load=on_load
    )
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.press("3")
            assert app.query_one("#pane-ci .pane-table", RowsTable).loading
            await pilot.press("1")
            assert app.current_name == "milestone"
        finally:
            github_answers.set()
        await settle(app, pilot)
        await pilot.press("3")
        error = app.query_one("#pane-ci .pane-error", Static)
        assert error.display
        assert "GitHub: 500 from GET /repos/acme/torchlet" in str(error.render())
        assert "Traceback" not in str(error.render())
        assert app.gates["ci_green"].status is GateStatus.UNKNOWN
        await pilot.press("1")
        assert app.is_running and app.current_name == "milestone"


async def test_a_load_failing_the_same_way_again_is_told_once_then_stays_in_the_status_bar():
    """Issue 32: the same error toast returned on every retry; now once a streak, then the status bar says
    which pane is not loaded, until a load succeeds."""
    error = GitHubError("503 from GET /repos/acme/torchlet/commits/release/2.5/check-runs")
    app = make_app(fail={"ci": error})
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        ci = app.mounted_pane("ci")
        for _ in range(2):  # two retries failing the same way
            ci.reload()
            await settle(app, pilot)
        assert ci.failures == 3
        told = [m for m in app.notices.messages() if "503 from GET" in m]
        assert len(told) == 1, told
        app.show_status()
        bar = app.query_one(StatusBar)
        assert "not loaded: ci" in bar.tasks
        app.backend.fail.pop("ci")  # GitHub answers again
        ci.reload()
        await settle(app, pilot)
        app.show_status()
        assert ci.failures == 0 and "not loaded" not in bar.tasks


async def test_a_read_only_session_shows_the_badge_and_refuses_to_remove_an_item():
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.query_one("#header").render().plain.endswith(" READ-ONLY ")
        await pilot.press("1", "d")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert "read-only session: Remove from milestone" in notes(app)
        assert app.backend.actions.runs == []


async def test_removing_an_item_runs_only_after_y_and_filters_narrow_the_table():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "d")
        assert isinstance(app.screen, ConfirmScreen)
        assert "milestone.remove" in str(app.screen.query_one("#confirm-dry-run", Static).render())
        await pilot.press("n")
        await settle(app, pilot)
        assert app.backend.actions.runs == []
        loads = len(app.backend.loads)
        await pilot.press("d", "y")
        await settle(app, pilot)
        ((action_id, item),) = app.backend.actions.runs
        assert action_id == "milestone.remove" and item.number == 91234
        # one action, every pane current (issue 32): the branch diff, judged on the milestone, loads again too,
        # after the backend was told to reuse nothing of what the two panes read
        assert app.backend.forgotten_panes[-1] == ("milestone", "branch")
        assert {"milestone", "branch_diff"} <= set(app.backend.loads[loads:]), app.backend.loads[loads:]

        await pilot.press("f")
        assert app.query_one("#pane-milestone .pane-table", RowsTable).row_count == 2
        await pilot.press("p")
        assert "#91234" in table_text(app, "milestone") and "#91240" not in table_text(app, "milestone")
        await pilot.press("f", "i")
        assert {"#91240", "#90877"} <= set(table_text(app, "milestone").split())


async def test_picks_show_the_comment_as_markdown_and_post_the_bot_command():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "down", "down", "enter")
        assert isinstance(app.screen, DetailScreen)
        assert "[red]not markup[/red]" in app.screen.markdown
        await pilot.press("escape", "up", "c")
        app.screen.query_one("#bot-category").value = "critical"
        app.screen.query_one("#bot-fixes").value = "https://github.com/acme/torchlet/issues/1"
        await pilot.pause()
        await pilot.click("#bot-ok")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        fixes = "https://github.com/acme/torchlet/issues/1"
        assert app.backend.actions.runs == [("picks.bot_command", (91180, "critical", fixes))]


async def test_copying_the_pick_command_and_making_a_pick_branch_for_a_missing_pr():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        table = app.query_one("#pane-branch .pane-table", RowsTable)
        table.move_cursor(row=0)  # #91305, missing: what needs action is listed first
        await pilot.press("y")
        assert app.clipboard == "git cherry-pick -x " + "4" * 40
        assert "Copied: git cherry-pick -x 4444" in notes(app)
        await pilot.press("b", "y")
        await settle(app, pilot)
        ((action_id, item),) = app.backend.actions.runs
        assert action_id == "branch.pick_branch" and item.number == 91305


@pytest.mark.parametrize("wait_s", [0.0, 0.3])
async def test_quitting_while_panes_still_mount_and_load_prints_no_traceback(capfd, wait_s):
    release = threading.Event()
    app = make_app(on_load=lambda name: release.wait(5) if name in ("ci", "branch") else None)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(wait_s)
            app.tick()
            await pilot.press("q")
    finally:
        release.set()
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out and "NoMatches" not in err + out
    assert app.unexpected_errors == [], "the status bar and the panes' mounting are gone with the app, not broken"


async def test_a_load_ending_while_the_app_closes_finds_no_status_bar_and_says_nothing():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.query_one("#status-bar").remove()  # as the app's widgets go when it closes
        app.tick()
        app.pane("milestone").reload()  # its worker's state changes reach a status bar that is gone
        await settle(app, pilot)
        assert app.unexpected_errors == []


async def test_a_reload_keeps_the_table_in_use_and_says_it_is_refreshing():
    slow = threading.Event()
    slow.set()
    app = make_app(on_load=lambda name: slow.wait(10) if name == "milestone" else None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("1")
        pane = app.pane("milestone")
        slow.clear()
        try:
            await pilot.press("r")
            await pilot.pause(0.1)
            assert any(w.group == "milestone" and not w.is_finished for w in app.workers)
            table = app.query_one("#pane-milestone .pane-table", RowsTable)
            assert not table.loading and app.focused is table, "the rows stay on screen and keep the keys"
            assert "refreshing…" in str(app.query_one("#pane-milestone .gate-line", Static).render())
            assert "loading: milestone" in app.query_one(StatusBar).tasks
            await pilot.press("j")
            assert table.cursor_row == 1
            await pilot.press("slash", "f")
            assert pane.row_filter.text == "f"
        finally:
            slow.set()
        await settle(app, pilot)
        assert "refreshing…" not in str(app.query_one("#pane-milestone .gate-line", Static).render())


@pytest.mark.parametrize("expected", [None, "2.5.0"])
async def test_a_long_preview_scrolls_and_leaves_the_buttons_on_an_80x24_screen(expected):
    """A bulk action's preview lists a request per issue: on a small terminal the buttons must stay visible."""
    app = make_app()
    preview = "\n".join(f"  POST /repos/acme/torchlet/issues/{n}/comments" for n in range(60))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        app.push_screen(ConfirmScreen("Post the validation comment", "mutating", preview, expected=expected))
        await settle(app, pilot)
        for button in ("#confirm-yes", "#confirm-no"):
            region = app.screen.query_one(button).region
            assert region.height and region.bottom <= 24, (button, region)


async def test_a_filter_typed_in_one_burst_after_the_slash_keeps_every_letter_and_runs_no_pane_key():
    """'/carol' typed fast or pasted comes from the terminal in one read: the letters are queued for
    the table before '/' opens the filter. They land in the filter, in order; 'c' (the bot command
    on this pane) does not run."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        for key, character in [("slash", "/"), *((c, c) for c in "carol")]:
            app.post_message(events.Key(key, character))  # as the driver posts one read's keys
        await settle(app, pilot)
        assert app.screen.query_one("#pane-picks .filter-input").value == "carol"
        assert not isinstance(app.screen, ConfirmScreen) and app.screen is app.screen_stack[0]
        assert "carol" in table_text(app, "picks") and "bob" not in table_text(app, "picks")


async def test_keys_typed_in_one_burst_after_the_filters_enter_move_the_table_and_leave_the_filter_alone():
    """'/a', Enter, 'j', 'j' in one read: the two j's reached the filter before Enter handed the keys
    back to the table. They move the table's cursor, as when typed slowly; the filter stays 'a'."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        burst = [("slash", "/"), ("a", "a"), ("enter", "\r"), ("j", "j"), ("j", "j")]
        for key, character in burst:
            app.post_message(events.Key(key, character))  # as the driver posts one read's keys
        await settle(app, pilot)
        assert app.screen.query_one("#pane-picks .filter-input").value == "a"
        table = app.screen.query_one("#pane-picks .pane-table", RowsTable)
        assert app.focused is table and table.cursor_row == 2


async def test_a_bug_in_a_keys_action_is_told_in_one_line_and_the_cockpit_carries_on():
    class Broken(CockpitApp):
        def action_help(self) -> None:
            raise ZeroDivisionError("a bug of ours")

    app = Broken(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.is_running and [type(e) for e in app.unexpected_errors] == [ZeroDivisionError]
        assert "a bug of ours" in notes(app)
        await pilot.press("3")
        assert app.current_name == "ci"


async def test_what_an_interrupted_action_left_is_told_at_start_and_looked_up_off_the_screen_thread():
    """Issue 30: an action killed between its intent and its outcome is looked up in the world (GitHub, git)
    in a thread, and what was found is told once, before the panes load."""
    app = make_app()
    line = "Remove from milestone on #7, started 2026-12-06T12:00:00Z by alice, never finished; looked: done: ..."
    app.backend.actions.told = [line]
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert line in notes(app)
        assert app.backend.actions.told_in and threading.main_thread().name not in app.backend.actions.told_in


async def test_an_explicit_refresh_reuses_nothing_read_before_it():
    """Issue 32: `r` (this pane) and `R` (every pane) re-read what the panes share, even a moment after a load."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert getattr(app.backend, "forgotten", 0) == 0, "a load on its own reuses what another pane just read"
        await pilot.press("1", "r")
        await settle(app, pilot)
        await pilot.press("R")
        await settle(app, pilot)
        assert app.backend.forgotten == 2
