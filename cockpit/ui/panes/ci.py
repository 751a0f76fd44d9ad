"""Pane 3: CI health of each repository's release branch and RC tag.

One row per repository and ref: the verdict, the reason in words, failed / pending / unstable
counts and the last green commit with how far behind the head it is. Columns narrow (ellipsis) on a
small terminal; ``enter`` shows everything. A status line says how fresh the data is (updated live),
what the last load cost on GitHub, and the auto-refresh interval (``[github] refresh_interval``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.ci import RepoCIVerdict
from cockpit.domain.gates import GateStatus
from cockpit.domain.reports import CIReport
from cockpit.gates import names_on
from cockpit.ui.acting import perform
from cockpit.ui.panes.ci_detail import CIDetailScreen, RunLink, run_url
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.repo_rows import shown_repositories
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text, status_rank
from cockpit.ui.widgets import plain, status_text

WIDE = 120  # from this many columns on, the long column forms
# (label, width) per column, narrow and wide; the reason takes what is left.
_NARROW = (("Repository", 13), ("Ref", 11), ("CI", 5), ("F/P/U", 5), ("Last green", 10))
_WIDE = (("Repository", 20), ("Ref", 14), ("Verdict", 7), ("Fail/Pend/Unst", 14), ("Last green", 20))
_MIN_REASON = 10


@dataclass(frozen=True)
class RefRow:
    """A repository's ref as its row shows it: the release branch head, or an RC tag (judged on its
    binary builds, so it has no last green commit)."""

    verdict: RepoCIVerdict
    rc: bool


def _behind_green(row: RefRow) -> int | None:
    """Head first, then fewer commits behind the last green one; no green commit known last."""
    verdict = row.verdict
    if row.rc or (verdict.commits_behind_green != 0 and not verdict.last_green_sha):
        return None
    return verdict.commits_behind_green


# The columns in the order of _NARROW and _WIDE, then the reason; their headers and widths follow the layout.
COLUMNS: tuple[Column[RefRow], ...] = (
    Column("repository", "Repository", by_text(lambda row: row.verdict.repository)),
    Column("ref", "Ref", by_text(lambda row: row.verdict.ref)),
    Column("verdict", "Verdict", lambda row: status_rank(row.verdict.status)),
    Column(
        "counts",
        "Fail/Pend/Unst",
        lambda row: (len(row.verdict.failed), len(row.verdict.pending), len(row.verdict.unstable)),
    ),
    Column("last_green", "Last green", _behind_green),
    Column("reason", "Reason", by_text(lambda row: row.verdict.reason)),
)


def ago_text(seconds: float) -> str:
    """``12 s``, ``4 min``, ``2 h``: how long ago the data was fresh."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"


def every_text(seconds: float) -> str:
    """``90 s``, ``2 min``: the auto-refresh interval, exact."""
    s = max(0, round(seconds))
    return f"{s // 60} min" if s >= 60 and s % 60 == 0 else f"{s} s"


def last_green_text(verdict: RepoCIVerdict, *, wide: bool, rc: bool = False) -> str:
    """Where the last green commit is: ``head``, ``2112d0cb, 2 behind`` (``2112d0c -2`` narrow), ``none``."""
    if rc:
        return "n/a: RC tag" if wide else "n/a (RC)"
    if verdict.commits_behind_green == 0:
        return "head"
    if not verdict.last_green_sha:
        return "none recent" if wide else "none"
    behind = verdict.commits_behind_green
    if wide:
        return f"{verdict.last_green_sha[:8]}, {behind} behind"
    return f"{verdict.last_green_sha[:7]} -{behind}"


def _fit(text: Text, width: int) -> Text:
    text.truncate(width, overflow="ellipsis")
    return text


