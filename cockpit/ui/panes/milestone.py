"""Pane 1: every issue and PR of the milestone, filterable; open, remove, post the validation comment."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import age_text, plain, status_text

_STATE_STATUS = {
    ItemState.OPEN: GateStatus.RED,
    ItemState.MERGED: GateStatus.GREEN,
    ItemState.CLOSED: GateStatus.GREEN,
    ItemState.CLOSED_UNMERGED: GateStatus.AMBER,
}
_STATE_WORD = {
    ItemState.OPEN: "open",
    ItemState.MERGED: "merged",
    ItemState.CLOSED: "closed",
    ItemState.CLOSED_UNMERGED: "closed unmerged",
}


class MilestonePane(Pane):
    """The milestone's items; the gate "no open items" on top."""

    PANE = "milestone"
    GATES = ("milestone_empty",)
    BINDINGS = [
        Binding("f", "cycle_open", "Open/all", id="milestone.filter_open", tooltip="Show open items only, or all items"),
        Binding("p", "only_kind('pull')", "PRs", id="milestone.filter_prs", tooltip="Show pull requests only (again: both)"),
        Binding("i", "only_kind('issue')", "Issues", id="milestone.filter_issues", tooltip="Show issues only (again: both)"),
        Binding("enter", "detail", "Detail", show=False, id="milestone.detail", tooltip="Show the selected item in full"),
        Binding("o", "open", "Open", id="milestone.open", tooltip="Open the selected item in the browser"),
        Binding("d", "remove", "Remove", id="milestone.remove", tooltip="Remove the selected item from the milestone"),
        Binding("v", "validate", "Validate", id="milestone.validate", tooltip="Post the validation comment on the selected closed item"),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.open_only = False
        self.kind: ItemKind | None = None

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="pane-filter")
        yield from super().compose_body()

    def on_mount(self) -> None:
        self.table.add_columns("#", "Kind", "State", "Title", "Labels", "Assignees", "Updated")

    def fetch(self) -> MilestoneReport:
        return self.backend.load_milestone()

    def visible_items(self) -> list[MilestoneItem]:
        """The items the filters let through, in the report's order."""
        if self.report is None:
            return []
        items = self.report.items
        return [
            i for i in items
            if (not self.open_only or i.state.is_open) and (self.kind is None or i.kind is self.kind)
        ]

    def show(self, report: MilestoneReport) -> None:
        table = self.table
        table.clear()
        now = self.app.clock()
        for item in self.visible_items():
            table.add_row(
                Text(f"#{item.number}"),
                Text("PR" if item.kind is ItemKind.PULL else "issue"),
                status_text(self, _STATE_STATUS[item.state], _STATE_WORD[item.state]),
                plain(item.title),
                plain(", ".join(item.labels)),
                plain(", ".join(item.assignees)),
                Text(age_text(item.updated_at, now)),
                key=str(item.number),
            )
        shown = "open only" if self.open_only else "open and closed"
        kind = {None: "issues and PRs", ItemKind.PULL: "PRs only", ItemKind.ISSUE: "issues only"}[self.kind]
        skipped = f" · {len(report.skipped)} skipped (release-feature-request)" if report.skipped else ""
        self.query_one(".pane-filter", Static).update(
            Text(f"Milestone {report.milestone.title}: {len(table.rows)} of {len(report.items)} shown ({shown}, {kind}){skipped}")
        )

    def _rerender(self) -> None:
        if self.report is not None:
            self._keeping_cursor(lambda: self.show(self.report))

    def action_cycle_open(self) -> None:
        self.open_only = not self.open_only
        self._rerender()

    def action_only_kind(self, kind: str) -> None:
        wanted = ItemKind(kind)
        self.kind = None if self.kind is wanted else wanted
        self._rerender()

    def selected_item(self) -> MilestoneItem | None:
        key = self.selected_key()
        if key is None or self.report is None:
            self.notify("No item selected.", severity="warning")
            return None
        return next((i for i in self.report.items if str(i.number) == key), None)

    def _act(self, action_id: str, reload_after: bool) -> None:
        item = self.selected_item()
        if item is not None:
            done = (lambda ok: ok and self.reload()) if reload_after else None
            perform(self, self.PANE, action_id, item, on_done=done)

    def action_open(self) -> None:
        self._act("milestone.open", False)

    def action_remove(self) -> None:
        self._act("milestone.remove", True)

    def action_validate(self) -> None:
        self._act("milestone.validate", False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        item = self.selected_item()
        if item is None:
            return
        lines = (
            f"{'Pull request' if item.kind is ItemKind.PULL else 'Issue'} · {_STATE_WORD[item.state]}"
            + (f" · by {item.author}" if item.author else ""),
            "Labels: " + (", ".join(item.labels) or "none"),
            "Assignees: " + (", ".join(item.assignees) or "none"),
            *((f"Linked PRs: {' '.join(f'#{n}' for n in item.linked_prs)}",) if item.linked_prs else ()),
            item.html_url,
        )
        self.app.push_screen(DetailScreen(f"#{item.number} {item.title}", lines=lines, markdown=item.body or None))
