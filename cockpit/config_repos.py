"""``[[repo]]`` of ``cockpit.toml``: the domain libraries released with the core, validated strictly.

The core repository is what ``[release]``, ``[git]`` and ``[storage]`` describe, as always; each
``[[repo]]`` adds one domain library with its own version, branches, milestone, tracker issue,
clone, RC tags and packages. A config without ``[[repo]]`` is a single-repository release, read
exactly as before. Errors name the file, the entry (``repo[1] (vision)``) and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.config_names import DEFAULT_RC_TAG_PATTERN, REPO_NAME, rc_tag_pattern
from cockpit.domain.release import Release, is_valid_version
from cockpit.domain.text import inert
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.config import _Table

_KEYS = (
    "name",
    "repository",
    "version",
    "branch",
    "main",
    "milestone",
    "tracker_issue",
    "clone",
    "remote",
    "cut",
    "rc_tag_pattern",
    "packages",
    "core_pins",
)


@dataclass(frozen=True)
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


def repos_from(root: _Table, core: RepoConfig, base: Path) -> tuple[RepoConfig, ...]:
    """Each ``[[repo]]`` entry, in order; names are unique and differ from the core's."""
    from cockpit.config import _repository, _Table

    seen = {core.name: "the core ([release] name)"}
    out = []
    for i, entry in enumerate(root.tables("repo")):
        t = entry
        name = t.str("name")
        if not REPO_NAME.match(name):
            raise t.fail("name", "a short name of lower-case letters, digits, '-' or '_' such as 'vision'", name)
        if name in seen:
            raise t.fail("name", f"a name used once, but {seen[name]} is already called {name!r}", name)
        seen[name] = f"repo[{i}]"
        t = _Table(t.path, f"repo[{i}] ({name})", t.data)
        for key in t.data:
            if key not in _KEYS:
                raise t.fail(key, f"one of {', '.join(_KEYS)}")
        version = t.str("version")
        if not is_valid_version(version):
            raise t.fail("version", "a release version like '0.20.0'", version)
        milestone = t.get("milestone", (int, str), "a milestone number or title", None)
        clone = Path(t.str("clone")).expanduser()
        release = Release(
            version=version,
            repository=_repository(t, "repository"),
            branch=t.str("branch", f"release/{version.rsplit('.', 1)[0]}"),
            main=t.str("main", "main"),
            milestone=inert(milestone) if isinstance(milestone, str) else milestone,
            tracker_issue=t.get("tracker_issue", int, "an issue number", None),
        )
        if release.repository == core.repository:
            raise t.fail("repository", f"a repository other than the core's ({core.repository})", release.repository)
        out.append(
            RepoConfig(
                name=name,
                release=release,
                clone=clone if clone.is_absolute() else base / clone,
                remote=t.str("remote", "origin"),
                cut=t.str("cut", "", nonempty=False),
                rc_tag_pattern=rc_tag_pattern(t),
                packages=t.strs("packages", ()),
                core_pins=t.strs("core_pins", ()),
            )
        )
    return tuple(out)


def unknown_repo(names: list[str], asked: str) -> ConfigError:
    """The error for ``--repo NAME`` naming no configured repository."""
    return ConfigError(f"no repository named {asked!r} in the release: the configured ones are {', '.join(names)}")
