"""Pane 3: CI health of each repository's release branch and RC tag; detail and re-run failed jobs."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from cockpit.domain.ci import JobVerdict, RepoCIVerdict
from cockpit.domain.reports import CIReport
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import plain, status_text


def _last_green(verdict: RepoCIVerdict) -> str:
    if not verdict.last_green_sha:
        return "none found"
    behind = verdict.commits_behind_green
    if behind == 0:
        return f"{verdict.last_green_sha[:10]} (head)"
    return f"{verdict.last_green_sha[:10]}" + (f" ({behind} behind)" if behind is not None else "")


def _job_line(job: JobVerdict) -> str:
    outcome = job.conclusion or job.status
    return f"  {job.workflow} / {job.name}: {outcome}" + (f"\n      {job.html_url}" if job.html_url else "")


class CIPane(Pane):
    """One row per repository and ref (release branch head, RC tag)."""

    PANE = "ci"
    GATES = ("ci_green",)
    BINDINGS = [
        Binding("enter", "detail", "Detail", id="ci.detail", tooltip="Show the failed and pending jobs"),
        Binding("x", "rerun", "Re-run failed", id="ci.rerun", tooltip="Re-run the failed jobs of the selected ref"),
    ]

    def on_mount(self) -> None:
        self.table.add_columns("Repository", "Ref", "Verdict", "Reason", "Failed", "Pending", "Unstable", "Last green")

    def fetch(self) -> CIReport:
        return self.backend.load_ci()

    def verdicts(self) -> tuple[RepoCIVerdict, ...]:
        return (self.report.branches + self.report.rc_builds) if self.report else ()

    def show(self, report: CIReport) -> None:
        table = self.table
        table.clear()
        for index, verdict in enumerate(self.verdicts()):
            table.add_row(
                plain(verdict.repository),
                plain(verdict.ref),
                status_text(self, verdict.status),
                plain(verdict.reason),
                Text(str(len(verdict.failed))),
                Text(str(len(verdict.pending))),
                Text(str(len(verdict.unstable))),
                Text(_last_green(verdict)),
                key=str(index),
            )

    def selected_verdict(self) -> RepoCIVerdict | None:
        key = self.selected_key()
        verdicts = self.verdicts()
        if key is None or not verdicts:
            self.notify("No repository selected.", severity="warning")
            return None
        return verdicts[int(key)]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        verdict = self.selected_verdict()
        if verdict is None:
            return
        lines = [
            f"Verdict: {verdict.status.value} · {verdict.reason}",
            f"Head: {verdict.head_sha or 'unknown'} · {verdict.job_count} jobs",
        ]
        if verdict.missing_workflows:
            lines.append("Required workflows not started: " + ", ".join(verdict.missing_workflows))
        advisory = getattr(verdict, "advisory_failed", ())  # non-required workflows: listed, not counted
        sections = (("Failed", verdict.failed), ("Pending", verdict.pending),
                    ("Failed in workflows that are not required", advisory), ("Unstable (set aside)", verdict.unstable))
        for title, jobs in sections:
            lines.append(f"{title}: {len(jobs)}")
            lines.extend(_job_line(j) for j in jobs)
        self.app.push_screen(DetailScreen(f"{verdict.repository} @ {verdict.ref}", lines=tuple(lines)))

    def action_rerun(self) -> None:
        verdict = self.selected_verdict()
        if verdict is None:
            return
        if not verdict.failed:
            self.notify(f"{verdict.repository} @ {verdict.ref}: no failed jobs to re-run.", markup=False)
            return
        perform(self, self.PANE, "ci.rerun", verdict, on_done=lambda ok: ok and self.reload())
