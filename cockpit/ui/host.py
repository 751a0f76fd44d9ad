"""How a pane reaches the app it runs in: a small protocol the cockpit's app implements, and the
message a pane posts to it.

Textual types ``widget.app`` as a plain ``App``. A pane, a dialog or an action asks ``host_of(widget)``
for the cockpit's side of it (``PaneHost``), checked at run time against the protocol, never cast; a
pane mounted alone in a test's app gets that app when it implements the protocol too. What a pane
tells the app (its loads started or ended, its gates) goes up as messages (``WorkChanged`` here, the
gates and the verdict in ``cockpit.ui.widgets``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.message import Message
from textual.widget import Widget

if TYPE_CHECKING:
    from cockpit.backend import Backend
    from cockpit.domain.gates import Gate
    from cockpit.domain.repos import RepoReport


class HostedPane(Protocol):
    """What one pane may read of another through its host: its latest report (None before one); and
    what an action may ask of a pane whose data it changed: to load again."""

    report: Any
    failures: int
    """How many loads in a row failed (0 after a good one)."""

    def reload(self) -> None:
        """Load the pane's report again in its worker."""
        ...


@runtime_checkable
class PaneHost(Protocol):
    """What the cockpit's panes, dialogs and actions ask of the app they run in."""

    backend: Backend
    """The one backend of the session: reports, state file, actions."""
    clock: Callable[[], datetime]
    """Gives "now" for ages (fixed in tests)."""
    gates: dict[str, Gate]
    """Every gate reported so far, by name."""
    repo_choice: str
    """The repository filter (``cockpit.ui.repo_rows``): "" for all."""
    library_reports: tuple[RepoReport, ...]
    """Each domain library's report, once the overview loaded them."""

    @property
    def current_name(self) -> str:
        """The name of the pane on screen."""
        ...

    def mounted_pane(self, name: str) -> HostedPane | None:
        """Pane ``name`` once it is in place, else None."""
        ...


def host_of(widget: Widget) -> PaneHost | None:
    """The app running ``widget`` as a ``PaneHost``; None when it is not one (a widget in another app)."""
    app = widget.app
    return app if isinstance(app, PaneHost) else None


def require_host(widget: Widget) -> PaneHost:
    """``host_of``, for code that only ever runs in a host (actions, dialogs): a clear error otherwise."""
    host = host_of(widget)
    if host is None:
        raise TypeError(f"{type(widget).__name__} runs in {type(widget.app).__name__}, which is not a PaneHost")
    return host


class WorkChanged(Message):
    """A pane's load or action started or ended: the app's status bar says what is in flight."""
