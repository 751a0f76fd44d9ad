"""Pane 0: one line per gate and the go/no-go verdict, filled in as the other panes load."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.panes import pane_facts
from cockpit.gates import listed, names_on
from cockpit.ui.host import host_of
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import STATUS_WORD, set_status_class

if TYPE_CHECKING:  # the reports' module is imported by the loads, after the first paint
    from collections.abc import Iterator

    from rich.console import Console, ConsoleOptions
    from textual.geometry import Size

    from cockpit.domain.reports import GoNoGo, StorageGateReport
    from cockpit.ui.trends import TrendsSection

GATE_ORDER = tuple(
    (spec.name, spec.title, "" if spec.pane == "overview" else pane_facts(spec.pane).key) for spec in listed()
)
"""(name, title, key of the pane that shows it) of each line; the overview's own gates need no key."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def verdict_line(verdict: GoNoGo) -> str:
    """ "NO-GO: 4 gates red, 3 required steps unsigned" or "GO: ..." in the release manager's words."""
    if verdict.go and verdict.overrides:
        where = pane_facts("checklist").key
        return (
            f"GO with {_plural(len(verdict.overrides), 'override')}: signed by hand over gates not green (see {where})"
        )
    if verdict.go:
        return "GO: every gate green, every required step signed"
    gates = [g for g in verdict.gates if g.name != "checklist"]
    red = sum(g.status is GateStatus.RED for g in gates)
    other = sum(g.status in (GateStatus.AMBER, GateStatus.UNKNOWN) for g in gates)
    parts = [f"{_plural(red, 'gate')} red"]
    if other:
        parts.append(f"{other} amber or unknown")
    parts.append(f"{_plural(len(verdict.unsigned), 'required step')} unsigned")
    if verdict.judged:
        parts.append(f"{_plural(len(verdict.judged), 'checked step')} not done")
    return "NO-GO: " + ", ".join(parts)


TITLE_WIDTH, STATUS_WIDTH, KEY_WIDTH = 24, 9, 5
_STATUS_STYLE = {
    GateStatus.GREEN: "bold $cockpit-pass",
    GateStatus.AMBER: "bold $cockpit-pending",
    GateStatus.RED: "bold $cockpit-fail",
    GateStatus.UNKNOWN: "bold $cockpit-stale",
}


class HangingLines:
    """Labelled lines whose text, when it wraps, goes on under itself rather than under the label.

    ``rows``: (label, text) pairs; a label is shown in bold (a problem's kind) or is an indent.
    At 80 columns a problem's detail wraps; its second line starts under the first, not at the edge.
    """

    def __init__(self, rows: list[tuple[str, Text]]) -> None:
        self.rows = rows

    def __str__(self) -> str:
        return "\n".join(label + text.plain for label, text in self.rows)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        for label, text in self.rows:
            room = max(1, options.max_width - len(label))
            for number, line in enumerate(text.wrap(console, room, overflow="fold")):
                shown = Text(label, style="bold") if number == 0 and label.strip() else Text(" " * len(label))
                line.rstrip()
                yield Text.assemble(shown, line, end="\n")


