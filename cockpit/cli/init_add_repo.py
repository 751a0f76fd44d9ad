"""``cockpit init --add-repo NAME --clone PATH``: add a domain library to an existing ``cockpit.toml``.

The library's GitHub repository is read from its clone's remote (unless ``--repository``), its
version from its RC tags in flight (unless ``--version``), its release branch from the version,
and its milestone, tracker issue and release-branch workflows from GitHub, as ``cockpit init``
finds the core's (``init_discover``). A ``[[repo]]`` entry (and a ``[[ci]]`` entry when the
library's CI is not configured yet) is appended to the file, every other byte left as it was; the
result must load before it replaces the file. A name or repository the release already has is
refused, saying which entry has it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.cli.init_discover import Discovery
from cockpit.cli.init_template import binary_workflows, explained, found_key, release_branch, toml_string, with_note

if TYPE_CHECKING:
    from cockpit.config import Config

EXIT_OK, EXIT_BAD_INPUT = 0, 2
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_REMOTE_ORDER = ("upstream", "origin")


def _fail(problems: list[str]) -> int:
    for problem in problems:
        print(f"cockpit init: {problem}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _existing(output: Path, problems: list[str]) -> Config | None:
    from cockpit.config import load_config
    from cockpit.errors import ConfigError

    if not output.is_file():
        problems.append(
            f"--add-repo: {output} does not exist; write the core's config first ('cockpit init --repository "
            "OWNER/NAME --version X.Y.Z'), or name it with --config or --output"
        )
        return None
    try:
        return load_config(output)
    except ConfigError as exc:
        problems.append(f"--add-repo: {output} must load before a repository is added to it: {exc.message}")
        return None


def _name_taken(config: Config, name: str) -> str | None:
    """Which entry of the release already goes by ``name``, in words, or None."""
    if name == config.core.name:
        return f"the core ([release] name, {config.release.repository})"
    for index, repo in enumerate(config.repos):
        if repo.name == name:
            return f"repo[{index}] ({repo.repository})"
    return None


def _repository_taken(config: Config, repository: str) -> str | None:
    for repo in config.repositories:
        if repo.repository.casefold() == repository.casefold():
            return "the core" if repo.core else f"repo[{config.repos.index(repo)}] ({repo.name})"
    return None


def _repository_from_remotes(remotes: dict[str, str], remote: str | None) -> tuple[str | None, str]:
    """(owner/name, the remote it was read from) from the clone's remote URLs: ``--remote``'s, else
    upstream's, else origin's, else the only remote's."""
    from cockpit.services.release_discovery import repository_of

    names = [remote] if remote else [*[n for n in _REMOTE_ORDER if n in remotes], *sorted(remotes)]
    for name in names:
        found = repository_of(remotes.get(name, ""))
        if found:
            return found, name
    return None, ", ".join(f"{n} is {u}" for n, u in sorted(remotes.items())) or "the clone has no remote"


def run_add_repo(args: argparse.Namespace) -> int:
    """Validate, discover the library, append its entries, check that the file loads, say what was found."""
    from cockpit.cli.init_checks import check_clone, discover, milestone_flag, output_path, tracker_flag

    problems: list[str] = []
    name: str = args.add_repo
    if not _NAME.match(name):
        problems.append(f"--add-repo {name!r}: expected a short name of lower-case letters, digits, '-' or '_'")
    output = output_path(args)
    config = _existing(output, problems)
    if config is not None and _NAME.match(name) and (taken := _name_taken(config, name)):
        problems.append(f"--add-repo {name}: the release already has a repository named {name!r}: {taken} in {output}")
    args.milestone_value = milestone_flag(args.milestone, problems)
    args.tracker_value = tracker_flag(args.tracker, problems)
    clone_path = args.clone.expanduser().resolve()
    if not clone_path.is_dir():
        problems.append(f"--clone {clone_path}: no such folder; expected your local clone of the library")
    if problems or config is None:
        return _fail(problems)
    repository, version, why = _identify(args, clone_path)
    if repository is None or version is None:
        return _fail([why])
    if (taken := _repository_taken(config, repository)) is not None:
        return _fail([f"--add-repo {name}: {repository} is already in the release: {taken} in {output}"])
    check_clone(clone_path, args.remote, release_branch(version), repository, problems)
    if problems:
        return _fail(problems)
    args.repository, args.release_version = repository, version
    args.api_url = args.api_url or config.github.api_url
    found, failure = discover(args)
    if found is None:
        return _fail([failure])
    known_ci = any(ci.repository.casefold() == repository.casefold() for ci in config.ci)
    block = render_repo(
        name=name, repository=repository, version=version, clone=clone_path, found=found, ci=not known_ci
    )
    failure = _append(output, block)
    if failure:
        return _fail([failure])
    for line in found.summary():
        print(line)
    print(f"added [[repo]] {name} ({repository} {version}, {release_branch(version)}) to {output}")
    print(f"next: cockpit --config {output} check --repo {name}")
    return EXIT_OK


