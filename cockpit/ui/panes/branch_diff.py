"""Pane 4: milestone PRs against the release branch, reverts owed, fixes missing in main, the RC delta.

Rows come from ``services.branch_render.attention_rows``: what needs action first (missing, reverts
owed, landed modified, needs review, only on the branch), the verdict in the first column so it
stays on screen at 80 columns, and the evidence in words ("trailer 4ec8fb71, #95354").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.commits import ItemDiff
from cockpit.domain.gates import GateStatus
from cockpit.domain.reports import BranchReport
from cockpit.domain.revert_prs import RevertPRAsk
from cockpit.gates import names_on
from cockpit.services.branch_render import DiffRow, attention_rows
from cockpit.services.pick_words import pick_summary, pick_word
from cockpit.ui.acting import perform, refused_in_viewer
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.repo_rows import (
    REPO_COLUMN,
    REPO_WIDTH,
    not_shown,
    nothing_shown,
    repo_cell,
    sources,
    spans_repositories,
)
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text
from cockpit.ui.widgets import status_text

_STATUS = {
    "missing": GateStatus.RED,
    "revert owed": GateStatus.RED,
    "landed modified": GateStatus.AMBER,
    "needs review": GateStatus.AMBER,
    "only on branch": GateStatus.AMBER,
    "landed": GateStatus.GREEN,
    "landed before cut": GateStatus.GREEN,
}
_WORD = {"landed before cut": "before cut"}  # fits the 15-column verdict
VERDICT_W, REF_W = 15, 8
PICK_W, PICK_W_WIDE = 12, 20  # "after #95832" / "conflicts in 2 files"; wide from WIDE_TABLE cells
WIDE_TABLE = 120
_PICK_STATUS = {"applies": GateStatus.GREEN, "already in": GateStatus.UNKNOWN, "not predicted": GateStatus.UNKNOWN}


def _ref_key(row: DiffRow) -> tuple[int, int, str]:
    """PRs by number (#9 before #10), then the commits named by their SHA."""
    ref = row.ref.strip()
    if ref.startswith("#") and ref[1:].isdigit():
        return (0, int(ref[1:]), "")
    return (1, 0, ref.casefold())


# Verdicts sort by urgency: the order of attention_rows, missing first.
COLUMNS: tuple[Column[DiffRow], ...] = (
    Column("verdict", "Verdict", lambda row: row.rank, width=VERDICT_W),
    Column("ref", "Ref", _ref_key, width=REF_W),
    Column("title", "Title", by_text(lambda row: row.title)),
    Column("evidence", "Evidence", by_text(lambda row: row.evidence)),
)
# What ``git cherry-pick -x`` of the row would do: shown when the diff was loaded with predictions.
PICK_COLUMN: Column[DiffRow] = Column("pick", "Pick", by_text(lambda row: row.pick), width=PICK_W)


def pick_width(total: int) -> int:
    return PICK_W_WIDE if total >= WIDE_TABLE else PICK_W


def _pick_cell(pane: TablePane, row: DiffRow, width: int) -> Text:
    word = pick_word(row.prediction, compact=width < PICK_W_WIDE)
    if not word:
        return Text("")
    status = _PICK_STATUS.get(word, GateStatus.AMBER if word.startswith("after") else GateStatus.RED)
    return status_text(pane, status, _fit(word, width).plain)


def _fit(text: str, width: int) -> Text:
    """Outside text, never markup, cut with an ellipsis to ``width`` cells."""
    flat = " ".join(text.split())
    return Text(flat if len(flat) <= width else flat[: max(width - 1, 0)] + "…", no_wrap=True)


def column_widths(total: int, repo: bool = False, pick: int = 0) -> tuple[int, int]:
    """(title, evidence) widths for a table ``total`` cells wide; the verdict and ref are fixed, and so
    are the repository column (``repo``) in a release of several repositories and the pick column
    (``pick`` cells wide, when predicted)."""
    total -= REPO_WIDTH + 2 if repo else 0
    total -= pick + 2 if pick else 0
    spare = max(total - VERDICT_W - REF_W - 4 * 2 - 2, 20)  # cell padding of 4 columns, scrollbar
    evidence = max((spare + 1) // 2, 10)
    return spare - evidence, evidence


class BranchDiffPane(TablePane):
    """Every row of the branch diff, most urgent first; ``enter`` shows all of a row's evidence."""

    PANE = "branch"
    GATES = names_on(PANE)  # declared in cockpit.gates
    LINK_NAME = "SHA or URL"
    SUMMARY_CLASSES = "pane-filter branch-summary"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter", "detail", "Detail", id="branch.detail", tooltip="Show every piece of evidence for the selected row"
        ),
        Binding(
            "y",
            "copy",
            "Copy pick",
            id="branch.copy_pick",
            tooltip="Copy 'git cherry-pick -x <sha>' for the selected row (after the picks it needs, in order)",
        ),
        Binding(
            "b",
            "pick_branch",
            "Pick branch",
            id="branch.pick_branch",
            tooltip="Make a local branch from the release branch with the pick applied (never pushed)",
        ),
        Binding("o", "open", "Open", id="branch.open", tooltip="Open the selected PR in the browser"),
        Binding(
            "P",
            "revert_prs",
            "Revert PRs",
            id="branch.revert_prs",
            tooltip="Open a PR from your fork for each revert owed (preview first, one confirmation)",
        ),
        Binding(
            "Y",
            "copy_link",
            "Copy SHA/URL",
            show=False,
            id="branch.copy_link",
            tooltip="Copy the selected row's commit SHA (or its PR's URL) to the clipboard",
        ),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.rows: list[DiffRow] = []
        self._width = 0

    def fetch(self) -> BranchReport:
        return self.backend.load_branch_diff()

    def show(self, report: BranchReport) -> None:
        shown = sources(self, report, "branch_diff")
        spans = spans_repositories(self)
        self.rows = [
            replace(row, repo=name) if spans else row for name, each in shown for row in attention_rows(each.diff)
        ]
        summary = self._summary(shown[0][1]) if shown else Text(nothing_shown(self, "branch_diff", "branch diff"))
        self.query_one(".branch-summary", Static).update(summary)
        self._width = self.app.size.width
        pick_w = self._pick_width()
        title_w, evidence_w = column_widths(self._width, spans, pick_w)
        table = self.table
        table.clear(columns=True)
        for column in self.columns():
            table.add_column(column.title, width=column.width)
        rows = []
        for index, row in enumerate(self.rows):
            word = _WORD.get(row.section, row.section)
            meaning = "missing" if row.section == "missing" else None
            cells: tuple[Text, ...] = (
                status_text(self, _STATUS.get(row.section, GateStatus.UNKNOWN), word, meaning=meaning),
                _fit(row.ref, REF_W),
                *((_pick_cell(self, row, pick_w),) if pick_w else ()),
                _fit(row.title, title_w),
                _fit(row.evidence, evidence_w),
            )
            if spans:
                cells = (repo_cell(row.repo), *cells)
            rows.append(TableRow(str(index), row, cells))
        self.draw_rows(rows)

    def columns(self) -> Sequence[Column[DiffRow]]:
        if self.report is None:
            return ()  # the columns come with the first report, sized to the screen
        spans = spans_repositories(self)
        pick_w = self._pick_width()
        title_w, evidence_w = column_widths(self._width, spans, pick_w)
        pick = (replace(PICK_COLUMN, width=pick_w),) if pick_w else ()
        fitted = (*COLUMNS[:2], *pick, replace(COLUMNS[2], width=title_w), replace(COLUMNS[3], width=evidence_w))
        return (REPO_COLUMN, *fitted) if spans else fitted

    def _pick_width(self) -> int:
        """The pick column's width; 0 (no column) when no row has a prediction."""
        return pick_width(self._width) if any(row.prediction for row in self.rows) else 0

    def _summary(self, report: BranchReport) -> Text:
        diff = report.diff
        parts = [f"{diff.branch} vs {diff.main}, cut {diff.cut[:10]}", f"{len(diff.items)} milestone items"]
        if diff.predictions:
            parts.append(f"picks: {pick_summary(diff.predictions)}")
        elif diff.prediction_trouble:
            parts.append(f"picks not predicted: {diff.prediction_trouble}")
        if diff.rc_delta is not None:
            d = diff.rc_delta
            prs = ", ".join(f"#{n}" for n in d.prs[:3]) + (f" +{len(d.prs) - 3}" if len(d.prs) > 3 else "")
            parts.append(f"{d.base}..{d.head}: {len(d.commits)} commits" + (f" ({prs})" if prs else ""))
        else:
            parts.append("RC delta: fewer than two RC tags")
        others = len({row.repo for row in self.rows} - {""}) - 1
        more = f" · and {others} more {'repository' if others == 1 else 'repositories'}" if others > 0 else ""
        return Text(" · ".join(parts) + more + not_shown(self, "branch_diff"))

    def on_resize(self) -> None:
        if self.report is not None and self.app.size.width != self._width:
            self.rerender()

    def selected_row(self) -> DiffRow | None:
        key = self.selected_key()
        if key is None or self.report is None:
            self.notify("No row selected.", severity="warning")
            return None
        return self.rows[int(key)]

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        row = self.selected_row()
        if row is not None:
            lines = (*row.detail, f"Pick: {row.pick_command or 'nothing to pick'}")
            self.app.push_screen(DetailScreen(f"{row.ref} {row.title}", lines=lines))

    def _pickable(self) -> DiffRow | None:
        row = self.selected_row()
        if row is not None and not row.shas:
            self.notify(f"{row.ref}: no commit is known for this row, nothing to pick.", markup=False)
            return None
        return row

    def selected_link(self) -> str | None:
        row = self.selected_row()
        if row is None:
            return None
        return row.shas[0] if row.shas else getattr(row.target, "html_url", "") or None

    def _in_order(self, row: DiffRow) -> tuple[DiffRow, ...]:
        """The row after the missing picks it needs (its prediction's ``after``), in that order."""
        if row.prediction is None or not row.prediction.after:
            return (row,)
        by_key = {r.prediction.key: r for r in self.rows if r.prediction is not None and r.repo == row.repo}
        return (*(by_key[k] for k in row.prediction.after if k in by_key), row)

    def action_copy(self) -> None:
        row = self._pickable()
        if row is not None:
            order = self._in_order(row)
            command = " && ".join(r.pick_command for r in order)
            self.app.copy_to_clipboard(command)
            if len(order) > 1:
                before = ", ".join(r.ref for r in order[:-1])
                self.notify(f"{row.ref} applies only after {before}: copied in that order.", markup=False)
            where = ""
            if row.repo and row.repo != self.backend.config.core.name:  # its commits are in that clone only
                library = self.backend.config.repo_named(row.repo)
                where = f" (run it in the clone of {library.repository}: {library.clone})"
            self.notify(f"Copied: {command}{where}", markup=False)

    def action_pick_branch(self) -> None:
        row = self._pickable()
        if row is None:
            return
        if row.target is None:
            self.notify(
                f"{row.ref} is already on a branch: a local pick branch is made for milestone PRs and reverts owed.",
                markup=False,
            )
            return
        perform(self, self.PANE, "branch.pick_branch", row.target)

    def action_revert_prs(self) -> None:
        """Every revert the core's release branch owes, as PRs from the fork: one preview, one confirmation."""
        if self.report is None or refused_in_viewer(self, "revert PRs are opened from a session that may write"):
            return
        diff = self.report.diff
        if not diff.reverts_to_propagate:
            self.notify(f"{diff.branch or 'The release branch'} owes no revert: no PR to open.", markup=False)
            return
        ask = RevertPRAsk(diff.reverts_to_propagate, diff.predictions)
        perform(self, self.PANE, "branch.revert_prs", ask, preview_in_worker=True)

    def action_open(self) -> None:
        row = self.selected_row()
        if row is not None and isinstance(row.target, ItemDiff) and row.target.html_url:
            perform(self, self.PANE, "branch.open", row.target)
        elif row is not None:
            self.notify(f"{row.ref}: no URL to open.", markup=False)