class GateList(Widget):
    """Every gate on one line: its name, a coloured status word, the summary, the pane's key.

    One widget drawing ten lines (not forty small ones) keeps the first screen quick to lay out.
    The colours are the theme's variables, resolved when drawn, so a theme switch recolours it.
    A summary longer than its column ends in "…"; the pane's own gate line has all of it.
    """

    DEFAULT_CSS = "GateList { height: auto; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gates: dict[str, Gate] = {}

    def show_gates(self, gates: dict[str, Gate]) -> None:
        self.gates = dict(gates)
        self.refresh()

    def line(self, name: str, title: str, key: str, width: int) -> Content:
        """The line of one gate at ``width`` cells; "loading…" until its pane reports it."""
        gate = self.gates.get(name)
        word, style = (
            (STATUS_WORD[gate.status], _STATUS_STYLE[gate.status]) if gate else ("…", _STATUS_STYLE[GateStatus.UNKNOWN])
        )
        summary_width = max(1, width - TITLE_WIDTH - STATUS_WIDTH - KEY_WIDTH)
        return Content.assemble(
            (title[: TITLE_WIDTH - 1].ljust(TITLE_WIDTH), "bold"),  # our own titles, all shorter
            (word.ljust(STATUS_WIDTH), style),
            Content(gate.summary if gate else "loading…").truncate(summary_width, ellipsis=True, pad=True),
            (f" [{key}]" if key else "", "$foreground-muted"),
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # One line per gate, each cut to the width: counting them spares laying the lines out twice
        # (once to measure, once to draw), which was about a twentieth of the first screen's work.
        one_line_each = not any("\n" in gate.summary for gate in self.gates.values())
        if width > TITLE_WIDTH + STATUS_WIDTH + KEY_WIDTH and one_line_each:
            return len(GATE_ORDER)
        return super().get_content_height(container, viewport, width)

    def render(self) -> Content:
        width = self.size.width or 80
        return Content("\n").join(self.line(name, title, key, width) for name, title, key in GATE_ORDER)


class OverviewPane(Pane):
    """The gates of every pane, the verdict, and the RC storage problems (this pane loads storage)."""

    PANE = "overview"
    GATES = names_on(PANE)  # declared in cockpit.gates
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "t",
            "toggle_trends",
            "Trends",
            id="overview.trends",
            tooltip="Show the trends (burn-down, pick flow, CI history) in place of the RC artifacts, or back",
        ),
        Binding(
            "P",
            "publish",
            "Publish",
            show=False,  # listed in ? help; the footer keeps its room (and the screenshots their shape)
            id="overview.publish",
            tooltip="Publish the release's status to the tracker issue as one comment (preview and diff first)",
        ),
    ]

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self._problems: Static | None = None
        self._scroll: VerticalScroll | None = None
        self._trends: TrendsSection | None = None

    def compose_body(self) -> ComposeResult:
        yield Static(Text("Verdict pending: waiting for the panes to load"), id="verdict", classes="verdict -unknown")
        if self.backend.config.schedule is not None:  # a patch release's phase, filled in after the first paint
            yield Static("", id="patch-phase")
        yield GateList(id="gate-list")
        if self.backend.config.repos:  # a release of several repositories: each library's gates too
            from cockpit.ui.repo_gates import RepoGates

            yield RepoGates(self.backend, id="repo-gates")

    def on_mount(self) -> None:
        if self.backend.config.schedule is not None:
            self.call_after_refresh(self.show_phase)

    def show_phase(self) -> None:
        """ "Patch 2.5.1 · Build and promote: 8 days left ..." from the schedule and today's date."""
        from cockpit.services.schedule import phase_on, release_is_patch

        schedule, release = self.backend.config.schedule, self.backend.config.release
        if schedule is None or not release_is_patch(release):
            return
        today = phase_on(schedule, self.now())
        self.query_one("#patch-phase", Static).update(Text(f"Patch {release.version} · {today.summary}"))

    def compose(self) -> ComposeResult:
        yield Static("", classes="pane-error")
        yield from self.compose_body()

    @property
    def body(self) -> Static:
        return self._storage_section()[0]

    def focus_body(self) -> None:
        self.screen.set_focus(self._storage_section()[1])

    def _storage_section(self) -> tuple[Static, VerticalScroll]:
        """The RC artifacts section, added when first needed: its load starts after the first
        paint, and the first screen draws sooner without a scroll container it does not show."""
        if self._problems is None or self._scroll is None:
            self._problems = Static("", id="storage-problems", classes="pane-table")
            self._scroll = VerticalScroll(self._problems, id="storage-scroll")  # a long list scrolls at 80x24
            self.mount(self._scroll)
        return self._problems, self._scroll

    def on_resize(self) -> None:
        self.set_class(self.size.height < 30, "-compact")  # a smaller verdict box leaves room for the problems

    def fetch(self) -> Any:
        return self.backend.load_storage()

    def show(self, report: StorageGateReport) -> None:
        self.show_storage(report)
        if self.backend.config.repos:  # the libraries load again with the overview (its refresh too)
            from cockpit.ui.repo_gates import RepoGates

            self.query_one(RepoGates).reload()

    def show_storage(self, report: StorageGateReport, *, owner: str = "") -> None:
        """The RC artifacts section for ``report`` (the core's, or the library ``owner``'s)."""
        from cockpit.services.storage import problems_by_variant

        rows: list[tuple[str, Text]] = []
        where = f" in {report.report.index_url}" if report.report.index_url else ""
        rows.append(("", Text(f"RC artifacts{' of ' + owner if owner else ''}{where}", style="bold")))
        # The file on one line and what is wrong under it: wheel names alone nearly fill 80 columns.
        groups = problems_by_variant(report.report)
        for heading, problems in groups:
            indent = "  "
            if heading:  # accelerator sub-indexes: what is missing, variant by variant
                rows.append(("  ", Text(heading, style="bold" if problems else "")))
                indent = "    "
            for problem in problems:
                rows.append((f"{indent}{problem.kind.replace('_', ' '):<13} ", Text(problem.filename)))
                rows.append((f"{indent}{'':<13} ", Text(problem.detail)))
        if not report.report.problems and not any(heading for heading, _ in groups):
            rows.append(("  ", Text(f"all {len(report.report.expected)} expected wheels staged, no problems found")))
        if report.report.published_on_pypi:
            rows.append(("  ", Text("already on PyPI: the upload step is done and locked", style="bold")))
        if report.size_jumps:  # which commits grew a wheel between two builds
            from cockpit.services.blame_words import jump_lines

            for jump in report.size_jumps:
                head, *commits = jump_lines(jump)
                rows.append((f"  {'size jump':<13} ", Text(head)))
                rows += [(f"  {'':<13} ", Text(line.strip())) for line in commits]
        self.body.update(HangingLines(rows))

    def show_gates(self, gates: dict[str, Gate]) -> None:
        """Re-render the gate lines from the app's gates (UI thread); the trends too when shown."""
        self.query_one(GateList).show_gates(gates)
        if self.backend.config.repos:
            from cockpit.ui.repo_gates import RepoGates

            self.query_one(RepoGates).show_gates(gates)
        if self.backend.config.schedule is not None:
            self.show_phase()  # the day may have changed since
        if self._trends is not None and self._trends.display:
            self._draw_trends(self._trends)

    def action_toggle_trends(self) -> None:
        """Trends in place of the RC artifacts section, or back; the section is built when first asked for."""
        if self._trends is None:
            from cockpit.ui.trends import TrendsSection  # after the first paint, only when asked for

            self._trends = TrendsSection(id="trends")
            self.mount(self._trends)
            self.call_after_refresh(self._draw_trends, self._trends)
        else:
            self._trends.display = not self._trends.display
            if self._trends.display:
                self._draw_trends(self._trends)
        showing = bool(self._trends.display)
        self._storage_section()[1].display = not showing
        self.screen.set_focus(self._trends if showing else self._storage_section()[1])

    def _draw_trends(self, trends: TrendsSection) -> None:
        from cockpit.domain.reports import ReleaseDays

        reports = {}
        host = host_of(self)
        for name in ("milestone", "picks", "ci", "branch"):
            pane = host.mounted_pane(name) if host is not None else None
            reports[name] = pane.report if pane is not None else None
        branch = reports["branch"]
        days = branch.days if branch is not None else ReleaseDays(final_rc_target=self.backend.config.final_rc_date)
        trends.show_reports(self.now().date(), reports["milestone"], reports["picks"], reports["ci"], self.report, days)

    def action_publish(self) -> None:
        """Preview the status comment (read in a worker), then publish it if confirmed."""
        from cockpit.ui.publish_flow import start_publish

        start_publish(self)

    def show_verdict(self, verdict: GoNoGo) -> None:
        widget = self.query_one("#verdict", Static)
        widget.update(Text(verdict_line(verdict)))
        set_status_class(widget, GateStatus.GREEN if verdict.go else GateStatus.RED)