def _identify(args: argparse.Namespace, clone_path: Path) -> tuple[str | None, str | None, str]:
    """The library's repository and version: the flags, else its clone's remote URL and RC tags."""
    from cockpit.bootstrap import git_repo
    from cockpit.errors import CockpitError
    from cockpit.services.release_discovery import version_in_flight

    try:
        clone = git_repo(clone_path, read_only=True)
        remotes = clone.remotes()
        tags = list(clone.tags()) if args.release_version is None else []
    except CockpitError as exc:
        return None, None, f"--clone {clone_path}: not a usable git clone: {exc.message}"
    repository = args.repository
    if repository is None:
        repository, where = _repository_from_remotes(remotes, args.remote)
        if repository is None:
            return (
                None,
                None,
                (f"--clone {clone_path}: no remote names a GitHub repository ({where}); pass --repository OWNER/NAME"),
            )
    elif not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repository):
        return None, None, f"--repository {repository!r}: expected OWNER/NAME, e.g. pytorch/vision"
    version = args.release_version or version_in_flight(tags)
    if version is None:
        return (
            repository,
            None,
            (
                f"--clone {clone_path}: no RC tag vX.Y.Z-rcN without its final vX.Y.Z tag, so the library's version "
                "is not known; pass --version X.Y.Z"
            ),
        )
    from cockpit.domain.release import is_valid_version

    if not is_valid_version(version):
        return repository, None, f"--version {version!r}: expected a release version like 0.20.0"
    return repository, version, ""


def render_repo(*, name: str, repository: str, version: str, clone: Path, found: Discovery, ci: bool) -> str:
    """The ``[[repo]]`` entry (and its ``[[ci]]`` entry when ``ci``), each key explained by the schema's words."""
    from cockpit.config.release import CITable
    from cockpit.config.repos import RepoTable

    s, branch = toml_string, release_branch(version)
    lines = [
        f"# The domain library '{name}', added by 'cockpit init --add-repo'; released with the core, "
        "judged on its own.",
        "[[repo]]",
        explained(RepoTable, "name", s(name)),
        explained(RepoTable, "repository", s(repository)),
        with_note(RepoTable, "version", found.rc_tags, s(version)),
        explained(RepoTable, "branch", s(branch)),
        with_note(RepoTable, "main", found.main, s(found.main.value)),
        found_key(RepoTable, "milestone", found.milestone, s(version)),
        found_key(RepoTable, "tracker_issue", found.tracker, "1234"),
        explained(RepoTable, "clone", s(str(clone))),
        with_note(RepoTable, "remote", found.remote, s(found.remote.value)),
        _commented(explained(RepoTable, "packages", f"[{s(name)}]")),
        _commented(explained(RepoTable, "core_pins", '["requirements.txt"]')),
    ]
    if ci:
        required = "[" + ", ".join(s(n) for n in found.required.value) + "]"
        lines += [
            "",
            f"# The CI of {repository}'s release branch.",
            "[[ci]]",
            explained(CITable, "repository", s(repository)),
            explained(CITable, "branch", s(branch)),
            with_note(CITable, "required", found.required, required),
            binary_workflows(found.binary),
        ]
    return "\n".join(lines) + "\n"


def _commented(text: str) -> str:
    """The key line of ``text`` commented out (its explanation stays above it)."""
    meaning, line = text.rsplit("\n", 1)
    return f"{meaning}\n# {line}"


def _append(output: Path, block: str) -> str:
    """Append ``block`` to ``output``, atomically, only if the result loads; "" when done, else why not."""
    from cockpit.config import load_config
    from cockpit.errors import ConfigError

    try:
        before = output.read_text(encoding="utf-8")
    except OSError as exc:
        return f"--add-repo: cannot read {output}: {exc.strerror or exc}"
    text = (before if before.endswith("\n") or not before else before + "\n") + "\n" + block
    partial = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        try:
            load_config(partial)
        except ConfigError as exc:
            why = exc.message.replace(str(partial), str(output))
            return f"--add-repo: {output} would not load with the new entry, so it was left as it was: {why}"
        partial.replace(output)
    except OSError as exc:
        return f"--add-repo: cannot write {output}: {exc.strerror or exc}"
    finally:
        partial.unlink(missing_ok=True)
    return ""
