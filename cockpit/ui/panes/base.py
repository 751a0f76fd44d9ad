"""What every pane shares: loading its report in a worker thread, showing it or the error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from cockpit.domain.gates import GATE_TITLES, Gate, GateStatus
from cockpit.ui.widgets import GateLine, GatesReported, error_text

if TYPE_CHECKING:
    from cockpit.backend import Backend


class Pane(Vertical):
    """A tab's content. Subclasses set ``PANE`` / ``GATES`` and implement ``fetch`` and ``show``.

    ``fetch`` runs in a worker thread (it may block on git or the network); ``show`` runs on the
    UI thread with its result. A failed fetch shows the error inside the pane and notifies.
    """

    PANE: ClassVar[str] = ""
    GATES: ClassVar[tuple[str, ...]] = ()
    """Names of the gates this pane's report carries (reported UNKNOWN when the load fails)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.PANE:
            # One worker group per pane: a newer load of this pane cancels the older one only.
            cls._start_load = work(
                thread=True, exclusive=True, exit_on_error=False, group=cls.PANE,
                name=f"load {cls.PANE}", description=f"Loading the {cls.PANE} report",
            )(Pane._fetch_in_thread)

    def __init__(self, backend: "Backend", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend = backend
        self.report: Any = None
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        yield GateLine("", classes="gate-line")
        yield Static("", classes="pane-error")
        yield from self.compose_body()

    def compose_body(self) -> ComposeResult:
        yield DataTable(zebra_stripes=True, cursor_type="row", classes="pane-table")

    @property
    def body(self) -> Widget:
        """The widget that shows the loading indicator and takes the focus."""
        return self.query(".pane-table").first()

    @property
    def table(self) -> DataTable:
        return self.query_one(".pane-table", DataTable)

    def focus_body(self) -> None:
        self.body.focus()

    def reload(self) -> None:
        """Fetch this pane's report again in its worker group; a newer load cancels an older one."""
        self.body.loading = True
        self._start_load()

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

    def _loaded(self, report: Any) -> None:
        self.report, self.error = report, None
        self.query_one(".pane-error", Static).display = False
        self.body.loading = False
        self.body.display = True
        self._keeping_cursor(lambda: self.show(report))
        gates = self.gates_of(report)
        if gates:
            self._show_gate_line(gates[0])
            self.post_message(GatesReported(gates))
        self.app.query_one("CockpitHeader").show_budget(self.backend.rate_limit_text())

    def _keeping_cursor(self, render: Any) -> None:
        """Re-render without losing the release manager's place in the table."""
        tables = self.query(".pane-table").results(DataTable)
        table = next(iter(tables), None)
        key = self.selected_key() if table is not None else None
        row = table.cursor_row if table is not None else 0
        render()
        if table is None or not table.row_count:
            return
        try:
            row = table.get_row_index(key) if key is not None else row
        except Exception:  # the row is gone: stay at the same height
            pass
        table.move_cursor(row=min(row, table.row_count - 1), animate=False, scroll=True)

    def _failed(self, exc: BaseException) -> None:
        self.error = error_text(exc)
        self.body.loading = False
        error = self.query_one(".pane-error", Static)
        error.update(Text(f"Could not load this pane.\n{self.error}\nPress r to try again."))
        error.display = True
        self.body.display = self.report is not None
        self.notify(self.error, title=f"{self.PANE} failed to load", severity="error", markup=False)
        unknown = tuple(
            Gate(n, GATE_TITLES.get(n, n), GateStatus.UNKNOWN, f"could not load: {self.error}") for n in self.GATES
        )
        if unknown:
            self._show_gate_line(unknown[0])
            self.post_message(GatesReported(unknown))

    def _show_gate_line(self, gate: Gate) -> None:
        for line in self.query(GateLine):
            line.show_gate(gate)

    def gates_of(self, report: Any) -> tuple[Gate, ...]:
        """The gates a report carries; most reports carry one, in ``report.gate``."""
        gate = getattr(report, "gate", None)
        return (gate,) if gate is not None else ()

    def selected_key(self) -> str | None:
        """The row key under the table's cursor, or None when the table is empty."""
        table = self.table
        if not table.row_count:
            return None
        try:
            return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # cursor outside the rows after a filter
            return None
