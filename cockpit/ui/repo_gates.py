"""The overview of a release over several repositories: each domain library's gates, and the
repository filter (``@`` and the palette) that shows all of them, the core's, or one library's.

Only a config with ``[[repo]]`` mounts any of this, so a single-repository screen is unchanged.
The libraries load in a worker of their own (``backend.load_repositories``: each library's
milestone, branch diff, picks and RC wheels, two at a time), again whenever the overview loads;
their CI gates come from the CI pane's report as it arrives, never from a second CI load. Every
library gate is reported to the app like a pane's, so the verdict is the release's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.content import Content
from textual.widget import Widget

from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.domain.repos import REPO_GATES, split_gate_name
from cockpit.gates import of_libraries
from cockpit.ui.host import host_of
from cockpit.ui.repo_rows import ALL, RepositoriesLoaded, refresh_tables
from cockpit.ui.widgets import STATUS_WORD, GatesReported

if TYPE_CHECKING:
    from cockpit.domain.repos import RepoReport

SHORT = {spec.name: spec.short for spec in of_libraries()}
"""Each gate's label on a library's line (``branch ✓``)."""
_MARK = {GateStatus.GREEN: "✓", GateStatus.AMBER: "!", GateStatus.RED: "✗", GateStatus.UNKNOWN: "?"}
_STYLE = {
    GateStatus.GREEN: "bold $cockpit-pass",
    GateStatus.AMBER: "bold $cockpit-pending",
    GateStatus.RED: "bold $cockpit-fail",
    GateStatus.UNKNOWN: "bold $cockpit-stale",
}
NAME_WIDTH, WORD_WIDTH, TITLE_WIDTH = 10, 9, 32


def choices(config: Any) -> list[str]:
    """What the filter cycles through: all, then each repository by name, the core first."""
    return [ALL, *(repo.name for repo in config.repositories)]


def next_choice(config: Any, current: str) -> str:
    """The filter after ``current`` (back to all after the last repository)."""
    names = choices(config)
    return names[(names.index(current) + 1) % len(names)] if current in names else ALL


def choice_label(config: Any, choice: str) -> str:
    """ "all repositories", or "vision (acme/vision)"."""
    if choice == ALL:
        return "all repositories"
    return f"{choice} ({config.repo_named(choice).repository})"


class RepoGates(Widget):
    """One line per domain library (its worst gate and each gate's mark) or, filtered to one library,
    a line per gate of it as the core's gates are listed."""

    DEFAULT_CSS = "RepoGates { height: auto; margin: 1 2 0 2; }"

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend = backend
        self.reports: tuple[RepoReport, ...] = ()
        self.gates: dict[str, Gate] = {}
        self.choice = ALL
        self.error = ""
        self._ci: Any = None

    def reload(self) -> None:
        """Load every library again, in a worker: called when the overview's own report arrives, so the
        cold load reads each library once, after the first screen."""
        self._load()

    @work(thread=True, exclusive=True, exit_on_error=False, group="repositories", name="load repositories")
    def _load(self) -> None:
        try:
            reports = self.backend.load_repositories(None)
        except Exception as exc:  # a bug or an unexpected failure: said in the section, never a crash
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self._loaded, reports)

    def _failed(self, exc: Exception) -> None:
        self.error = f"the domain libraries could not be loaded: {exc}"
        self.refresh(layout=True)

    def _loaded(self, reports: tuple[RepoReport, ...]) -> None:
        self.reports, self.error = reports, ""
        gates = [g for r in reports for g in r.gates]
        gates += self._ci_gates()
        self.gates.update((g.name, g) for g in gates)
        self.refresh(layout=True)
        if gates:
            self.post_message(GatesReported(tuple(gates)))
        self.post_message(RepositoriesLoaded(reports))  # the table panes draw the libraries' rows (and gates)

    def _ci_gates(self) -> list[Gate]:
        """Each library's CI gate from the CI pane's report, once it has one."""
        from cockpit.services.repo_gates import library_ci_gate

        host = host_of(self)
        pane = host.mounted_pane("ci") if host is not None else None
        ci = pane.report if pane is not None else None
        if ci is None:
            return []
        self._ci = ci
        return [library_ci_gate(ci, repo.name, repo.repository) for repo in self.backend.config.repos]

    def show_gates(self, gates: dict[str, Gate]) -> None:
        """The app's gates changed: take the library gates, and the CI gates when the CI pane reloaded."""
        self.gates.update((name, gate) for name, gate in gates.items() if split_gate_name(name)[1])
        if "ci_green" in gates and gates.get("ci_green") is not getattr(self, "_ci_gate", None):
            self._ci_gate = gates["ci_green"]
            ci_gates = self._ci_gates()
            if ci_gates:
                self.gates.update((g.name, g) for g in ci_gates)
                self.post_message(GatesReported(tuple(ci_gates)))
        self.refresh(layout=True)

    def set_choice(self, choice: str) -> None:
        self.choice = choice
        self.display = choice != self.backend.config.core.name
        self.refresh(layout=True)

    def library_gates(self, name: str) -> list[Gate]:
        """The gates of library ``name`` known so far, in the order of ``REPO_GATES``."""
        found = [g for g in self.gates.values() if split_gate_name(g.name)[1] == name]
        return sorted(found, key=lambda g: REPO_GATES.index(split_gate_name(g.name)[0]))

    def render(self) -> Content:
        width = self.size.width or 80
        if self.error:
            return Content(self.error).truncate(width, ellipsis=True)
        names = [r.name for r in self.backend.config.repos]
        if self.choice in names:
            return Content("\n").join(self._gate_line(g, width) for g in self.library_gates(self.choice))
        lines = [Content.styled("Domain libraries", "bold")]
        lines += [self._library_line(name, width) for name in names]
        return Content("\n").join(lines)

    def _library_line(self, name: str, width: int) -> Content:
        gates = self.library_gates(name)
        if not gates:
            return Content.assemble((name.ljust(NAME_WIDTH), "bold"), ("loading…", _STYLE[GateStatus.UNKNOWN]))
        status = worst([g.status for g in gates])
        parts: list[tuple[str, str] | str] = [
            (name[: NAME_WIDTH - 1].ljust(NAME_WIDTH), "bold"),
            (STATUS_WORD[status].ljust(WORD_WIDTH), _STYLE[status]),
        ]
        for gate in gates:
            short = SHORT.get(split_gate_name(gate.name)[0], gate.name)
            parts += [f"{short} ", (f"{_MARK[gate.status]} ", _STYLE[gate.status])]
        return Content.assemble(*parts).truncate(width, ellipsis=True)

    def _gate_line(self, gate: Gate, width: int) -> Content:
        summary_width = max(1, width - TITLE_WIDTH - WORD_WIDTH)
        return Content.assemble(
            (gate.title[: TITLE_WIDTH - 1].ljust(TITLE_WIDTH), "bold"),
            (STATUS_WORD[gate.status].ljust(WORD_WIDTH), _STYLE[gate.status]),
            Content(gate.summary).truncate(summary_width, ellipsis=True, pad=True),
        )


