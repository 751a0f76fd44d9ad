"""The schema of ``[[repo]]``: the domain libraries released with the core (read only when the config has it).

The core repository is what ``[release]``, ``[git]`` and ``[storage]`` describe, as always; each
``[[repo]]`` adds one domain library with its own version, branches, milestone, tracker issue,
clone, RC tags and packages. A config without ``[[repo]]`` is a single-repository release, read
exactly as before. Errors name the file, the entry (``repo[1] (vision)``) and the key; unknown keys
in an entry are errors, as they always were.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cockpit.config.kinds import FilePath, IssueNumber, Milestone, Repository, Text, Texts, Version, key, typed
from cockpit.config.release import DEFAULT_RC_TAG_PATTERN, RcTagPattern, RepoName, release_branch
from cockpit.config.tables import Strict, Tables, read_table
from cockpit.config.where import Where
from cockpit.domain.release import Release
from cockpit.errors import ConfigError


@dataclass(frozen=True, slots=True)
class RepoConfig:
    """One repository of the release: the core (``core``) or a domain library of ``[[repo]]``.

    ``core_pins``: files on the library's release branch that name the core version it was built
    against (``requirements.txt``, ``version.txt`` ...), read from git on its clone.
    """

    name: str
    release: Release
    clone: Path
    remote: str = "origin"
    cut: str = ""
    rc_tag_pattern: str = DEFAULT_RC_TAG_PATTERN
    packages: tuple[str, ...] = ()
    core_pins: tuple[str, ...] = ()
    core: bool = False

    @property
    def repository(self) -> str:
        """``owner/name`` on GitHub."""
        return self.release.repository


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)  # read, never compared
class RepoTable:
    """``[[repo]]``: one domain library released with the core."""

    name: str = key(
        RepoName("vision"), "Its short name in gates, the repository filter and '--repo'.", example="vision"
    )
    repository: str = key(Repository(nonempty=True), "Its GitHub repository, OWNER/NAME.", example="acme/vision")
    version: str = key(Version("0.20.0"), "Its own version, X.Y.Z.", example="0.20.0")
    branch: str | None = key(Text(), "Its release branch.", default=None, default_text="release/X.Y")
    main: str = key(Text(), "Its trunk.", default="main")
    milestone: int | str | None = key(Milestone(), "Its milestone: a number, or a title.", default=None)
    tracker_issue: int | None = key(IssueNumber(), "The issue collecting its cherry-pick requests.", default=None)
    clone: Path = key(FilePath(nonempty=True, expand_user=True), "Its local clone.", example="~/src/vision")
    remote: str = key(Text(), "The remote holding its release branch and RC tags.", default="origin")
    cut: str = key(Text(), "Where its release branch was cut; empty: found as for the core.", default="")
    rc_tag_pattern: str = key(RcTagPattern(), "How its RC tags are named.", default=DEFAULT_RC_TAG_PATTERN)
    packages: tuple[str, ...] = key(Texts(), "Its packages in the RC index.", default=())
    core_pins: tuple[str, ...] = key(
        Texts(), "Files on its release branch that pin the core version it is built against.", default=()
    )


class RepoEntries(Tables):
    """``[[repo]]`` entries; each is named in messages by its index and, once read, its name."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(RepoTable)

    def read(self, where: Where, key: str, value: Any) -> Any:
        out = []
        for i, entry in enumerate(typed(where, key, value, list, self.expected)):
            if not isinstance(entry, dict):
                raise where.fail(f"{key}[{i}]", "a table", entry)
            plain = where.child(f"{key}[{i}]")
            if "name" not in entry:
                raise plain.missing("name", RepoName("vision").expected)
            name = RepoName("vision").read(plain, "name", entry["name"])
            out.append(read_table(RepoTable, plain.named(f"{plain.prefix} ({name})"), entry, Strict()))
        return tuple(out)


def libraries(where: Where, entries: tuple[RepoTable, ...], core: RepoConfig) -> tuple[RepoConfig, ...]:
    """Each entry as a repository of the release; names are unique and differ from the core's."""
    seen = {core.name: "the core ([release] name)"}
    out = []
    for i, entry in enumerate(entries):
        plain = where.child(f"repo[{i}]")
        if entry.name in seen:
            raise plain.fail(
                "name", f"a name used once, but {seen[entry.name]} is already called {entry.name!r}", entry.name
            )
        seen[entry.name] = f"repo[{i}]"
        if entry.repository == core.repository:
            named = plain.named(f"{plain.prefix} ({entry.name})")
            raise named.fail("repository", f"a repository other than the core's ({core.repository})", entry.repository)
        branch = entry.branch if entry.branch is not None else release_branch(entry.version)
        release = Release(entry.version, entry.repository, branch, entry.main, entry.milestone, entry.tracker_issue)
        out.append(
            RepoConfig(
                entry.name,
                release,
                entry.clone,
                entry.remote,
                entry.cut,
                entry.rc_tag_pattern,
                entry.packages,
                entry.core_pins,
            )
        )
    return tuple(out)


def unknown_repo(names: list[str], asked: str) -> ConfigError:
    """The error for ``--repo NAME`` naming no configured repository."""
    return ConfigError(f"no repository named {asked!r} in the release: the configured ones are {', '.join(names)}")
