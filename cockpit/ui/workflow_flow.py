"""The checklist's way into release day's workflows: ``x`` on a step a workflow performs opens its start
form (read in a worker), the start goes through the action registry (confirmation, typed version for the
real run, audit), and the run it made opens in a watch; ``W`` watches the step's latest run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cockpit.ui.acting import perform, refused_in_viewer
from cockpit.ui.host import require_host
from cockpit.ui.widgets import error_text

if TYPE_CHECKING:
    from textual.widget import Widget

    from cockpit.domain.checklist import ChecklistStep
    from cockpit.services.dispatch_form import StartForm, StartRequest


def _in_worker(widget: Widget, name: str, work: Callable[[], None]) -> None:
    widget.app.run_worker(work, name=name, group="actions", description=name, thread=True, exit_on_error=False)


def start_workflow(
    widget: Widget,
    step: ChecklistStep,
    on_done: Callable[[bool], None],
    on_close: Callable[[], None] | None = None,
) -> None:
    """Read the form of ``step``'s workflow, show it, start what the release manager asks for, watch it."""
    app = widget.app
    if refused_in_viewer(widget, f"'{step.title}' is not started from here"):
        return
    backend = require_host(widget).backend

    def work() -> None:
        try:
            form = backend.workflow_start_form(step.id)
        except Exception as exc:  # an unreadable file, GitHub not answering: said, no stale form
            app.call_from_thread(app.notify, error_text(exc), title="Cannot start", severity="error", markup=False)
            return
        app.call_from_thread(show, form)

    def show(form: StartForm) -> None:
        from cockpit.ui.workflow_screens import StartWorkflowScreen

        def chosen(request: StartRequest | None) -> None:
            if request is None:
                app.notify(f"{step.title}: nothing started", markup=False)
                return
            action_id = "workflow.dry_run" if request.dry_run else "workflow.real_run"

            def done(ok: bool) -> None:
                on_done(ok)
                if ok:
                    watch_step(widget, step, on_close)

            perform(widget, "checklist", action_id, request, on_done=done)

        app.push_screen(StartWorkflowScreen(form), chosen)

    app.notify(f"{step.title}: reading the workflow file…", markup=False)
    _in_worker(widget, f"form of {step.id}", work)


def watch_step(widget: Widget, step: ChecklistStep, on_close: Callable[[], None] | None = None) -> None:
    """Watch the latest run of ``step``'s workflow: the one the cockpit started last, else the newest on its ref;
    ``on_close`` runs when the watch screen closes (a run re-run or approved there changes the checklist)."""
    app = widget.app
    backend = require_host(widget).backend

    def work() -> None:
        try:
            latest = backend.latest_workflow_run(step.id)
        except Exception as exc:
            app.call_from_thread(app.notify, error_text(exc), title="Cannot watch", severity="error", markup=False)
            return
        if latest is None:
            app.call_from_thread(app.notify, f"'{step.title}': its workflow has no run yet", markup=False)
            return
        app.call_from_thread(show, *latest)

    def show(repository: str, run_id: int) -> None:
        from cockpit.ui.workflow_screens import RunWatchScreen

        app.push_screen(
            RunWatchScreen(repository, run_id, lambda: backend.watch_run(repository, run_id), title=step.title),
            (lambda _closed: on_close()) if on_close is not None else None,
        )

    _in_worker(widget, f"watch {step.id}", work)