def cycle(app: Any) -> None:
    """``@``: the next repository filter; the overview shows what it selects."""
    overview = app.overview
    section = overview.query(RepoGates).first(None) if overview is not None else None
    if section is None:
        return
    apply(app, next_choice(app.backend.config, section.choice))


def apply(app: Any, choice: str) -> None:
    """Show ``choice`` (all, the core or one library) on the overview and in every table pane, and say so."""
    overview = app.overview
    section = overview.query(RepoGates).first(None) if overview is not None else None
    if overview is None or section is None:
        return
    config = app.backend.config
    app.repo_choice = choice
    section.set_choice(choice)
    overview.query_one("#gate-list").display = choice in (ALL, config.core.name)  # the core's gates
    library = next((r for r in section.reports if r.name == choice), None)
    if library is not None and library.storage is not None:  # its RC wheels below its gates
        overview.show_storage(library.storage, owner=library.name)
    elif overview.report is not None:
        overview.show_storage(overview.report)
    refresh_tables(app)
    app.notify(f"Showing {choice_label(config, choice)}", title="Repository filter", markup=False, timeout=3)


def palette_commands(app: Any) -> list[tuple[str, str, Any]]:
    """(name, help, call) of a palette command per filter choice; none for a single repository."""
    config = app.backend.config
    if not config.repos:
        return []
    return [
        (
            f"Repository: {choice_label(config, c)}",
            "Show only this repository's gates and rows in every pane",
            lambda c=c: apply(app, c),
        )
        for c in choices(config)
    ]
