"""Pane 5: the promotion checklist; tick manual steps, add notes, run a step's command (dry run
first, output streamed into the log below the table); automatic steps follow their gate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.checklist import StepOverride, StepRun
from cockpit.domain.gates import Gate
from cockpit.domain.reports import ChecklistReport, GoNoGo, StepView
from cockpit.gates import names_on
from cockpit.ui.acting import perform, refused_in_viewer
from cockpit.ui.confirm import TextInputScreen
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.step_log import StepLog
from cockpit.ui.step_text import step_commands, step_evidence, step_mark, step_state
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text, status_rank
from cockpit.ui.widgets import STATUS_WORD, VerdictReady, plain, status_text

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

__all__ = ["ChecklistPane", "StepLog", "step_mark", "step_state"]


TITLE_WIDTH_NARROW = 36
MILESTONE_CHORES = {
    "validation_issue": ("milestone.validation_issue", "validation issue"),
    "validation_comments": ("milestone.validate_all", "validation comments"),
}
"""Built-in step actions that are the milestone pane's chores (N and V): action id, and the log's word."""


@dataclass(frozen=True)
class SectionTitle:
    """The row that opens a section of the checklist: it has a title and nothing else to sort by."""

    title: str


ChecklistLine = StepView | SectionTitle
"""A row of the checklist table: a step, or the title that opens its section."""


def _step_key(
    key: Callable[[StepView], SupportsRichComparison | None],
) -> Callable[[ChecklistLine], SupportsRichComparison | None]:
    """A step column's sort key; a section's title row has no value in any column, so it sorts last."""
    return lambda line: None if isinstance(line, SectionTitle) else key(line)


# A step's mark sorts as its colour: red (gate failing), amber (irreversible, not done), green (done), open.
COLUMNS: tuple[Column[ChecklistLine], ...] = (
    Column("mark", " ", _step_key(lambda view: status_rank(step_mark(view)[1]))),
    Column("step", "Step", _step_key(by_text(lambda view: view.step.title))),
    Column("state", "State", _step_key(by_text(step_state))),
    Column("kind", "Kind", _step_key(by_text(lambda view: view.step.kind.value))),
    Column("note", "Note", _step_key(by_text(lambda view: view.signoff.note if view.signoff else ""))),
)


class ChecklistPane(TablePane):
    """Sections with their steps; the verdict is computed here once the checklist is known."""

    DEFAULT_CSS = """
    ChecklistPane .team-problems { display: none; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """
    PANE = "checklist"
    GATES = names_on(PANE)  # declared in cockpit.gates
    LINK_NAME = "command"
    COLUMNS = COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle", "Tick", id="checklist.toggle", tooltip="Tick or untick the selected manual step"),
        Binding("n", "note", "Note", id="checklist.note", tooltip="Add a note to the selected step"),
        Binding(
            "O",
            "override",
            "Override",
            id="checklist.override",
            tooltip="Sign the selected automatic step by hand over its red or unknown gate (a note is required)",
        ),
        Binding(
            "x",
            "run_step",
            "Run",
            id="checklist.run",
            tooltip="Run the step's command: the dry run first, then the command, output in the log",
        ),
        Binding(
            "I",
            "tracking_issue",
            "Tracking issue",
            id="checklist.tracking_issue",
            tooltip="Open the [v.X.Y.Z] Release Day Checklist issue, or tick the boxes of the steps done (preview)",
        ),
        Binding(
            "W",
            "watch_run",
            "Watch run",
            id="checklist.watch",
            tooltip="Watch the latest run of the selected step's workflow: jobs, log tail, re-run, approve",
        ),
        Binding(
            "w",
            "walkthrough",
            "Walkthrough",
            id="checklist.walkthrough",
            tooltip="Release day: one step at a time, full screen",
        ),
        Binding("enter", "detail", "Detail", id="checklist.detail", tooltip="Show what the step means and its command"),
        Binding("L", "toggle_log", "Log", id="checklist.log", show=False, tooltip="Hide or show the step log"),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.gates: dict[str, Gate] = {}
        self.walkthrough: Any = None  # the open WalkthroughScreen, refreshed on each reload
        self.done_seen: set[str] = set()  # the steps done at the last report: the tracking issue follows new ones

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="pane-filter team-problems -amber")
        yield from super().compose_body()
        yield StepLog(id="step-log", max_lines=5000)

    def reload_with(self, gates: dict[str, Gate]) -> None:
        """Re-evaluate the checklist against a copy of the app's gates."""
        self.gates = dict(gates)
        self.reload()

    def fetch(self) -> tuple[ChecklistReport, GoNoGo]:
        report = self.backend.load_checklist(self.gates)
        return report, self.backend.go_no_go(self.gates, report)

    def gates_of(self, report: tuple[ChecklistReport, GoNoGo]) -> tuple[Gate, ...]:
        return (report[0].gate,)

    def show(self, report: tuple[ChecklistReport, GoNoGo]) -> None:
        checklist, verdict = report
        rows: list[TableRow[ChecklistLine]] = []
        section = None
        for view in checklist.steps:
            if view.step.section != section:
                section = view.step.section
                title_cells = (Text(""), Text(section, style="bold underline"), "", "", "")
                rows.append(TableRow(f"section:{section}", SectionTitle(section), title_cells))
            mark, status = step_mark(view)
            note = view.signoff.note if view.signoff else ""
            title = plain(view.step.title)
            if self.app.size.width < 120:  # keep the state in view at 80 columns; enter shows the whole title
                title.truncate(TITLE_WIDTH_NARROW, overflow="ellipsis")
            cells = (
                status_text(self, status, mark),
                title,
                plain(step_state(view)),
                Text(view.step.kind.value),
                plain(note),
            )
            rows.append(TableRow(view.step.id, view, cells))
        self.draw_rows(rows)
        self._show_team_problems(checklist.team_problems)
        self.post_message(VerdictReady(verdict))
        if self.walkthrough is not None:
            self.walkthrough.show_report(checklist)
        from cockpit.ui.tracking_flow import follow

        follow(self, checklist, self.done_seen)

    def _show_team_problems(self, problems: tuple[str, ...]) -> None:
        """One line over the table when the team's status comment, as last read, had entries set aside."""
        line = self.query_one(".team-problems", Static)
        line.display = bool(problems)
        if problems:
            more = f" (+{len(problems) - 1} more: cockpit view --from-tracker lists them)" if len(problems) > 1 else ""
            line.update(plain(f"⚠ The team's status comment on the tracker: {problems[0]}{more}"))

    def selected_step(self) -> StepView | None:
        key = self.selected_key()
        if self.report is None or key is None or key.startswith("section:"):
            self.notify("Select a step (not a section title).", severity="warning")
            return None
        return next((v for v in self.report[0].steps if v.step.id == key), None)

    def selected_link(self) -> str | None:
        view = self.selected_step()
        return (view.step.command or None) if view is not None else None

    def _reload_if_done(self, ok: bool) -> None:
        if ok:
            self.reload()

    def action_toggle(self) -> None:  # type: ignore[override]  # the step's tick, not DOMNode's attribute toggle
        view = self.selected_step()
        if view is not None:
            self.toggle(view)

    def toggle(self, view: StepView) -> None:
        """Tick or untick a manual step (the version typed back before ticking an irreversible one)."""
        if view.locked or view.blocked:
            why = view.locked or view.blocked
            self.notify(f"'{view.step.title}' is {why}.", title="Not done", severity="warning", markup=False)
            return
        if view.step.kind.judged:
            if view.override:  # space withdraws the override; the registry audits it
                perform(self, self.PANE, "checklist.toggle", view.step.id, on_done=self._reload_if_done)
                return
            gate = view.gate
            why = f"{gate.title}: {STATUS_WORD[gate.status]}, {gate.summary}" if gate else "not judged yet"
            self.notify(
                f"'{view.step.title}' is automatic: it follows its gate ({why}); "
                "press O to sign it by hand over a red or unknown gate, with a note.",
                markup=False,
            )
            return
        irreversible = view.step.irreversible and not view.done
        perform(
            self,
            self.PANE,
            "checklist.toggle",
            view.step.id,
            confirm=irreversible,
            danger="irreversible" if irreversible else None,
            on_done=self._reload_if_done,
        )

    def action_run_step(self) -> None:
        view = self.selected_step()
        if view is not None:
            self.run_step(view)

    def _log_used(self, log: StepLog) -> None:
        if (closed := log.used()) is not None:
            self.notify(closed, markup=False)

    def action_toggle_log(self) -> None:
        self.notify(self.query_one("#step-log", StepLog).toggle_shown(), markup=False)

    def action_tracking_issue(self) -> None:
        from cockpit.ui.tracking_flow import tracking_key

        tracking_key(self)

    def action_watch_run(self) -> None:
        view = self.selected_step()
        if view is None:
            return
        if view.step.workflow is None:
            self.notify(f"'{view.step.title}' is not performed by a workflow: nothing to watch", markup=False)
            return
        from cockpit.ui.workflow_flow import watch_step

        watch_step(self, view.step, self.reload)  # what was re-run or approved there shows when it closes

    def run_step(self, view: StepView, *, log: StepLog | None = None) -> None:
        """The built-in action, or the dry run then (once it succeeded) the command; output in ``log``
        (the pane's own by default)."""
        step = view.step
        if refused_in_viewer(self, f"'{step.title}' is not run from here"):
            return  # before its state or its kind: a viewer hears first that nothing runs from here
        if view.locked or view.blocked:
            why = view.locked or view.blocked
            self.notify(f"'{step.title}' is {why}.", title="Not run", severity="warning", markup=False)
            return
        log = log or self.query_one("#step-log", StepLog)
        target = StepRun(step, on_line=self._line_writer(log))

        def after(what: str) -> Any:
            def done(ok: bool) -> None:
                log.write_line(f"== {what} {'finished' if ok else 'did not finish'}: {step.title}")
                self.reload()

            return done

        def start(action_id: str, what: str, **kw: Any) -> None:
            self._log_used(log)
            log.write_line(f"== {what}: {step.title}")
            perform(self, self.PANE, action_id, target, **kw)

        if step.action == "rc_tag":
            start("checklist.rc_tag", "RC tag", on_done=after("RC tag"), preview_in_worker=True)  # reads the remote
            return
        if step.action in MILESTONE_CHORES:  # the milestone pane's own action: same preview, same refusals
            action_id, what = MILESTONE_CHORES[step.action]
            self._log_used(log)
            log.write_line(f"== {what}: {step.title}")
            perform(self, "milestone", action_id, step, on_done=after(what), preview_in_worker=True)
            return
        if step.workflow is not None:  # release day's workflow: its form, a dry run first, then the watch
            from cockpit.ui.workflow_flow import start_workflow

            start_workflow(self, step, after("start"), self.reload)
            return
        if not step.command:  # the advice matches what space and O then do (issue 32: it contradicted them)
            how = ("do it by hand and tick it with space", "it follows its gate; O signs it by hand")[step.kind.judged]
            self.notify(f"'{step.title}' has no command to run: {how}.", markup=False)
            return
        run_id = "checklist.run_irreversible" if step.irreversible else "checklist.run_command"

        def then_run(ok: bool) -> None:
            after("dry run")(ok)
            if ok:
                start(run_id, "command", on_done=after("command"))

        if step.dry_run:
            start("checklist.dry_run", "dry run", on_done=then_run)
        else:
            start(run_id, "command", on_done=after("command"))

    def _line_writer(self, log: StepLog) -> Any:
        app = self.app

        def write(line: str) -> None:
            app.call_from_thread(log.write_line, line)

        return write

    def action_note(self) -> None:
        view = self.selected_step()
        if view is None or refused_in_viewer(self, "a note is not written from here"):
            return

        def noted(text: str | None) -> None:
            if text is not None:
                perform(
                    self, self.PANE, "checklist.note", (view.step.id, text), confirm=False, on_done=self._reload_if_done
                )

        old = view.signoff.note if view.signoff else ""
        self.app.push_screen(TextInputScreen(f"Note on '{view.step.title}'", value=old), noted)

    def action_override(self) -> None:
        view = self.selected_step()
        if view is not None and not refused_in_viewer(self, "an override is not written from here"):
            self.override(view)

    def override(self, view: StepView) -> None:
        """Ask why, then sign an automatic step over its red or unknown gate (the registry refuses the rest)."""
        gate = view.gate
        if not view.step.kind.judged or gate is None:
            self.notify(f"'{view.step.title}' is a manual step: tick it with space.", markup=False)
            return
        if view.override:
            self.notify(f"'{view.step.title}' is already signed over its gate: {view.override}", markup=False)
            return
        if view.blocked:
            self.notify(f"'{view.step.title}' is {view.blocked}.", title="Not signed", severity="warning", markup=False)
            return
        step = view.step

        def noted(text: str | None) -> None:
            if text is None:
                return
            if not text.strip():
                self.notify(
                    f"Nothing signed: an override of '{step.title}' needs a note saying why it goes ahead "
                    f"over a {STATUS_WORD[gate.status]} gate.",
                    title="Note required",
                    severity="error",
                    markup=False,
                )
                return
            perform(self, self.PANE, "checklist.override", StepOverride(step, gate, text), on_done=self._reload_if_done)

        prompt = f"Override '{step.title}' ({STATUS_WORD[gate.status]} gate): why may it go ahead? (required)"
        self.app.push_screen(TextInputScreen(prompt), noted)

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        view = self.selected_step()
        if view is not None:
            lines = (view.step.help or "No help text.", *step_evidence(view), *step_commands(view))
            self.app.push_screen(DetailScreen(view.step.title, lines=lines))

    def action_walkthrough(self) -> None:
        from cockpit.ui.walkthrough import WalkthroughScreen

        if self.report is None:
            self.notify("The checklist is still loading.", severity="warning")
            return
        key = self.selected_key()
        steps = self.report[0].steps
        start = next((i for i, v in enumerate(steps) if v.step.id == key), 0)
        self.walkthrough = WalkthroughScreen(self, start)
        self.app.push_screen(self.walkthrough, lambda _: setattr(self, "walkthrough", None))
