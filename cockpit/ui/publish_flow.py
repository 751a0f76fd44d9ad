"""``P`` on the overview: build the picture, read the tracker for the preview (in a worker), show it,
publish on confirmation. The action itself is the registry's (``overview.publish_status``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.ui.host import require_host
from cockpit.ui.widgets import error_text

if TYPE_CHECKING:
    from cockpit.ui.panes.base import Pane

PUBLISH = "overview.publish_status"


def start_publish(pane: Pane) -> None:
    """Refused at once when the session cannot publish; otherwise the preview, then the dialog."""
    from cockpit.domain.status import StatusInput, StatusPublication

    app, host = pane.app, require_host(pane)
    backend, gates = host.backend, dict(host.gates)
    rel = backend.config.release

    def work() -> None:
        try:
            checklist = backend.load_checklist(gates)
            picture = StatusInput(
                rel.version, rel.repository, rel.branch, gates, checklist, backend.go_no_go(gates, checklist)
            )
            publication = StatusPublication(picture)
            reason = backend.actions.refusal(PUBLISH, publication)
            preview = "" if reason else backend.actions.dry_run(PUBLISH, StatusPublication(picture, read_tracker=True))
        except Exception as exc:  # a worker's failure must reach the screen as words, not a traceback
            app.call_from_thread(app.notify, error_text(exc), title="Cannot publish", severity="error", markup=False)
            return
        if reason:
            app.call_from_thread(app.notify, reason, title="Not done", severity="warning", markup=False)
            return
        app.call_from_thread(_ask, StatusPublication(picture, preview=preview))

    def _ask(publication: StatusPublication) -> None:
        from cockpit.ui.acting import perform
        from cockpit.ui.publish_preview import PublishPreviewScreen

        def answered(yes: bool | None) -> None:
            if yes:
                perform(pane, "overview", PUBLISH, publication, confirm=False)
            else:
                app.notify("Publish the status: cancelled", markup=False)

        app.push_screen(PublishPreviewScreen(publication.preview), answered)

    app.notify("Reading the tracker for the status preview…", markup=False)
    app.run_worker(work, name="publish-preview", group="actions", thread=True, exit_on_error=False)
