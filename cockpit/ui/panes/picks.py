"""Pane 2: the tracker's cherry-pick requests joined with their PRs; detail, open, compose the bot command."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from cockpit.domain.gates import GateStatus
from cockpit.domain.picks import PickRow, PickStatus
from cockpit.domain.reports import PicksReport
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.panes.pick_form import BotCommandForm
from cockpit.ui.widgets import days_text, plain, status_text

_STATUS = {
    PickStatus.ACCEPTED: (GateStatus.GREEN, "accepted"),
    PickStatus.REJECTED: (GateStatus.UNKNOWN, "rejected"),
    PickStatus.UNDER_REVIEW: (GateStatus.AMBER, "under review"),
    PickStatus.NO_RELEASE_PR: (GateStatus.RED, "no release PR"),
    PickStatus.UNPARSED: (GateStatus.RED, "unparsed"),
}


class PicksPane(Pane):
    """One row per request comment of the tracker issue."""

    PANE = "picks"
    GATES = ("picks_clear",)
    BINDINGS = [
        Binding("enter", "detail", "Detail", id="picks.detail", tooltip="Show the request comment and its flags"),
        Binding("o", "open", "Open", id="picks.open", tooltip="Open the request comment in the browser"),
        Binding("c", "compose", "Bot command", id="picks.bot_command", tooltip="Compose and post the bot's cherry-pick command for the trunk PR"),
    ]

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="pane-filter")
        yield from super().compose_body()

    def on_mount(self) -> None:
        self.table.add_columns("Author", "Trunk PRs", "Release PRs", "Category", "Status", "Flags", "Age")

    def fetch(self) -> PicksReport:
        return self.backend.load_picks()

    def show(self, report: PicksReport) -> None:
        home = self.backend.config.release.repository
        table = self.table
        table.clear()
        for row in report.rows:
            request = row.request
            status, word = _STATUS.get(row.status, (GateStatus.UNKNOWN, str(row.status)))
            trunk = "NA" if request.trunk_na else " ".join(p.label(home) for p in request.trunk_prs)
            flags = ", ".join(f.value.replace("_", " ") for f in row.flags)
            table.add_row(
                plain(request.author),
                plain(trunk),
                plain(" ".join(p.label(home) for p in request.release_prs) or "—"),
                plain(request.category),
                status_text(self, status, word),
                status_text(self, GateStatus.RED, flags) if flags else Text(""),
                Text(days_text(row.age_days)),
                key=str(request.comment_id),
            )
        unrequested = ", ".join(f"#{p.number} {p.title}" for p in report.unrequested)
        self.query_one(".pane-filter", Static).update(
            Text(f"{report.tracker_title} (#{report.tracker_issue}): {len(report.rows)} requests"
                 + (f" · merged without a request: {unrequested}" if unrequested else ""))
        )

    def selected_row(self) -> PickRow | None:
        key = self.selected_key()
        row = next((r for r in self.report.rows if str(r.request.comment_id) == key), None) if self.report else None
        if row is None:
            self.notify("No request selected.", severity="warning")
        return row

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        row = self.selected_row()
        if row is None:
            return
        request = row.request
        lines = (
            f"Status: {row.status.value.replace('_', ' ')}",
            "Flags: " + (", ".join(f.value.replace("_", " ") for f in row.flags) or "none"),
            *(f"Note: {n}" for n in row.notes),
            *(f"Fixes: {f}" for f in request.fixes),
            f"Comment: {request.html_url}",
        )
        self.app.push_screen(DetailScreen(f"Request by {request.author}", lines=lines, markdown=request.body))

    def action_open(self) -> None:
        row = self.selected_row()
        if row is not None:
            perform(self, self.PANE, "picks.open", row)

    def action_compose(self) -> None:
        row = self.selected_row()
        if row is None:
            return
        if not row.request.trunk_prs:
            self.notify("This request names no trunk PR: the bot can only pick a merged trunk PR.", severity="warning")
            return
        pr = row.request.trunk_prs[0].number

        def composed(answer: tuple[str, str] | None) -> None:
            if answer is not None:
                category, fixes = answer
                perform(self, self.PANE, "picks.bot_command", (pr, category, fixes or None))

        fixes = row.request.fixes[0] if row.request.fixes else ""
        self.app.push_screen(BotCommandForm(pr, self.backend.config.release.branch, fixes=fixes), composed)
