"""Pane 1: every issue and PR of the milestone, filterable and sortable; open, remove, validate."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.gates import names_on
from cockpit.services.milestone import filter_items, labels_present, linked_prs, validation_key
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.repo_rows import (
    core_only,
    not_shown,
    nothing_shown,
    repo_cell,
    row_key,
    sources,
    spans_repositories,
)
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text, newest_first
from cockpit.ui.widgets import age_text, clip, status_text

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
# What needs the release manager first: open (red), closed unmerged (amber), then done (green).
_STATE_ORDER = {ItemState.OPEN: 0, ItemState.CLOSED_UNMERGED: 1, ItemState.MERGED: 2, ItemState.CLOSED: 3}
_KIND_WORD = {ItemKind.PULL: "PR", ItemKind.ISSUE: "issue"}


@dataclass(frozen=True)
class ItemRow:
    """A milestone item as its row shows it, with the PRs linked to it (named by it, or naming it)."""

    item: MilestoneItem
    linked: tuple[int, ...]
    repo: str = ""  # the repository's short name, in a release of several


COLUMNS: tuple[Column[ItemRow], ...] = (
    Column("number", "#", lambda row: row.item.number),
    Column("kind", "Kind", by_text(lambda row: _KIND_WORD[row.item.kind])),
    Column("state", "State", lambda row: _STATE_ORDER[row.item.state]),
    Column("title", "Title", by_text(lambda row: row.item.title), width=48),
    Column("labels", "Labels", by_text(lambda row: ", ".join(row.item.labels)), width=32),
    Column("assignees", "Assignees", by_text(lambda row: ", ".join(row.item.assignees)), width=20),
    Column("linked", "Linked PRs", lambda row: row.linked or None, width=20),
    Column("updated", "Updated", lambda row: newest_first(row.item.updated_at)),
)
_WIDTHS = {column.id: column.width for column in COLUMNS}


class MilestonePane(TablePane):
    """The milestone's items; the gate "no open items" on top, skipped items named apart."""

    PANE = "milestone"
    GATES = names_on(PANE)  # declared in cockpit.gates
    SUMMARY_CLASSES = "pane-filter"
    COLUMNS = COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f", "cycle_open", "Open/all", id="milestone.filter_open", tooltip="Show open items only, or all items"
        ),
        Binding(
            "p", "only_kind('pull')", "PRs", id="milestone.filter_prs", tooltip="Show pull requests only (again: both)"
        ),
        Binding(
            "i", "only_kind('issue')", "Issues", id="milestone.filter_issues", tooltip="Show issues only (again: both)"
        ),
        Binding(
            "l",
            "cycle_label",
            "Label",
            id="milestone.filter_label",
            tooltip="Show only items with the next label present (cycles; back to all)",
        ),
        Binding("s", "cycle_sort", "Sort", id="milestone.sort", tooltip="Sort by the next column (or click a header)"),
        Binding(
            "S", "reverse_sort", "Reverse", show=False, id="milestone.sort_reverse", tooltip="Reverse the sort order"
        ),
        Binding(
            "a",
            "toggle_skipped",
            "Skipped",
            id="milestone.skipped",
            tooltip="Show the items skipped by label instead (again: back)",
        ),
        Binding(
            "enter", "detail", "Detail", show=False, id="milestone.detail", tooltip="Show the selected item in full"
        ),
        Binding("o", "open", "Open", id="milestone.open", tooltip="Open the selected item in the browser"),
        Binding("d", "remove", "Remove", id="milestone.remove", tooltip="Remove the selected item from the milestone"),
        Binding(
            "v",
            "validate",
            "Validate",
            id="milestone.validate",
            tooltip="Post the validation comment on the selected closed item",
        ),
        Binding(
            "V",
            "validate_all",
            "Validate all",
            show=False,
            id="milestone.validate_all",
            tooltip="Post the validation comment on every closed issue at once (preview first; done ones skipped)",
        ),
        Binding(
            "N",
            "validation_issue",
            "Validation issue",
            show=False,
            id="milestone.validation_issue",
            tooltip="Create the release's validation issue: a task list of closed issues and accepted picks",
        ),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.open_only = False
        self.kind: ItemKind | None = None
        self.label: str | None = None
        self.show_skipped = False
        self._counted = 0  # items the pane's own filters let through, for the line above the table
        self._lead: MilestoneReport | None = None  # the report the line above the table speaks of

    def fetch(self) -> MilestoneReport:
        return self.backend.load_milestone()

    def visible_items(self, report: MilestoneReport | None = None) -> list[MilestoneItem]:
        """The items the pane's own filters let through, in the report's order (the table sorts them);
        ``report``: a domain library's, else the core's."""
        report = report or self.report
        if report is None:
            return []
        items = report.skipped if self.show_skipped else report.items
        return list(filter_items(items, open_only=self.open_only, kind=self.kind, label=self.label))

    def _validated(self, item: MilestoneItem) -> bool:
        key = validation_key(item.repository or self.backend.config.release.repository, item.number)
        try:
            return self.backend.state.ledger_get(key) is not None
        except Exception:  # a state file that cannot answer must not break the table
            return False

    def show(self, report: MilestoneReport) -> None:
        now = self.now()
        shown = sources(self, report, "milestone")
        rows, counted, lead = [], 0, shown[0][1] if shown else report
        for name, each in shown:
            links = linked_prs((*each.items, *each.skipped))
            items = self.visible_items(each)
            counted += len(items)
            rows += [self._row(ItemRow(item, links.get(item.number, ()), name), now) for item in items]
        self.draw_rows(rows)
        self._counted = counted
        self._lead = lead if shown else None
        line = self._filter_line(lead, counted) if shown else Text(nothing_shown(self, "milestone", "milestone items"))
        self.query_one(".pane-filter", Static).update(line)

    def reorder(self) -> None:
        super().reorder()
        if self.report is not None and self._lead is not None:  # the line above the table says how it is sorted
            self.query_one(".pane-filter", Static).update(self._filter_line(self._lead or self.report, self._counted))

    def _row(self, row: ItemRow, now: datetime) -> TableRow[ItemRow]:
        item, widths = row.item, _WIDTHS
        word = _STATE_WORD[item.state] + (" ✓ validated" if not item.state.is_open and self._validated(item) else "")
        cells: tuple[Text, ...] = (
            Text(f"#{item.number}"),
            Text(_KIND_WORD[item.kind]),
            status_text(self, _STATE_STATUS[item.state], word),
            clip(item.title, widths["title"]),
            clip(", ".join(item.labels), widths["labels"]),
            clip(", ".join(item.assignees), widths["assignees"]),
            clip(" ".join(f"#{n}" for n in row.linked), widths["linked"]),
            Text(age_text(item.updated_at, now)),
        )
        if spans_repositories(self):
            cells = (repo_cell(row.repo), *cells)
        return TableRow(row_key(self, row.repo, str(item.number)), row, cells)

    def _filter_line(self, report: MilestoneReport, shown: int) -> Text:
        kind = {None: "issues and PRs", ItemKind.PULL: "PRs only", ItemKind.ISSUE: "issues only"}[self.kind]
        parts = ["open only" if self.open_only else "open and closed", kind]
        if self.label:
            parts.append(f"label {self.label}")
        column = self.sorted_by()
        if column is not None:
            parts.append(f"sorted by {column.id}" + (", reversed" if self.sort_reverse else ""))
        if self.show_skipped:
            head = (
                f"Milestone {report.milestone.title}: skipped by label, not counted by the gate: "
                f"{shown} of {len(report.skipped)}"
            )
            return Text(f"{head} ({', '.join(parts)}) · a: back to the counted items")
        shown_reports = sources(self, report, "milestone")
        total = sum(len(each.items) for _name, each in shown_reports) or len(report.items)
        title = f"Milestone {report.milestone.title}"
        if len(shown_reports) > 1:  # several repositories: each one's milestone by name
            title = "Milestones " + ", ".join(f"{name} {each.milestone.title}" for name, each in shown_reports)
        line = f"{title}: {shown} of {total} shown ({', '.join(parts)})"
        if report.skipped:
            named = ", ".join(f"#{i.number}" for i in report.skipped[:4]) + (" …" if len(report.skipped) > 4 else "")
            line += f" · {len(report.skipped)} skipped by label, apart: {named} (a)"
        return Text(line + not_shown(self, "milestone"))

    def _rerender(self) -> None:
        self.rerender()

    def action_cycle_open(self) -> None:
        self.open_only = not self.open_only
        self._rerender()

    def action_only_kind(self, kind: str) -> None:
        wanted = ItemKind(kind)
        self.kind = None if self.kind is wanted else wanted
        self._rerender()

    def action_cycle_label(self) -> None:
        shown = sources(self, self.report, "milestone") if self.report else []
        items = [i for _name, each in shown for i in (each.skipped if self.show_skipped else each.items)]
        labels = (None, *labels_present(items)) if self.report else (None,)
        position = labels.index(self.label) if self.label in labels else 0
        self.label = labels[(position + 1) % len(labels)]
        self.notify(f"Label filter: {self.label or 'all labels'}", markup=False)
        self._rerender()

    def action_toggle_skipped(self) -> None:
        self.show_skipped = not self.show_skipped
        self.label = None
        self._rerender()

    def sort_status(self) -> str:
        return ""  # the line above the table says it, with the pane's own filters

    def selected_row(self) -> ItemRow | None:
        """The row under the cursor (a domain library's item carries its repository)."""
        row = self.drawn_item(self.selected_key())
        if not isinstance(row, ItemRow):
            self.notify("No item selected.", severity="warning")
            return None
        return row

    def selected_item(self) -> MilestoneItem | None:
        row = self.selected_row()
        return row.item if row is not None else None

    def selected_link(self) -> str | None:
        item = self.selected_item()
        return item.html_url if item is not None else None

    def _act(self, action_id: str, reload_after: bool) -> None:
        item = self.selected_item()
        if item is not None:
            perform(self, self.PANE, action_id, item, on_done=self._reload_if_done if reload_after else self._redraw)

    def _reload_if_done(self, ok: bool) -> None:
        if ok:
            self.reload()

    def _redraw(self, ok: bool) -> None:
        self._rerender()

    def action_open(self) -> None:
        self._act("milestone.open", False)

    def action_remove(self) -> None:
        self._act("milestone.remove", True)

    def action_validate(self) -> None:
        self._act("milestone.validate", False)

    def action_validate_all(self) -> None:
        if self.report is not None and not self._filtered_away("Post the validation comment on all closed issues"):
            perform(
                self, self.PANE, "milestone.validate_all", self.report, on_done=self._redraw, preview_in_worker=True
            )

    def action_validation_issue(self) -> None:
        if self.report is not None and not self._filtered_away("Create the validation issue"):
            perform(self, self.PANE, "milestone.validation_issue", self.report, preview_in_worker=True)

    def _filtered_away(self, title: str) -> bool:
        """Say so and return True when the repository filter shows a library, not the core these act on."""
        why = core_only(self, title)
        if why is not None:
            self.notify(why, title="Not done", severity="warning", markup=False)
        return why is not None

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        row = self.selected_row()
        if row is None:
            return
        item, links = row.item, row.linked
        lines = (
            f"{'Pull request' if item.kind is ItemKind.PULL else 'Issue'} · {_STATE_WORD[item.state]}"
            + (f" · by {item.author}" if item.author else ""),
            "Labels: " + (", ".join(item.labels) or "none"),
            "Assignees: " + (", ".join(item.assignees) or "none"),
            *((f"Linked PRs: {' '.join(f'#{n}' for n in links)}",) if links else ()),
            *(("Validation comment: posted",) if not item.state.is_open and self._validated(item) else ()),
            item.html_url,
        )
        self.app.push_screen(DetailScreen(f"#{item.number} {item.title}", lines=lines, markdown=item.body or None))
