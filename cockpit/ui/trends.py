"""The overview's "Trends" section: is the release converging?

Numeric series (open milestone items, pick requests arriving, resolved and pending) are Textual's
own ``Sparkline``: it ships with Textual (no dependency, nothing more to import before the first
paint, since this module is imported only when the section is first shown), folds a long series
into the width it gets, and takes its colours from CSS, so theme variables colour it. The CI history
is a strip of one coloured mark per run (a sparkline cannot colour a bar by outcome). The series come
from ``cockpit.services.trends``, the same the report's text form draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Sparkline, Static

from cockpit.domain.reports import ReleaseDays
from cockpit.services.burn_marks import Mark, burn_down_marks, legend, mark_line
from cockpit.services.rc_sizes import megabytes, short_tag
from cockpit.services.trends import BurnDown, CIStrip, DailySeries, PickFlow, burn_down, ci_strip, pick_flow
from cockpit.services.trends_text import BARS, OUTCOME_MARK
from cockpit.services.variant_sizes import VariantSeries, history_of, pypi_matcher, variant_series

if TYPE_CHECKING:
    from cockpit.domain.reports import CIReport, MilestoneReport, PicksReport, StorageGateReport

LABEL_WIDTH = 10
_CELL = {
    outcome: (OUTCOME_MARK[outcome], style)
    for outcome, style in (("pass", "$cockpit-pass"), ("fail", "$cockpit-fail"), ("pending", "$cockpit-pending"))
}
"""A run's cell: the report's mark (✓ ✗ ·) in its outcome's colour, so no state is told by colour alone (issue 32)."""


