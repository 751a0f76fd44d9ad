"""The triage pane of a patch release: candidates not yet in the patch milestone, the criteria answered
from the keyboard and kept in the state file, and the two decisions behind a confirmation."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_backend import NOW, FakeBackend
from pane_alone import PaneAlone, settle

from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.panes.triage import TriagePane
from cockpit.ui.rows_table import RowsTable

pytestmark = pytest.mark.anyio


def rows(app) -> list[list[str]]:
    table = app.query_one("#pane-triage .pane-table", RowsTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_candidates_in_the_milestone_are_left_out_and_answers_cycle_yes_no_unset():
    backend = FakeBackend()
    app = PaneAlone(backend, TriagePane)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        assert [r[0] for r in rows(app)] == ["#9101", "#9102"]  # #9103 is in the milestone already
        assert rows(app)[0][3:] == ["?", "?", "?", "open"]
        for key in ("b", "e", "w"):
            await pilot.press(key)
            await settle(app, pilot)
        assert backend.state.triage == {
            "acme/torchlet#9101": {"breaks_core": True, "regression": True, "no_workaround": True}
        }
        assert rows(app)[0][3:] == ["yes", "yes", "yes", "fits"]
        await pilot.press("e")
        await settle(app, pilot)
        assert rows(app)[0][4] == "no" and rows(app)[0][6] == "does not fit"
        assert [run[0] for run in backend.actions.runs] == ["triage.answer"] * 4


async def test_quick_presses_are_each_a_step_and_are_written_in_the_order_pressed():
    """Three presses of b in one burst: yes, no, unset, then yes again on the fourth (issue 32: two quick
    presses once counted as one, each read the answer from the report not yet reloaded)."""
    backend = FakeBackend()
    app = PaneAlone(backend, TriagePane)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("b", "b")
        await settle(app, pilot)
        assert backend.state.triage["acme/torchlet#9101"] == {"breaks_core": False}
        assert [run[1].value for run in backend.actions.runs] == [True, False]
        await pilot.press("b", "b", "e")
        await settle(app, pilot)
        assert backend.state.triage["acme/torchlet#9101"] == {"breaks_core": True, "regression": True}
        assert [run[1].value for run in backend.actions.runs] == [True, False, None, True, True]
        assert rows(app)[0][3:5] == ["yes", "yes"]


async def test_adding_to_the_milestone_is_confirmed_first_and_refused_in_a_read_only_session():
    backend = FakeBackend()
    app = PaneAlone(backend, TriagePane)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and backend.actions.runs == []
    viewer = FakeBackend(read_only=True)
    app = PaneAlone(viewer, TriagePane)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        for key in ("m", "x", "b"):
            await pilot.press(key)
            await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and viewer.actions.runs == [] and viewer.state.triage == {}


def patch_backend() -> FakeBackend:
    backend = FakeBackend()
    backend.config = replace(backend.config, release=replace(backend.config.release, version="2.5.1"))
    return backend


async def test_only_a_patch_release_has_the_triage_tab():
    for backend, has_it in ((FakeBackend(), False), (patch_backend(), True)):
        app = CockpitApp(backend, clock=lambda: NOW)
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.press("6")
            await pilot.pause()
            assert ("triage" in [name for name, _t, _f in app.PANES]) is has_it
            assert (app.current_name == "triage") is has_it


async def test_the_overview_of_a_patch_release_says_today_s_phase_and_the_days_left():
    from datetime import date

    from textual.widgets import Static

    from cockpit.domain.schedule import PatchPhase, PatchSchedule, PhaseDates

    backend = patch_backend()
    schedule = PatchSchedule(
        (
            PhaseDates(PatchPhase.TRIAGE, date(2026, 2, 16), date(2026, 2, 27)),
            PhaseDates(PatchPhase.CHERRY_PICK, date(2026, 3, 1), date(2026, 3, 4)),
        ),
        cherry_pick_deadline=NOW.replace(day=4, hour=17),
    )
    backend.config = replace(backend.config, schedule=schedule)
    app = CockpitApp(backend, clock=lambda: NOW)  # NOW is 2 March 2026
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        line = str(app.query_one("#patch-phase", Static).render())
        assert line.startswith("Patch 2.5.1 · Cherry-picking: 3 days left") and "deadline in 2 days" in line
    plain = CockpitApp(FakeBackend(), clock=lambda: NOW)
    async with plain.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not plain.query("#patch-phase")
