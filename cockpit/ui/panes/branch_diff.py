"""Pane 4: milestone PRs against the release branch, reverts owed, fixes missing in main, the RC delta."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable

from cockpit.domain.commits import Evidence, Verdict
from cockpit.domain.gates import GateStatus
from cockpit.domain.reports import BranchReport
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import plain, status_text

_VERDICT_STATUS = {
    Verdict.LANDED: GateStatus.GREEN,
    Verdict.LANDED_BEFORE_CUT: GateStatus.GREEN,
    Verdict.LANDED_MODIFIED: GateStatus.AMBER,
    Verdict.NEEDS_REVIEW: GateStatus.AMBER,
    Verdict.MISSING: GateStatus.RED,
}


@dataclass(frozen=True)
class DiffRow:
    """One line of the pane, whatever section it comes from."""

    kind: str
    ref: str
    title: str
    verdict: str
    status: GateStatus
    evidence: tuple[str, ...] = ()
    shas: tuple[str, ...] = ()  # the commits a pick would take, in order
    target: Any = None  # what the registry's branch actions act on: an ItemDiff or a RevertOwed

    @property
    def pick_command(self) -> str:
        return " && ".join(f"git cherry-pick -x {sha}" for sha in self.shas)


def _evidence(items: tuple[Evidence, ...]) -> tuple[str, ...]:
    return tuple(f"{e.kind.value} in {e.commit[:10]}" + (f" ({e.detail})" if e.detail else "") for e in items)


def diff_rows(report: BranchReport) -> list[DiffRow]:
    """The report flattened into the pane's rows: items, reverts owed, missing in main, RC delta."""
    diff, rows = report.diff, []
    for item in diff.items:
        rows.append(DiffRow("item", f"#{item.number}", item.title, item.verdict.value.replace("_", " "),
                            _VERDICT_STATUS.get(item.verdict, GateStatus.UNKNOWN),
                            _evidence(item.evidence) + ((item.note,) if item.note else ()),
                            tuple(item.commits), item))
    for revert in diff.reverts_to_propagate:
        pr = f" (#{revert.reverted_pr})" if revert.reverted_pr else ""
        rows.append(DiffRow("revert owed", revert.revert_sha[:10], revert.revert_subject, "revert owed",
                            GateStatus.RED, (f"reverts {revert.reverted_sha[:10]}{pr}",) + _evidence(revert.how),
                            (revert.revert_sha,), revert))
    for commit in diff.missing_in_main:
        rows.append(DiffRow("missing in main", commit.sha[:10], commit.subject, "only on branch",
                            GateStatus.AMBER, (), (commit.sha,)))
    if diff.rc_delta is not None:
        delta = diff.rc_delta
        for commit in delta.commits:
            rows.append(DiffRow(f"{delta.base}..{delta.head}", commit.sha[:10], commit.subject, "in RC delta",
                                GateStatus.UNKNOWN, (), (commit.sha,)))
    return rows


class BranchDiffPane(Pane):
    """Sections in one table; the "Kind" column says which."""

    PANE = "branch"
    GATES = ("branch_diff_clean",)
    BINDINGS = [
        Binding("enter", "detail", "Detail", id="branch.detail", tooltip="Show the evidence for the selected row"),
        Binding("y", "copy", "Copy pick", id="branch.copy_pick", tooltip="Copy 'git cherry-pick -x <sha>' for the selected row"),
        Binding("b", "pick_branch", "Pick branch", id="branch.pick_branch", tooltip="Make a local branch with the pick applied"),
        Binding("o", "open", "Open", id="branch.open", tooltip="Open the selected PR in the browser"),
    ]

    def on_mount(self) -> None:
        self.table.add_columns("Kind", "Ref", "Title", "Verdict", "Evidence")

    def fetch(self) -> BranchReport:
        return self.backend.load_branch_diff()

    def show(self, report: BranchReport) -> None:
        self.rows = diff_rows(report)
        table = self.table
        table.clear()
        for index, row in enumerate(self.rows):
            table.add_row(plain(row.kind), plain(row.ref), plain(row.title), status_text(self, row.status, row.verdict),
                          plain("; ".join(row.evidence)), key=str(index))

    def selected_row(self) -> DiffRow | None:
        key = self.selected_key()
        if key is None or self.report is None:
            self.notify("No row selected.", severity="warning")
            return None
        return self.rows[int(key)]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        row = self.selected_row()
        if row is not None:
            lines = (f"Kind: {row.kind}", f"Verdict: {row.verdict}", f"Pick: {row.pick_command or 'nothing to pick'}",
                     "Evidence:", *(f"  {e}" for e in row.evidence or ("none",)))
            self.app.push_screen(DetailScreen(f"{row.ref} {row.title}", lines=lines))

    def _pickable(self) -> DiffRow | None:
        row = self.selected_row()
        if row is not None and not row.shas:
            self.notify(f"{row.ref}: no commit is known for this row, nothing to pick.", markup=False)
            return None
        return row

    def action_copy(self) -> None:
        row = self._pickable()
        if row is not None:
            self.app.copy_to_clipboard(row.pick_command)
            self.notify(f"Copied: {row.pick_command}", markup=False)

    def action_pick_branch(self) -> None:
        row = self._pickable()
        if row is None:
            return
        if row.target is None:
            self.notify(f"{row.ref} is already on a branch: a local pick branch is made for milestone PRs and reverts owed.",
                        markup=False)
            return
        perform(self, self.PANE, "branch.pick_branch", row.target)

    def action_open(self) -> None:
        row = self.selected_row()
        if row is not None and row.target is not None and getattr(row.target, "html_url", ""):
            perform(self, self.PANE, "branch.open", row.target)
        elif row is not None:
            self.notify(f"{row.ref}: no URL to open.", markup=False)
