"""The CI detail of one repository and ref: its failed and pending jobs with links and durations,
the unstable ones and the failures of workflows that are not required listed apart.

``o`` opens the highlighted job, ``w`` the workflow run it belongs to, ``x`` re-runs the failed
jobs of the repository (the same registered action as the pane's ``x``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from cockpit.domain.ci import JobVerdict, RepoCIVerdict
from cockpit.ui.acting import perform
from cockpit.ui.widgets import plain


@dataclass(frozen=True)
class RunLink:
    """A workflow run to open in the browser (the ``ci.open`` action opens any ``html_url``)."""

    html_url: str
    run_id: int | None = None


def run_url(job: JobVerdict) -> str:
    """The web page of the job's workflow run: GitHub's job links are ``.../actions/runs/<id>/job/<id>``."""
    url = job.html_url or ""
    return url.rsplit("/job/", 1)[0] if "/job/" in url else ""


def duration_text(seconds: float | None) -> str:
    """``42s``, ``23m 05s``, ``1h 02m``; empty when unknown."""
    if seconds is None or seconds < 0:
        return ""
    s = int(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    return f"{s // 3600}h {s % 3600 // 60:02d}m"


def sections(verdict: RepoCIVerdict) -> list[tuple[str, tuple[JobVerdict, ...]]]:
    """The job lists of the detail view, in the order the release manager reads them."""
    return [
        ("Failed (required)", verdict.failed),
        ("Pending (required)", verdict.pending),
        ("Failed in workflows that are not required (advisory)", verdict.advisory_failed),
        ("Unstable (set aside)", verdict.unstable),
    ]


class CIDetailScreen(ModalScreen[None]):
    """One repository's jobs; ``on_rerun`` runs on the UI thread after a re-run finished (ok or not)."""

    DEFAULT_CSS = """
    CIDetailScreen { align: center middle; }
    CIDetailScreen #ci-jobs { height: 1fr; min-height: 4; }
    CIDetailScreen #ci-link { height: auto; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="ci_detail.close", tooltip="Back to the CI pane"),
        Binding("q", "close", "Back", show=False, id="ci_detail.quit", tooltip="Back to the CI pane"),
        Binding(
            "o", "open_job", "Open job", id="ci_detail.open_job", tooltip="Open the highlighted job in the browser"
        ),
        Binding(
            "w", "open_run", "Open run", id="ci_detail.open_run", tooltip="Open the highlighted job's workflow run"
        ),
        Binding(
            "x", "rerun", "Re-run failed", id="ci_detail.rerun", tooltip="Re-run the failed jobs of this repository"
        ),
    ]

    def __init__(
        self, verdict: RepoCIVerdict, header: tuple[str, ...], *, on_rerun: Callable[[bool], None] | None = None
    ) -> None:
        super().__init__()
        self.verdict, self.header, self.on_rerun = verdict, header, on_rerun
        self.jobs: dict[str, JobVerdict] = {}

    def compose(self) -> ComposeResult:
        v = self.verdict
        with Vertical(classes="dialog detail"):
            yield Label(Text(f"{v.repository} @ {v.ref}", style="bold"), classes="detail-title")
            for line in self.header:
                yield Static(Text(line), classes="detail-line")
            yield DataTable(cursor_type="row", zebra_stripes=True, id="ci-jobs")
            yield Static("", id="ci-link")
            yield Label("o open job · w open run · x re-run failed · esc back", classes="dialog-hint")

    def on_mount(self) -> None:
        table = self.query_one("#ci-jobs", DataTable)
        table.add_columns("Outcome", "Took", "Job")  # the job's long name last: a narrow screen still shows the rest
        for title, jobs in sections(self.verdict):
            table.add_row(Text(""), Text(""), Text(f"{title}: {len(jobs)}", style="bold"), key=f"section:{title}")
            for index, job in enumerate(jobs):
                key = f"{title}:{index}"
                self.jobs[key] = job
                table.add_row(
                    plain(job.conclusion or job.status),
                    Text(duration_text(job.duration_s)),
                    plain(f"  {job.workflow} / {job.name}"),
                    key=key,
                )
        for workflow in self.verdict.missing_workflows:
            table.add_row(Text("not started"), Text(""), plain(f"  {workflow}"), key=f"missing:{workflow}")
        first_job = next(iter(self.jobs), None)
        if first_job is not None:
            table.move_cursor(row=table.get_row_index(first_job), animate=False)
        table.focus()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        job = self.jobs.get(event.row_key.value or "")
        link = f"job {job.html_url}" if job and job.html_url else ""
        self.query_one("#ci-link", Static).update(Text(link))

    def highlighted_job(self) -> JobVerdict | None:
        table = self.query_one("#ci-jobs", DataTable)
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # an empty table
            key = None
        job = self.jobs.get(key or "")
        if job is None:
            self.notify("Highlight a job first (the bold lines are headings).", severity="warning")
        return job

    def action_open_job(self) -> None:
        job = self.highlighted_job()
        if job is not None:
            perform(self, "ci", "ci.open", job)

    def action_open_run(self) -> None:
        job = self.highlighted_job()
        if job is not None:
            perform(self, "ci", "ci.open", RunLink(run_url(job), job.run_id))

    def action_rerun(self) -> None:
        if not self.verdict.failed:
            self.notify(f"{self.verdict.repository} @ {self.verdict.ref}: no failed jobs to re-run.", markup=False)
            return

        def done(ok: bool) -> None:
            if self.on_rerun is not None:
                self.on_rerun(ok)
            if ok and self.is_attached:
                self.dismiss(None)

        perform(self, "ci", "ci.rerun", self.verdict, on_done=done)

    def action_close(self) -> None:
        self.dismiss(None)
