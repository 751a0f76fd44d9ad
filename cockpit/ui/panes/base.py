"""What every pane shares: loading its report in a worker thread, showing it or the error.

When a reload fails after a good one, the pane keeps the last good table, marks its gate line
"STALE · last good 3 min ago", shows the error above the table, notifies, and tries again by
itself with a bounded backoff (never sooner than a rate limit's reset, never later than the cap).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, get_current_worker

from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import CockpitError, GitHubError, RateLimited, ReadOnlyError, StorageError
from cockpit.gates import gate_spec, gate_title
from cockpit.ui.host import WorkChanged, host_of
from cockpit.ui.widgets import GateLine, GatesReported, error_text, since_text

_log = logging.getLogger("cockpit.ui")


def retry_delay(failures: int, exc: BaseException, *, base: float, cap: float) -> float | None:
    """Seconds before the next automatic reload, or None when retrying would not help.

    Doubles from ``base`` with each failure in a row, up to ``cap``; a rate limit waits for its
    reset (within the cap). Only the outside world's passing troubles are retried.
    """
    if isinstance(exc, ReadOnlyError) or not isinstance(exc, (GitHubError, StorageError)):
        return None
    delay = base * 2 ** max(0, failures - 1)
    reset_at = getattr(exc, "reset_at", None) if isinstance(exc, RateLimited) else None
    if reset_at:
        delay = max(delay, reset_at - time.time())
    return min(cap, delay)


if TYPE_CHECKING:
    from cockpit.backend import Backend
    from cockpit.ui.rows_table import RowsTable  # imported when a table pane is built, after the first paint


class Pane(Vertical):
    """A tab's content. Subclasses set ``PANE`` / ``GATES`` and implement ``fetch`` and ``show``.

    ``fetch`` runs in a worker thread (it may block on git or the network); ``show`` runs on the
    UI thread with its result. A failed fetch shows the error inside the pane and notifies.
    """

    PANE: ClassVar[str] = ""
    GATES: ClassVar[tuple[str, ...]] = ()
    """Names of the gates this pane's report carries (reported UNKNOWN when the load fails)."""
    RETRY_BASE_S: ClassVar[float] = 5.0
    RETRY_MAX_S: ClassVar[float] = 120.0
    _start_load: Callable[[], object]  # this pane class's load worker, made by __init_subclass__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.PANE:
            # One worker group per pane: a newer load of this pane cancels the older one only.
            cls._start_load = work(
                thread=True,
                exclusive=True,
                exit_on_error=False,
                group=cls.PANE,
                name=f"load {cls.PANE}",
                description=f"Loading the {cls.PANE} report",
            )(Pane._fetch_in_thread)

    def __init__(self, backend: Backend, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend = backend
        self.report: Any = None
        self.error: str | None = None
        self.loaded_at: datetime | None = None
        self.failures = 0
        self.stale = False
        self.last_failure: BaseException | None = None  # why the latest load failed; None once one succeeds
        self._last_gate: Gate | None = None
        self._retry_timer: Any = None
        self.refreshing = False
        """A reload is running while the last report stays on screen."""

    def on_worker_state_changed(self, _event: Worker.StateChanged) -> None:
        # The message does not bubble: tell the app's status bar that a load started or ended.
        self.post_message(WorkChanged())

    def compose(self) -> ComposeResult:
        yield GateLine("", classes="gate-line")
        yield Static("", classes="pane-error")
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        from cockpit.ui.rows_table import RowsTable

        yield RowsTable(zebra_stripes=True, cursor_type="row", classes="pane-table")

    @property
    def body(self) -> Widget:
        """The widget that shows the loading indicator and takes the focus."""
        return self.query(".pane-table").first()

    @property
    def table(self) -> RowsTable:
        from cockpit.ui.rows_table import RowsTable

        return self.query_one(".pane-table", RowsTable)

    def focus_body(self) -> None:
        """Focus the body now (``Widget.focus`` defers: a pane key pressed just after another
        would let the first pane's focus land after the second pane's, in a hidden pane).

        Nothing while the pane is still being composed: it takes the focus once loaded.
        """
        if self.is_mounted and self.query(".pane-table"):
            self.screen.set_focus(self.body)

    def reload(self) -> None:
        """Fetch this pane's report again in its worker group; a newer load cancels an older one.

        Only the first load covers the pane (there is nothing to show yet); a reload leaves the
        table in use, keys and all, and says "refreshing…" on the gate line until it ends.
        """
        if self.report is None:
            self.body.loading = True
        else:
            self.refreshing = True
            self._show_gate_line(self._last_gate)
        self._start_load()

    def reload_with(self, gates: dict[str, Gate]) -> None:
        """Load again, given the gates the other panes reported (the checklist judges its steps on
        them; the other panes need none of them)."""
        self.reload()

    def _take_focus_if_shown(self) -> None:
        """A widget under its loading indicator takes no focus: a pane shown while it was loading
        (a number key at start, say) takes it now, unless something else has it."""
        if self._shown_without_focus():
            self.call_after_refresh(lambda: self.focus_body() if self._shown_without_focus() else None)

    def _shown_without_focus(self) -> bool:
        host = host_of(self)
        return self.app.focused is None and host is not None and host.current_name == self.PANE

    def fetch(self) -> Any:
        """Blocking: ask the backend for this pane's report (runs in a worker thread)."""
        raise NotImplementedError

    def show(self, report: Any) -> None:
        """Render ``report`` (UI thread)."""
        raise NotImplementedError

    def _fetch_in_thread(self) -> None:
        worker = get_current_worker()
        try:
            report = self.fetch()
        except Exception as exc:  # any failure of the outside world ends in the pane, not a crash
            if not worker.is_cancelled:
                self.app.call_from_thread(self._failed, exc)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._loaded, report)

    def now(self) -> datetime:
        """The app's clock (injected in tests)."""
        host = host_of(self)
        return host.clock() if host is not None else datetime.now(UTC)

    def _loaded(self, report: Any) -> None:
        self.refreshing = False
        self.report, self.error = report, None
        self.loaded_at, self.failures, self.stale = self.now(), 0, False
        self.last_failure = None
        self.remove_class("-stale")
        self._cancel_retry()
        self.query_one(".pane-error", Static).display = False
        self.body.loading = False
        self._take_focus_if_shown()
        self.body.display = True
        self._keeping_cursor(self.render_report)
        gates = self.gates_of(report)
        if gates:
            self._last_gate = gates[0]
            self._show_gate_line(gates[0])
            self.post_message(GatesReported(gates))

    def render_report(self) -> None:
        """Draw the current report (tables add their filter and sort on top)."""
        self.show(self.report)

    def rerender(self) -> None:
        """Draw the report again in place (a filter, a sort or the theme changed), cursor kept."""
        if self.report is not None:
            self._keeping_cursor(self.render_report)

    def _keeping_cursor(self, render: Any) -> None:
        """Re-render without losing the release manager's place in the table."""
        from cockpit.ui.rows_table import RowsTable

        tables = self.query(".pane-table").results(RowsTable)
        table = next(iter(tables), None)
        key = self.selected_key() if table is not None else None
        row = table.cursor_row if table is not None else 0
        render()
        if table is None or not table.row_count:
            return
        with contextlib.suppress(Exception):  # the row is gone: stay at the same height
            row = table.get_row_index(key) if key is not None else row
        table.move_cursor(row=min(row, table.row_count - 1), animate=False, scroll=True)

    def inputs_failed(self, exc: BaseException) -> None:
        """The data this pane's report is derived from could not be refreshed (``exc`` says why):
        the report is as stale as that data, exactly as if this pane's own load had failed."""
        self._failed(exc)

    def _failed(self, exc: BaseException) -> None:
        self.refreshing = False
        self.last_failure = exc
        said, self.error = self.error if self.failures else None, error_text(exc)
        self.failures += 1
        _log.info(
            "%s failed to load (%d in a row): %s",
            self.PANE,
            self.failures,
            self.error,
            exc_info=None if isinstance(exc, CockpitError) else (type(exc), exc, exc.__traceback__),
        )
        self.body.loading = False
        self._take_focus_if_shown()
        self.stale = self.report is not None and self.loaded_at is not None
        self.set_class(self.stale, "-stale")
        delay = retry_delay(self.failures, exc, base=self.RETRY_BASE_S, cap=self.RETRY_MAX_S)
        again = f"Trying again in {delay:.0f} s; press r to try now." if delay is not None else "Press r to try again."
        error = self.query_one(".pane-error", Static)
        if self.stale:
            error.update(
                Text(f"Showing the last good data ({self.stale_text()}). Could not refresh:\n{self.error}\n{again}")
            )
        else:
            error.update(Text(f"Could not load this pane.\n{self.error}\n{again}"))
        error.display = True
        self.body.display = self.report is not None
        if self.error != said:  # once a streak (issue 32): a retry failing the same way is in the pane and status bar
            self.notify(self.error, title=f"{self.PANE} failed to load", severity="error", markup=False)
        self._schedule_retry(delay)
        unknown = tuple(Gate(n, gate_title(n), GateStatus.UNKNOWN, self._unknown_summary(n)) for n in self.GATES)
        if self.stale and self._last_gate is not None:
            self._show_gate_line(self._last_gate)
        elif unknown:
            self._show_gate_line(unknown[0])
        if unknown:
            self.post_message(GatesReported(unknown))

    def _unknown_summary(self, name: str) -> str:
        last = self._last_gate
        if self.stale and last is not None and last.name == name:
            return f"{self.stale_text()} ({last.status.value}: {last.summary}); could not refresh: {self.error}"
        return f"could not load: {self.error}"

    def stale_text(self) -> str:
        """``STALE · last good 3 min ago``, or "" while the data is fresh."""
        if not self.stale or self.loaded_at is None:
            return ""
        return f"STALE · last good {since_text(self.loaded_at, self.now())}"

    def show_staleness(self) -> None:
        """Re-draw the stale marker with the current age (the app calls this every second)."""
        if self.stale and self._last_gate is not None:
            self._show_gate_line(self._last_gate)

    def _schedule_retry(self, delay: float | None) -> None:
        self._cancel_retry()
        if delay is not None:
            self._retry_timer = self.set_timer(delay, self.retry)

    def _cancel_retry(self) -> None:
        if self._retry_timer is not None:
            self._retry_timer.stop()
            self._retry_timer = None

    def retry(self) -> None:
        """The automatic reload after a failure (the checklist pane re-evaluates its gates)."""
        self._retry_timer = None
        self.reload()

    def _show_gate_line(self, gate: Gate | None) -> None:
        if gate is None:
            return
        note = self.stale_text()
        for line in self.query(GateLine):
            line.show_gate(gate, note=note, busy="refreshing…" if self.refreshing else "")

    def gates_of(self, report: Any) -> tuple[Gate, ...]:
        """The pane's gates, each read from its report as its declaration in ``cockpit.gates`` says."""
        return tuple(read(report) for name in self.GATES if (read := gate_spec(name).read) is not None)

    def selected_key(self) -> str | None:
        """The row key under the table's cursor, or None when the table is empty."""
        table = self.table
        if not table.row_count:
            return None
        try:
            return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # cursor outside the rows after a filter
            return None
