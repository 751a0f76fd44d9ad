"""``--repo`` of the headless commands: one repository of the release, or all of them.

``--repo NAME`` names a repository of the config (the core's ``[release] name`` or a ``[[repo]]``
name); an unknown name is an error listing the configured ones. ``missing-in-branch`` and ``picks``
also take ``--repo OWNER/NAME`` as they always did: a configured repository's ``owner/name``
selects it, any other is taken as the GitHub repository to read, as before.
"""

from __future__ import annotations

from dataclasses import replace

from cockpit.config import Config


def named(config: Config | None, value: str | None) -> Config | None:
    """The single-repository config ``value`` selects; None when ``value`` is empty or an ``owner/name``
    the config does not list (the caller keeps its own meaning for it)."""
    value = (value or "").strip()
    if not value or config is None:  # without a config, --repo is the OWNER/NAME the command checks itself
        return None
    if "/" in value:
        match = [r for r in config.repositories if r.repository.casefold() == value.casefold()]
        return only(config, match[0].name) if match else None
    return only(config, value)


def only(config: Config, name: str) -> Config:
    """``config`` reduced to the repository ``name``: the core without its libraries, or one library's view."""
    repo = config.repo_named(name)
    return replace(config, repos=()) if repo.core else config.for_repo(name)


def each(config: Config) -> list[tuple[str, Config]]:
    """Every repository of the release with its single-repository config, the core first."""
    return [(repo.name, only(config, repo.name)) for repo in config.repositories]
