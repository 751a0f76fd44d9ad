"""Pane 5 on release day: run a step's command (dry run first, output streamed into the log), the
PyPI step locked once the version is published, the storage problems behind the staged-binaries step."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_backend import ACTIONS, NOW, FakeAction, FakeBackend, FakeRegistry
from fake_world import storage_report
from textual.widgets import Static

from cockpit.domain.checklist import ChecklistStep, StepKind
from cockpit.domain.gates import Gate, GateStatus
from cockpit.services.checklist import checklist_report
from cockpit.services.overview import go_no_go
from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen, TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.checklist import StepLog
from cockpit.ui.rows_table import RowsTable
from tests.pilot import settle

pytestmark = pytest.mark.anyio
SIZE = (160, 48)
A = StepKind.AUTOMATIC

STEPS = (
    ChecklistStep(
        "milestone_empty", "Final RC requirements", "Milestone is empty", "Nothing open.", A, "milestone_empty"
    ),
    ChecklistStep(
        "tag_final_rc",
        "Final RC requirements",
        "Create and push the final RC tag",
        "Tag the branch head.",
        command="git tag -a {rc_tag} {remote}/{branch} && git push {remote} {rc_tag}",
        dry_run="git rev-parse --verify {remote}/{branch}",
    ),
    ChecklistStep("validation_issue", "After the final RC", "Validation issue created", "Open the issue."),
    ChecklistStep(
        "staged_ok", "After the final RC", "Staged binaries validated", "Every wheel staged.", A, "rc_artifacts"
    ),
    ChecklistStep(
        "promote_pypi",
        "Promotion",
        "Promote wheels to PyPI",
        "Upload to PyPI, once, ever.",
        gate="pypi_not_published",
        command="twine upload dist/*",
        irreversible=True,
        after_go=True,
    ),
)
STEP_ACTIONS = (
    FakeAction("checklist.dry_run", "Dry-run the step's command", "mutating", "checklist"),
    FakeAction("checklist.run_command", "Run the step's command", "mutating", "checklist"),
    FakeAction("checklist.run_irreversible", "Run the step's command (cannot be undone)", "irreversible", "checklist"),
    FakeAction("checklist.rc_tag", "Tag and push the next release candidate", "mutating", "checklist"),
)


class StreamingRegistry(FakeRegistry):
    """The fake registry plus the step-command actions, whose programs print two lines each."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._actions.update({a.id: a for a in STEP_ACTIONS})

    def for_pane(self, pane: str):
        return [a for a in (*ACTIONS, *STEP_ACTIONS) if a.pane == pane]

    def dry_run(self, action_id, target):
        step = getattr(target, "step", None)
        if step is not None:
            text = step.dry_run if action_id == "checklist.dry_run" else step.command
            return f"in /tmp/torchlet: {text}"
        return super().dry_run(action_id, target)

    def run(self, action_id, target, **kwargs):
        result = super().run(action_id, target, **kwargs)
        if result.ok and hasattr(target, "on_line"):
            target.on_line(f"$ {action_id} {target.step.id}")
            target.on_line("0123456789abcdef0123456789abcdef01234567")
        return result


class ChecklistBackend(FakeBackend):
    """The fake release with the real checklist and verdict services over ``STEPS``."""

    published: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        self.actions = StreamingRegistry(self.state, read_only=self.read_only)

    def load_storage(self):
        report = storage_report()
        details = tuple(f"{p.kind}: {p.filename}: {p.detail}" for p in report.report.problems)
        report = replace(report, gate=replace(report.gate, details=details))
        if self.published:
            report = replace(
                report,
                pypi_gate=Gate("pypi_not_published", "Not yet on PyPI", GateStatus.AMBER, "2.5.0 is already on PyPI"),
            )
        return self._load("storage", lambda: report)

    def load_checklist(self, gates):
        self._load("checklist", lambda: None)
        return checklist_report(STEPS, self.state.signoffs(), gates)

    def go_no_go(self, gates, checklist):
        return go_no_go(gates, checklist)


def make_app(*, published: bool = False, read_only: bool = False) -> CockpitApp:
    backend = ChecklistBackend(read_only=read_only)
    backend.published = published
    app = CockpitApp(backend, clock=lambda: NOW)
    app.animation_level = "none"
    return app


async def on_step(app, pilot, step_id: str) -> None:
    await settle(app, pilot)
    await pilot.press("5")
    table = app.query_one("#pane-checklist .pane-table", RowsTable)
    table.move_cursor(row=table.get_row_index(step_id))


def log_text(app, selector: str = "#step-log") -> str:
    return "\n".join(app.query_one(selector, StepLog).lines)


def notes(app) -> str:
    return "\n".join(app.notices.messages())


