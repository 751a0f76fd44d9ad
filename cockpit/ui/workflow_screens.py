"""Release-day workflows on screen: the start form of a step's workflow, and a run watched as
``gh run watch`` shows it (jobs, failed steps, the tail of a failed job's log, the approval it waits for).

The form is built from the workflow file's own inputs (``cockpit.services.dispatch_form``): a choice is
a list of its options, every other input a text field, the dry-run input set by the button pressed.
The real run's button stays disabled, with the reason beside it, until a dry run with the same inputs
succeeded. The watch reads the run in a worker every few seconds: keys never wait on GitHub.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from cockpit.services.dispatch_form import StartForm, StartRequest, problems

if TYPE_CHECKING:
    from cockpit.domain.workflows import RunWatch

WATCH_EVERY_S = 5.0
"""How often an open watch reads its run again."""

CSS = """
StartWorkflowScreen, RunWatchScreen { align: center middle; }
.workflow-inputs { height: auto; max-height: 20; }
.workflow-head { width: 1fr; height: auto; }
.workflow-input { height: auto; margin-bottom: 1; }
.workflow-input Label { color: $text-muted; }
.workflow-why { color: $text-warning; }
#watch-body { height: 1fr; background: $boost; padding: 0 1; }
.dialog.watch { height: 90%; }
"""


class StartWorkflowScreen(ModalScreen[StartRequest | None]):
    """The start form; dismisses with the ``StartRequest`` asked for, or None."""

    DEFAULT_CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="workflow.form.cancel", tooltip="Start nothing"),
        Binding(
            "ctrl+t", "dry", "Dry run", id="workflow.form.dry", tooltip="Start the dry run (a trial) with these inputs"
        ),
        Binding("ctrl+r", "real", "Real run", id="workflow.form.real", tooltip="Start the real run (typed version)"),
    ]

    def __init__(self, form: StartForm) -> None:
        super().__init__()
        self.form = form
        self._dry_name = form.spec.real_run[0] if form.has_dry_run and form.spec.real_run else ""

    def compose(self) -> ComposeResult:
        form, spec = self.form, self.form.spec
        with Vertical(classes="dialog -mutating", id="workflow-form"):
            yield Static(Text(f"Start: {form.title}", style="bold"), classes="workflow-head")
            where = f"{spec.repository} {spec.path} on {spec.ref} (file {form.file.sha[:12] or '?'})"
            yield Static(Text(where), classes="workflow-head")
            for line in form.unfinished:
                yield Static(Text(f"Earlier: {line}"), classes="workflow-head workflow-why")
            with VerticalScroll(classes="workflow-inputs"):
                for field in form.file.inputs:
                    with Vertical(classes="workflow-input"):
                        need = ", required" if field.required else ""
                        about = f" · {field.description}" if field.description else ""
                        yield Label(Text(f"{field.name} ({field.type}{need}){about}"))
                        value = form.value(field.name)
                        if field.name == self._dry_name:
                            yield Label(Text(f"{value}  (set by the button: dry run or real run)"))
                        elif field.type in ("choice", "boolean"):
                            options = field.options if field.type == "choice" else ("true", "false")
                            shown = value if value in options else Select.BLANK
                            yield Select(
                                ((o, o) for o in options), value=shown, id=f"in-{field.name}", allow_blank=False
                            )
                        else:
                            yield Input(value=value, id=f"in-{field.name}", select_on_focus=False)
            if form.has_dry_run and form.real_refused:
                yield Static(Text(f"Real run not yet: {form.real_refused}"), classes="workflow-head workflow-why")
            with Horizontal(classes="dialog-buttons"):
                if form.has_dry_run:
                    yield Button("Dry run (ctrl+t)", variant="primary", id="start-dry")
                    yield Button(
                        "Real run (ctrl+r)", variant="error", id="start-real", disabled=bool(form.real_refused)
                    )
                else:
                    yield Button("Start (ctrl+r)", variant="error", id="start-real")
                yield Button("Cancel (esc)", id="start-cancel")

    def on_mount(self) -> None:
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        # The inputs scroll; they give way so that the buttons stay on a small terminal (80x24): the dialog is
        # at most 90% of the screen, and its other parts (border, padding, heads, buttons) take the rest.
        around = 12 + len(self.form.unfinished) + (2 if self.form.real_refused else 0)
        room = int(self.app.size.height * 0.9) - around
        self.query_one(".workflow-inputs", VerticalScroll).styles.max_height = max(3, min(20, room))

    def values(self, *, dry: bool) -> dict[str, str]:
        """The form's values as typed, the dry-run input set for ``dry``."""
        values = dict(self.form.values)
        for field in self.form.file.inputs:
            if field.name == self._dry_name:
                continue
            for widget in self.query(f"#in-{field.name}"):
                value = widget.value if isinstance(widget, (Input, Select)) else None
                if isinstance(value, str):
                    values[field.name] = value
        if self._dry_name and self.form.spec.real_run:
            from cockpit.services.dispatch_form import dry_value

            real_value = self.form.spec.real_run[1]
            values[self._dry_name] = dry_value(self.form.file.input(self._dry_name), real_value) if dry else real_value
        return values

    def _ask(self, *, dry: bool) -> None:
        values = self.values(dry=dry)
        wrong = problems(self.form.file, values)
        if wrong:
            self.notify("; ".join(wrong), title="Not started", severity="warning", markup=False)
            return
        if not dry and self.form.has_dry_run and self.form.real_refused:
            self.notify(self.form.real_refused, title="Real run not yet", severity="warning", markup=False)
            return
        self.dismiss(StartRequest(self.form, tuple(values.items()), dry_run=dry and self.form.has_dry_run))

    @on(Button.Pressed, "#start-dry")
    def action_dry(self) -> None:
        if self.form.has_dry_run:
            self._ask(dry=True)

    @on(Button.Pressed, "#start-real")
    def action_real(self) -> None:
        self._ask(dry=False)

    @on(Button.Pressed, "#start-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class RunWatchScreen(ModalScreen[None]):
    """One run, read again every ``WATCH_EVERY_S`` seconds in a worker; its actions through the registry."""

    DEFAULT_CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="watch.close", tooltip="Close the watch (the run goes on)"),
        Binding("r", "rerun", "Re-run failed", id="watch.rerun", tooltip="Re-run the run's failed jobs"),
        Binding("c", "cancel_run", "Cancel run", id="watch.cancel", tooltip="Cancel the run"),
        Binding("a", "approve", "Approve", id="watch.approve", tooltip="Approve the deployment it waits for"),
        Binding("d", "reject", "Reject", id="watch.reject", tooltip="Reject the deployment it waits for"),
        Binding("o", "open", "Open", id="watch.open", tooltip="Open the run in the browser"),
    ]

    def __init__(self, repository: str, run_id: int, read: Callable[[], RunWatch], *, title: str = "") -> None:
        super().__init__()
        self.repository, self.run_id, self.read, self.title_text = repository, run_id, read, title
        self.last: RunWatch | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog watch"):
            yield Static(Text(f"Run {self.run_id} · {self.title_text}", style="bold"), classes="workflow-head")
            yield Static(Text("reading the run…"), id="watch-body")
            yield Label("r re-run failed · c cancel · a approve · d reject · o open · esc close", classes="dialog-hint")

    def on_mount(self) -> None:
        self.refresh_run()
        self.set_interval(WATCH_EVERY_S, self.refresh_run)

    def refresh_run(self) -> None:
        self.run_worker(self._read, thread=True, group="watch", exclusive=True, exit_on_error=False)

    def _read(self) -> None:
        from cockpit.errors import CockpitError
        from cockpit.services.run_watch import watch_lines

        try:
            w = self.read()
        except CockpitError as exc:
            self.app.call_from_thread(self._show, None, [f"cannot read run {self.run_id}: {exc}"])
            return
        self.app.call_from_thread(self._show, w, watch_lines(w))

    def _show(self, w: RunWatch | None, lines: list[str]) -> None:
        if w is not None:
            self.last = w
        if self.is_attached:
            self.query_one("#watch-body", Static).update(Text("\n".join(lines)))

    def _target(self, comment: str = "") -> Any:
        from cockpit.domain.workflows import RunTarget

        pending = self.last.pending if self.last is not None else ()
        environments = tuple((p.environment_id, p.environment) for p in pending)
        return RunTarget(self.repository, self.run_id, self.title_text, environments, comment)

    def _act(self, action_id: str, target: Any) -> None:
        from cockpit.ui.acting import perform

        perform(self, "checklist", action_id, target, on_done=lambda _ok: self.refresh_run())

    def action_rerun(self) -> None:
        self._act("workflow.rerun", self._target())

    def action_cancel_run(self) -> None:
        self._act("workflow.cancel", self._target())

    def _review(self, action_id: str, verb: str) -> None:
        from cockpit.ui.confirm import TextInputScreen

        if self.last is None or not self.last.pending:
            self.notify(f"run {self.run_id} waits for no approval", severity="warning", markup=False)
            return
        names = ", ".join(p.environment for p in self.last.pending)

        def then(comment: str | None) -> None:
            if comment is None:
                return
            if not comment.strip():
                self.notify("a review needs a comment saying why", severity="warning", markup=False)
                return
            self._act(action_id, self._target(comment.strip()))

        self.app.push_screen(TextInputScreen(f"{verb} the deployment to {names}: your comment"), then)

    def action_approve(self) -> None:
        self._review("workflow.approve", "Approve")

    def action_reject(self) -> None:
        self._review("workflow.reject", "Reject")

    def action_open(self) -> None:
        url = self.last.run.html_url if self.last is not None else ""
        if url:
            self.app.open_url(url)
            self.notify(f"the run: {url}", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)