class TrendLine(Horizontal):
    """A label and a sparkline of one daily series."""

    DEFAULT_CSS = """
    TrendLine { height: 1; }
    TrendLine > .trend-label { width: 10; color: $foreground-muted; }
    TrendLine > Sparkline { width: 1fr; }
    TrendLine > Sparkline > .sparkline--max-color { color: $cockpit-pending; }
    TrendLine > Sparkline > .sparkline--min-color { color: $cockpit-pass; }
    TrendLine.-arrived > Sparkline > .sparkline--max-color { color: $cockpit-fail; }
    TrendLine.-arrived > Sparkline > .sparkline--min-color { color: $cockpit-fail 30%; }
    TrendLine.-resolved > Sparkline > .sparkline--max-color { color: $cockpit-pass; }
    TrendLine.-resolved > Sparkline > .sparkline--min-color { color: $cockpit-pass 30%; }
    """

    def __init__(self, label: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._label = label

    def compose(self) -> ComposeResult:
        yield Static(self._label, classes="trend-label")
        yield Sparkline([])

    def show(self, values: Sequence[int]) -> None:
        self.query_one(Sparkline).data = [float(v) for v in values] or [0.0]


class MarkAxis(Widget):
    """The axis under the burn-down's sparkline, ``┬`` at the cut, each RC tag and the target; drawn at
    its own width, which is the sparkline's (the same label column before both)."""

    DEFAULT_CSS = """
    MarkAxis { width: 1fr; height: 1; color: $foreground-muted; }
    """

    series: DailySeries | None = None
    marks: tuple[Mark, ...] = ()

    def show(self, series: DailySeries, marks: tuple[Mark, ...]) -> None:
        self.series, self.marks = series, marks
        self.refresh()

    def render(self) -> Content:
        if self.series is None or not self.marks:
            return Content("")
        return Content(mark_line(self.series, self.marks, self.size.width))


class BurnMarks(Horizontal):
    """A label, the mark axis, and below them the legend (``cut 06-01, rc1 06-15, target 12-10 (ahead)``)."""

    DEFAULT_CSS = """
    BurnMarks { height: auto; }
    BurnMarks > .trend-label { width: 10; color: $foreground-muted; }
    BurnMarks > Vertical { width: 1fr; height: auto; }
    BurnMarks .burn-legend { height: auto; color: $foreground-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static("marks", classes="trend-label")
        with Vertical():
            yield MarkAxis()
            yield Static("", classes="burn-legend")

    def show(self, series: DailySeries, marks: tuple[Mark, ...]) -> None:
        self.display = bool(marks)
        self.query_one(MarkAxis).show(series, marks)
        self.query_one(".burn-legend", Static).update(Content(legend(series, marks)))


class TrendsSection(VerticalScroll):
    """Burn-down, pick flow and CI history, each a heading line and its pictures; scrolls at 80x24."""

    DEFAULT_CSS = """
    TrendsSection { height: 1fr; margin: 1 2 0 2; }
    TrendsSection > .trend-heading { height: auto; text-style: bold; }
    TrendsSection > #trend-ci { height: auto; }
    TrendsSection > #trend-sizes { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Milestone burn-down: loading…", id="trend-burn-heading", classes="trend-heading")
        yield TrendLine("open", id="trend-burn")
        yield BurnMarks(id="trend-burn-marks")
        yield Static("Cherry-pick flow: loading…", id="trend-flow-heading", classes="trend-heading")
        yield TrendLine("arrived", id="trend-arrived", classes="-arrived")
        yield TrendLine("resolved", id="trend-resolved", classes="-resolved")
        yield TrendLine("pending", id="trend-pending")
        yield Static("CI history: loading…", id="trend-ci-heading", classes="trend-heading")
        yield Static("", id="trend-ci")
        yield Static("RC sizes: loading…", id="trend-sizes-heading", classes="trend-heading")
        yield Static("", id="trend-sizes")

    def show_reports(
        self,
        today: date,
        milestone: MilestoneReport | None,
        picks: PicksReport | None,
        ci: CIReport | None,
        storage: StorageGateReport | None = None,
        days: ReleaseDays | None = None,
    ) -> None:
        """Draw each picture whose pane has loaded; the others keep saying "loading…"."""
        if milestone is not None:
            self.show_burn_down(burn_down(milestone.milestone, milestone.items, today), days or ReleaseDays())
        if picks is not None:
            self.show_flow(pick_flow(picks.rows, today))
        if ci is not None:
            self.show_ci([ci_strip(h) for h in ci.history])
        if storage is not None:
            history = history_of(storage.rc_sizes, storage.release_sizes)
            series = variant_series(history, pypi_matcher(storage.pypi_bound), storage.size_flagged)
            self.show_sizes(series, storage.report.size_limit_mb)

    def show_burn_down(self, picture: BurnDown, days: ReleaseDays | None = None) -> None:
        series = picture.open_items
        values = series.values
        words = f"{values[-1]} open now, peak {max(values)}, since {series.start.isoformat()}" if values else "no items"
        due = f", due {picture.target.isoformat()}" if picture.target else ""
        self.query_one("#trend-burn-heading", Static).update(Content(f"Milestone burn-down: {words}{due}"))
        self.query_one("#trend-burn", TrendLine).show(values)
        self.query_one(BurnMarks).show(series, burn_down_marks(days) if days is not None else ())

    def show_flow(self, flow: PickFlow) -> None:
        arrived, resolved, pending = flow.arrived.values, flow.resolved.values, flow.pending.values
        words = (
            f"{sum(arrived)} requested, {sum(resolved)} resolved, {pending[-1]} pending now"
            if arrived
            else "no requests yet"
        )
        self.query_one("#trend-flow-heading", Static).update(Content(f"Cherry-pick flow: {words}"))
        for name, values in (("arrived", arrived), ("resolved", resolved), ("pending", pending)):
            self.query_one(f"#trend-{name}", TrendLine).show(values)

    def show_ci(self, strips: Sequence[CIStrip]) -> None:
        self.query_one("#trend-ci-heading", Static).update(
            Content("CI history: the last 20 required runs on each release branch, oldest first")
        )
        lines = [ci_line(s) for s in strips]
        self.query_one("#trend-ci", Static).update(Content("\n").join(lines) if lines else Content("no runs read"))

    def show_sizes(self, series: Sequence[VariantSeries], limit_mb: float) -> None:
        builds = ", ".join(short_tag(label) for label in series[0].labels) if series else ""
        words = (
            f"each variant's largest wheel at {builds}; PyPI-bound ones against the {limit_mb:.0f} MB limit, "
            "the rest against their own history"
            if series
            else "no RC recorded yet"
        )
        self.query_one("#trend-sizes-heading", Static).update(Content(f"RC sizes: {words}"))
        lines = [size_line(s, limit_mb * MB) for s in series]
        self.query_one("#trend-sizes", Static).update(Content("\n").join(lines) if lines else Content(""))


SIZE_LABEL_WIDTH = 24
MB = 1_000_000


def size_line(series: VariantSeries, limit: float) -> Content:
    """One variant's history, one bar a build, oldest first. A PyPI-bound variant's bars are its share of
    PyPI's limit (red over it, amber from 90%): ``torchlet cu126  ▆█  930.0 → 1061.2 MB at rc2, 106% of
    PyPI's limit``. A download-site variant's are its share of its own largest build, amber when its
    newest wheel jumped: ``torchlet rocm6.3  ▇█  780.0 → 803.1 MB at rc2, +3% on rc1``."""
    top = max((s for s in series.sizes if s is not None), default=0)
    scale = limit if series.goes_to_pypi else float(top or 1)
    newest, before = series.newest, series.before
    last = max((i for i, s in enumerate(series.sizes) if s is not None), default=-1)
    cells: list[tuple[str, str]] = []
    for i, size in enumerate(series.sizes):
        if size is None:
            cells.append(("·", "$foreground-muted"))
            continue
        bar = BARS[min(len(BARS) - 1, max(0, round(size / scale * (len(BARS) - 1))))]
        style = _size_style(series, size / limit, "$cockpit-pass")
        cells.append((bar, style if series.goes_to_pypi or i == last else "$cockpit-pass"))
    if newest is None:
        return Content.assemble((series.variant[: SIZE_LABEL_WIDTH - 1].ljust(SIZE_LABEL_WIDTH), "$foreground-muted"))
    at, size = newest
    tail = f"  {megabytes(before[1]) + ' → ' if before else ''}{megabytes(size)} MB at {short_tag(at)}"
    if series.goes_to_pypi:
        tail += f", {size / limit:.0%} of PyPI's limit"
    elif before:
        tail += f", {size / before[1] - 1:+.0%} on {short_tag(before[0])}"
    name = series.variant[: SIZE_LABEL_WIDTH - 1].ljust(SIZE_LABEL_WIDTH)
    return Content.assemble((name, "$foreground-muted"), *cells, (tail, _size_style(series, size / limit)))


def _size_style(series: VariantSeries, share: float, calm: str = "$foreground-muted") -> str:
    """Red over PyPI's limit and amber from 90% of it for a PyPI-bound variant; amber for a flagged jump."""
    if series.goes_to_pypi and share > 1:
        return "$cockpit-fail"
    if (series.goes_to_pypi and share >= 0.9) or series.flagged:
        return "$cockpit-pending"
    return calm


def ci_line(strip: CIStrip) -> Content:
    """``repo  ✓✓✗✗·  first red: pull at 0123abcd 2026-09-27``, each cell coloured by its run's outcome."""
    cells = [_CELL[o] for o in strip.outcomes] or [("no runs", "$foreground-muted")]
    red = strip.first_red
    tail = ""
    if red is not None:
        when = f" {red.created_at.date().isoformat()}" if red.created_at else ""
        tail = f"  first red: {red.name} at {red.head_sha[:8]}{when}"
    elif strip.outcomes and strip.outcomes[-1] == "pass":
        tail = "  green"
    name = strip.repository.split("/")[-1][: LABEL_WIDTH - 1].ljust(LABEL_WIDTH)
    return Content.assemble((name, "$foreground-muted"), *cells, (tail, "$cockpit-fail" if red else "$cockpit-pass"))