class CIPane(TablePane):
    """One row per repository and ref (release branch head, RC tag)."""

    PANE = "ci"
    GATES = names_on(PANE)  # declared in cockpit.gates
    LINK_NAME = "head SHA"
    TICK_S = 1.0  # how often "fresh N s ago" is redrawn
    SUMMARY_CLASSES = "pane-filter ci-status"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "detail", "Detail", id="ci.detail", tooltip="Show the failed and pending jobs with links"),
        Binding("o", "open", "Open run", id="ci.open", tooltip="Open the run of the first failed (or pending) job"),
        Binding(
            "x", "rerun", "Re-run failed", id="ci.rerun", tooltip="Re-run the failed jobs of the selected repository"
        ),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self.fresh_at: datetime | None = None
        self.loading_now = False
        self._layout: tuple[tuple[str, int], ...] = ()

    @property
    def refresh_s(self) -> float:
        return float(self.backend.config.github.refresh_s)

    def on_mount(self) -> None:
        self.set_interval(self.TICK_S, self.show_status)
        self.set_interval(self.refresh_s, self.reload_on_timer)
        self.show_status()

    def fetch(self) -> CIReport:
        return self.backend.load_ci()

    def reload(self) -> None:
        self.loading_now = True
        super().reload()
        self.show_status()

    def reload_on_timer(self) -> None:
        """The interval's reload: quiet (the table stays), skipped while a load is running."""
        if self.loading_now:
            return
        self.loading_now = True
        self._start_load()
        self.show_status()

    def _loaded(self, report: Any) -> None:
        self.loading_now = False
        self.fresh_at = self.now()
        super()._loaded(report)
        self.show_status()

    def _failed(self, exc: BaseException) -> None:
        self.loading_now = False
        super()._failed(exc)
        self.show_status()

    def status_line(self) -> str:
        """ "fresh 12 s ago · 20 GitHub requests (20 unchanged, 304) · auto-refresh every 2 min"."""
        parts = []
        if self.fresh_at is None:
            parts.append("not loaded yet")
        else:
            parts.append(f"fresh {ago_text((self.now() - self.fresh_at).total_seconds())} ago")
        if self.loading_now:
            parts.append("refreshing…")
        report = self.report
        if report is not None:
            unchanged = getattr(report, "not_modified", 0)
            cost = f"last load: {report.requests} GitHub requests"
            parts.append(cost + (f" ({unchanged} unchanged, 304)" if unchanged else ""))
        parts.append(f"auto-refresh every {every_text(self.refresh_s)}")
        return " · ".join(parts)

    def show_status(self) -> None:
        if not self.is_mounted:
            return
        lines = [self.status_line()]
        lines += getattr(self.report, "notes", ()) if self.report is not None else ()
        self.query_one(".ci-status", Static).update(Text("\n".join(lines)))

    def verdicts(self) -> tuple[RepoCIVerdict, ...]:
        return (self.report.branches + self.report.rc_builds) if self.report else ()

    def columns(self) -> Sequence[Column[RefRow]]:
        return tuple(
            replace(column, title=label, width=width)
            for (label, width), column in zip(self._layout, COLUMNS, strict=False)
        )

    def _columns(self) -> tuple[tuple[str, int], ...]:
        width = self.table.size.width or self.size.width or self.app.size.width
        fixed = _WIDE if width >= WIDE else _NARROW
        used = sum(w + 2 for _label, w in fixed) + 2  # cell padding, and room for a scroll bar
        return (*fixed, ("Reason", max(_MIN_REASON, width - used)))

    def show(self, report: CIReport) -> None:
        table = self.table
        layout = self._columns()
        if layout != self._layout:
            table.clear(columns=True)
            for label, width in layout:
                table.add_column(label, width=width)
            self._layout = layout
        widths = [w for _label, w in layout]
        wide = widths[0] == _WIDE[0][1]
        rc_from = len(report.branches)
        rows = []
        shown = shown_repositories(self)
        for index, v in enumerate(self.verdicts()):
            if shown is not None and v.repository.casefold() not in shown:
                continue
            counts = f"{len(v.failed)}/{len(v.pending)}/{len(v.unstable)}"
            cells = (
                plain(v.repository),
                plain(v.ref),
                status_text(self, v.status),
                Text(counts),
                Text(last_green_text(v, wide=wide, rc=index >= rc_from)),
                plain(v.reason),
            )
            fitted = tuple(_fit(c, w) for c, w in zip(cells, widths, strict=False))
            rows.append(TableRow(str(index), RefRow(v, index >= rc_from), fitted))
        self.draw_rows(rows)
        self.show_status()

    def on_resize(self) -> None:
        if self.report is not None and self._columns() != self._layout:
            self.rerender()

    def selected_verdict(self) -> RepoCIVerdict | None:
        key = self.selected_key()
        verdicts = self.verdicts()
        if key is None or not verdicts:
            self.notify("No repository selected.", severity="warning")
            return None
        return verdicts[int(key)]

    def selected_link(self) -> str | None:
        verdict = self.selected_verdict()
        return verdict.head_sha if verdict is not None else None

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def detail_header(self, verdict: RepoCIVerdict) -> tuple[str, ...]:
        """The lines above the job list: verdict and reason in full; head, jobs and last green in one line."""
        rc = self.report is not None and any(verdict is r for r in self.report.rc_builds)
        if rc:
            green = "RC tag: judged on its binary-build workflow only"
        elif verdict.commits_behind_green == 0:
            green = "last green: the head"
        elif verdict.last_green_sha:
            green = f"last green {verdict.last_green_sha[:10]}, {verdict.commits_behind_green} behind the head"
        else:
            green = "no green commit among the recent ones walked back"
        head = verdict.head_sha[:10] if verdict.head_sha else "unknown"
        lines = [
            f"{verdict.status.value}: {verdict.reason}",
            f"head {head} · {verdict.job_count} jobs (shards folded) · {green}",
        ]
        if verdict.missing_workflows:
            lines.append("Required workflows not started: " + ", ".join(verdict.missing_workflows))
        if self.report is not None and verdict.status is GateStatus.RED:
            from cockpit.services.blame_words import blame_lines

            for blame in self.report.blames:
                if blame.repository == verdict.repository and blame.ref == verdict.ref:
                    lines += blame_lines(blame)
        return tuple(lines)

    def action_detail(self) -> None:
        verdict = self.selected_verdict()
        if verdict is not None:
            self.app.push_screen(CIDetailScreen(verdict, self.detail_header(verdict), on_rerun=self._after_rerun))

    def action_open(self) -> None:
        verdict = self.selected_verdict()
        if verdict is None:
            return
        job = next(iter(verdict.failed or verdict.pending or verdict.advisory_failed), None)
        if job is None or not run_url(job):
            self.notify(f"{verdict.repository} @ {verdict.ref}: no failed or pending run to open.", markup=False)
            return
        perform(self, self.PANE, "ci.open", RunLink(run_url(job), job.run_id))

    def action_rerun(self) -> None:
        verdict = self.selected_verdict()
        if verdict is None:
            return
        if not verdict.failed:
            self.notify(f"{verdict.repository} @ {verdict.ref}: no failed jobs to re-run.", markup=False)
            return
        perform(self, self.PANE, "ci.rerun", verdict, on_done=self._after_rerun)

    def _after_rerun(self, ok: bool) -> None:
        if ok:
            self.reload()
