"""What the app looks at once a second and when work starts or ends: the status bar (loads and
actions in flight, the API budget) and the state file another session may have changed."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.worker import WorkerState

from cockpit.ui.host import PaneHost
from cockpit.ui.widgets import StatusBar

if TYPE_CHECKING:
    from textual.app import App

    from cockpit.backend import Backend

_log = logging.getLogger("cockpit.ui")


def show_status(app: App[Any], backend: Backend, pane_names: Iterable[str]) -> None:
    """The status bar: which panes are loading, which failed their last load (said once as a notice, then here
    until a load succeeds), which actions are running, the API budget."""
    busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
    names = list(pane_names)
    loading = [name for name in names if any(w.group == name for w in busy)]
    running = [w.name for w in busy if w.group == "actions"]
    bar = next(iter(app.query(StatusBar)), None)
    if bar is None:  # the app is closing (workers end as their widgets go): nothing to show
        return
    host = app if isinstance(app, PaneHost) else None
    panes = [(name, host.mounted_pane(name) if host is not None else None) for name in names]
    failing = [name for name, pane in panes if pane is not None and pane.failures and name not in loading]
    bar.show_tasks(loading, running, failing)
    bar.show_budget(backend.rate_limit_text())


def state_changed(backend: Backend) -> bool:
    """Whether another session changed the state file (it is read again then)."""
    try:
        return backend.state.reload_if_changed()
    except Exception as exc:  # a state file being replaced under us: try again next tick
        _log.info("could not re-read the state file: %s", exc)
        return False