async def test_running_a_step_shows_the_dry_run_first_then_the_command_with_the_output_in_the_log():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "tag_final_rc")
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
        assert "git rev-parse --verify {remote}/{branch}" in str(
            app.screen.query_one("#confirm-dry-run", Static).render()
        )
        await pilot.press("y")
        await settle(app, pilot)
        assert app.backend.actions.runs == [("checklist.dry_run", app.backend.actions.runs[0][1])]
        assert "$ checklist.dry_run tag_final_rc" in log_text(app)
        assert isinstance(app.screen, ConfirmScreen), "the command itself is confirmed after the dry run"
        assert "git push {remote} {rc_tag}" in str(app.screen.query_one("#confirm-dry-run", Static).render())
        await pilot.press("y")
        await settle(app, pilot)
        assert [run[0] for run in app.backend.actions.runs] == ["checklist.dry_run", "checklist.run_command"]
        log = log_text(app)
        assert log.index("== dry run finished") < log.index("$ checklist.run_command tag_final_rc")
        assert "== command finished: Create and push the final RC tag" in log
        assert app.query_one("#step-log", StepLog).display


async def test_cancelling_the_command_after_the_dry_run_runs_nothing_more():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "tag_final_rc")
        await pilot.press("x", "y")
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        assert [run[0] for run in app.backend.actions.runs] == ["checklist.dry_run"]
        assert "cancelled" in notes(app)


async def test_an_irreversible_command_needs_the_version_typed_back():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "promote_pypi")
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen) and app.screen.expected == "2.5.0"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.backend.actions.runs == []
        await pilot.press(*"2.5.0", "enter")
        await settle(app, pilot)
        assert [run[0] for run in app.backend.actions.runs] == ["checklist.run_irreversible"]


async def test_a_read_only_session_runs_no_command():
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "tag_final_rc")
        await pilot.press("x")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.backend.actions.runs == []
        assert "read-only session" in notes(app)


async def test_once_on_pypi_the_upload_step_is_done_locked_and_cannot_be_unticked_or_rerun():
    app = make_app(published=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "promote_pypi")
        table = app.query_one("#pane-checklist .pane-table", RowsTable)
        row = [str(c) for c in table.get_row_at(table.get_row_index("promote_pypi"))]
        assert row[0] == "🔒" and "done and locked: already on PyPI" in row[2]
        await pilot.press("space")
        await pilot.press("x")
        await settle(app, pilot)
        assert app.backend.actions.runs == []
        assert notes(app).count("done and locked") == 2


async def test_the_staged_binaries_step_lists_every_artifact_problem():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "staged_ok")
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        lines = "\n".join(app.screen.lines)
        assert "missing: torchlet-2.5.0-cp313t-cp313t-manylinux_2_28_x86_64.whl" in lines
        assert "size_warning: torchlet-2.5.0-cp312-cp312-win_amd64.whl: 870 MB" in lines


def row_cells(app, step_id: str) -> list[str]:
    table = app.query_one("#pane-checklist .pane-table", RowsTable)
    return [str(cell) for cell in table.get_row(step_id)]


async def test_signing_a_red_step_by_hand_asks_why_and_shows_an_override_marker_not_a_tick():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "staged_ok")
        await settle(app, pilot)
        assert row_cells(app, "staged_ok")[0] == "✘"
        await pilot.press("O")
        assert isinstance(app.screen, TextInputScreen)
        await pilot.press(*"oversize wheel accepted by PyPI limit raise", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        assert [run[0] for run in app.backend.actions.runs] == ["checklist.override"]
        signoff = app.backend.state.signoffs()["staged_ok"]
        assert signoff.override and signoff.gate_status == "red"
        mark, _title, state, *_ = row_cells(app, "staged_ok")
        assert mark == "⚑" and state.startswith("OVERRIDE, gate RED: override by rm")
        assert "oversize wheel accepted" in state
        await pilot.press("enter")
        assert isinstance(app.screen, DetailScreen)
        shown = "\n".join(str(w.render()) for w in app.screen.query(Static))
        assert "Signed by hand over the gate: it was red then" in shown


async def test_an_override_with_an_empty_note_is_refused_and_nothing_is_signed():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "staged_ok")
        await pilot.press("O", "enter")
        await settle(app, pilot)
        assert app.backend.actions.runs == []
        assert "staged_ok" not in app.backend.state.signoffs()
        assert "Nothing signed: an override of 'Staged binaries validated' needs a note" in notes(app)


async def test_a_read_only_session_cannot_override():
    app = make_app(read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "staged_ok")
        await pilot.press("O", *"why not", "enter")
        await settle(app, pilot)
        assert app.backend.actions.runs == [] and "read-only session" in notes(app)


async def test_x_on_a_step_without_a_command_gives_the_advice_its_kind_takes():
    """#32: x on an automatic step said "tick it with space", and space then said "press O"."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await on_step(app, pilot, "staged_ok")
        await pilot.press("x")
        await pilot.pause()
        assert "'Staged binaries validated' has no command to run: it follows its gate; O signs it by hand." in notes(
            app
        )
        await on_step(app, pilot, "validation_issue")
        await pilot.press("x")
        await pilot.pause()
        assert "'Validation issue created' has no command to run: do it by hand and tick it with space." in notes(app)
