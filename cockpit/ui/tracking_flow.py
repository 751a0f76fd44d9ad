"""The checklist's tracking issue (``cockpit.actions.tracking_issue``): `I` opens it (preview first) or, once
it exists, keeps it in step (preview first); after that, each time a step turns done the checklist ticks
its box by itself, in the background, audited like any other action (never in a read-only session).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.ui.host import require_host

if TYPE_CHECKING:
    from textual.widget import Widget

    from cockpit.domain.reports import ChecklistReport

OPEN, SYNC = "checklist.tracking_issue", "checklist.tracking_sync"


def tracking_key(widget: Widget) -> None:
    """`I`: open the tracking issue, or bring it in step, each behind its preview."""
    from cockpit.ui.acting import perform, refused_in_viewer

    if refused_in_viewer(widget, "the tracking issue is neither opened nor edited from here"):
        return
    registry = require_host(widget).backend.actions
    action_id = SYNC if registry.refusal(OPEN, None) else OPEN
    perform(widget, "checklist", action_id, None, preview_in_worker=True)


def follow(widget: Widget, report: ChecklistReport, seen: set[str]) -> None:
    """Tick the tracking issue's boxes of the steps that turned done since ``seen`` (updated in place)."""
    backend = require_host(widget).backend
    done = {v.step.id for v in report.steps if v.done}
    if done <= seen:
        return
    first = not seen
    seen |= done
    if first or backend.read_only:  # the first report is the starting point; a viewer never writes
        return
    registry = backend.actions
    if registry.refusal(SYNC, None):  # no tracking issue recorded: nothing to keep in step
        return
    app = widget.app

    def work() -> None:
        result = registry.run(SYNC, None, confirmed=True)
        if result.ok and "ticked" in result.message:
            app.call_from_thread(app.notify, result.message, title="Tracking issue", markup=False)
        elif not result.ok:
            app.call_from_thread(app.notify, result.message, title="Tracking issue", severity="warning", markup=False)

    app.run_worker(work, name="tracking issue", group="actions", thread=True, exit_on_error=False)
