"""The table panes over a release of several repositories: a repository column, and the repository
filter (``@`` and the palette) narrowing their rows as it narrows the overview's gates.

Only a config with ``[[repo]]`` draws the column, so a single-repository table is unchanged. The
libraries' rows come from the reports the overview's repository section loaded once for all the
panes (``RepositoriesLoaded``, kept by the app in ``library_reports``): a pane never loads a library
itself, so the cold load's requests do not grow with the number of panes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rich.text import Text
from textual.message import Message

from cockpit.ui.host import host_of
from cockpit.ui.table_sort import Column, by_text

if TYPE_CHECKING:
    from cockpit.domain.repos import RepoReport

ALL = ""
"""The filter showing every repository."""
REPO_WIDTH = 9
REPO_COLUMN: Column[Any] = Column("repo", "Repo", by_text(lambda row: row.repo), width=REPO_WIDTH)
"""The repository column: the short name of the row's repository (``torchlet``, ``vision``)."""


class RepositoriesLoaded(Message):
    """Every domain library's reports are loaded (the overview's repository section loaded them)."""

    def __init__(self, reports: tuple[RepoReport, ...]) -> None:
        super().__init__()
        self.reports = reports


def spans_repositories(pane: Any) -> bool:
    """Whether the release has domain libraries, so the tables carry a repository column."""
    return bool(pane.backend.config.repos)


def repo_choice(pane: Any) -> str:
    """The repository filter now: "" for all, else a repository's short name."""
    host = host_of(pane)
    return host.repo_choice if host is not None else ALL


def library_reports(pane: Any) -> tuple[RepoReport, ...]:
    """The domain libraries' reports loaded so far (none before the overview's section has them)."""
    host = host_of(pane)
    return host.library_reports if host is not None else ()


def sources(pane: Any, core_report: Any, part: str) -> list[tuple[str, Any]]:
    """(short name, report) of each repository the filter shows, the core first; ``part`` names the
    library report (``milestone``, ``picks``, ``branch_diff``). A single repository gives ("", report)."""
    config = pane.backend.config
    if not config.repos:
        return [("", core_report)]
    wanted = repo_choice(pane)
    found: list[tuple[str, Any]] = []
    if wanted in (ALL, config.core.name) and core_report is not None:
        found.append((config.core.name, core_report))
    for library in library_reports(pane):
        report = getattr(library, part)
        if wanted in (ALL, library.name) and report is not None:
            found.append((library.name, report))
    return found


def shown_repositories(pane: Any) -> set[str] | None:
    """``owner/name`` (case-folded) of the repositories the filter shows; None: every one."""
    config = pane.backend.config
    wanted = repo_choice(pane)
    if not config.repos or wanted == ALL:
        return None
    return {repo.repository.casefold() for repo in config.repositories if repo.name == wanted}


def not_shown(pane: Any, part: str) -> str:
    """ " · audio: not loaded (reason)" for each library the filter shows whose ``part`` is missing."""
    config = pane.backend.config
    if not config.repos:
        return ""
    wanted = repo_choice(pane)
    loaded = {r.name: r for r in library_reports(pane)}
    notes = []
    for repo in config.repos:
        if wanted not in (ALL, repo.name):
            continue
        library = loaded.get(repo.name)
        if library is None:
            notes.append(f"{repo.name}: loading…")
        elif getattr(library, part) is None:
            why = library.errors.get(part, "")
            notes.append(f"{repo.name}: not judged" + (f" ({why})" if why else ""))
    return "".join(f" · {note}" for note in notes)


def nothing_shown(pane: Any, part: str, what: str) -> str:
    """The line above a table whose filter shows no repository with ``part`` loaded: "No cherry-pick
    requests of vision · vision: loading…"."""
    return f"No {what} of {repo_choice(pane) or 'any repository'}{not_shown(pane, part)}"


def repository_of(pane: Any, name: str) -> str:
    """``owner/name`` of the repository called ``name`` (the core's for "")."""
    config = pane.backend.config
    return config.release.repository if not name else config.repo_named(name).repository


def row_key(pane: Any, name: str, key: str) -> str:
    """A row's key in the table: the core's rows keep theirs; a library's are prefixed by its name."""
    return key if not name or name == pane.backend.config.core.name else f"{name}:{key}"


def repo_cell(name: str) -> Text:
    """The repository column's cell."""
    return Text(name[:REPO_WIDTH], no_wrap=True)


@runtime_checkable
class ShowsRepositories(Protocol):
    """A pane whose rows follow the repository filter (every ``TablePane``)."""

    def show_repository(self) -> None:
        """Draw the rows and the gate line again for the filter's repository."""


def refresh_tables(app: Any) -> None:
    """The libraries' reports or the filter changed: every table pane draws its rows and gate line again."""
    for pane in app.mounted_panes():
        if isinstance(pane, ShowsRepositories):
            pane.show_repository()


def core_only(pane: Any, title: str) -> str | None:
    """Why ``title``, an action on the core's milestone as a whole, is not done while the filter shows a
    domain library (issue 32: an action acts on what the screen shows, or refuses naming it); None when
    the filter shows the core or every repository."""
    config = pane.backend.config
    wanted = repo_choice(pane)
    if not config.repos or wanted in (ALL, config.core.name):
        return None
    return (
        f"{title} acts on the milestone of {config.release.repository}, and the filter shows {wanted}: "
        f"choose {config.core.name} or every repository with @ first"
    )
