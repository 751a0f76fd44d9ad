"""``cockpit missing-in-branch``: the branch diff for scripts and CI.

Works from a config (``--config``, or ``./cockpit.toml``) with flags overriding it, or from flags
alone. Exit status: 1 when a milestone PR is missing or a revert is owed, 0 when clean, 2 on bad
input (one line naming the problem; see ``cockpit.cli.main``).
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.config import CONFIG_NAME, Config, GitConfig
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.domain.commits import BranchDiffReport

_PR_URL = re.compile(r"https?://[^\s/]+/([\w.-]+/[\w.-]+)/pull/(\d+)/?(?:[#?].*)?")
_REMOTE = re.compile(r"[/:]([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class Settings:
    """What the command runs on, after the config and the flags are merged."""

    clone: Path
    remote: str
    branch: str
    main: str
    cut: str
    repository: str
    skip_labels: tuple[str, ...]
    release_only_patterns: tuple[str, ...]


def _config(args: argparse.Namespace) -> Config | None:
    from cockpit.config import load_config

    if args.config is not None:
        return load_config(args.config)
    here = Path.cwd() / CONFIG_NAME
    return load_config(here) if here.exists() else None


def _repository_of(clone: Path, remote: str) -> str | None:
    """``owner/name`` from the remote's URL (``git@github.com:o/n.git``, ``https://host/o/n``)."""
    from cockpit.bootstrap import git_repo

    url = git_repo(clone, read_only=True).remote_url(remote) or ""
    match = _REMOTE.search(url) if ("github" in url or url.startswith(("https://", "git@"))) else None
    return f"{match.group(1)}/{match.group(2)}" if match else None


def settings(args: argparse.Namespace, config: Config | None) -> Settings:
    """Merge flags over the config; raise ConfigError naming the flag that is needed."""
    rel = config.release if config else None
    git = config.git if config else GitConfig(clone=Path.cwd())
    clone = (args.repo_path or git.clone).expanduser()
    remote = args.remote or git.remote
    branch = args.branch or (rel.branch if rel else "")
    if not branch:
        raise ConfigError("no release branch: pass --branch (e.g. release/2.5) or --config")
    repository = args.repo or (rel.repository if rel else "") or _repository_of(clone, remote) or ""
    if repository.count("/") != 1 or not all(repository.split("/")):
        raise ConfigError(
            f"--repo {repository!r}: expected OWNER/NAME"
            if repository
            else f"cannot tell the repository from remote '{remote}': pass --repo OWNER/NAME"
        )
    return Settings(
        clone=clone,
        remote=remote,
        branch=branch,
        main=args.main or (rel.main if rel else "main"),
        cut=args.cut if args.cut is not None else git.cut,
        repository=repository,
        skip_labels=config.skip_labels if config else ("release-feature-request",),
        release_only_patterns=git.release_only_patterns,
    )


def read_prs_file(path: Path, repository: str) -> list[MilestoneItem]:
    """One PR a line (``123``, ``#123`` or its URL); blank lines skipped. Each is taken as merged."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--prs-file {path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    numbers: list[int] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        url = _PR_URL.fullmatch(line)
        if url and url.group(1).lower() != repository.lower():
            raise ConfigError(f"--prs-file {path}, line {lineno}: {line!r} is a PR of {url.group(1)}, not {repository}")
        digits = url.group(2) if url else line.removeprefix("#")
        if not (digits.isascii() and digits.isdigit()) or int(digits) == 0:
            raise ConfigError(f"--prs-file {path}, line {lineno}: {line!r} is not a PR number or PR URL")
        numbers.append(int(digits))
    if not numbers:
        raise ConfigError(f"--prs-file {path}: no PR numbers in it: expected one number or PR URL a line")
    return [
        MilestoneItem(n, ItemKind.PULL, f"PR {n}", ItemState.MERGED, f"https://github.com/{repository}/pull/{n}")
        for n in dict.fromkeys(numbers)
    ]


def _milestone_items(args: argparse.Namespace, config: Config | None, repository: str) -> list[MilestoneItem]:
    from cockpit.bootstrap import github_client
    from cockpit.config import GitHubConfig

    ref = args.milestone if args.milestone is not None else (config.release.milestone if config else None)
    if ref is None:
        raise ConfigError(
            "no milestone: pass --milestone N|TITLE or --prs-file FILE (or a config with release.milestone)"
        )
    client = github_client(config.github if config else GitHubConfig(), read_only=True)
    try:
        milestone = client.milestone(repository, ref)
        return client.milestone_items(repository, milestone.number)
    finally:
        client.close()


_ONE_CLONE_FLAGS = ("repo_path", "remote", "branch", "main", "cut", "milestone", "prs_file")


def run(args: argparse.Namespace) -> int:
    """Print the branch diff as text, JSON or Markdown; exit 1 when something needs picking or reverting.

    With a config of several repositories and no ``--repo`` (nor a flag that names one clone or
    branch), every repository's diff is printed in turn, each under its name (JSON: one object
    keyed by name)."""
    from cockpit.cli.repos import each, named
    from cockpit.services.branch_render import needs_action, to_json

    config = _config(args)
    chosen = named(config, args.repo)
    if chosen is not None:
        return _show(args, _diff(argparse.Namespace(**{**vars(args), "repo": None}), chosen))
    one_clone = args.repo or any(getattr(args, flag, None) is not None for flag in _ONE_CLONE_FLAGS)
    if config is None or not config.repos or one_clone:
        return _show(args, _diff(args, config))
    reports = {name: _diff(args, single) for name, single in each(config)}
    if args.format == "json":
        print(json.dumps({name: to_json(report) for name, report in reports.items()}, indent=2))
    else:
        for name, report in reports.items():
            rel = (config.core if name == config.core.name else config.repo_named(name)).release
            print(f"{'## ' if args.format == 'markdown' else '== '}{name} ({rel.repository}, {rel.branch})")
            _show(args, report)
            print()
    return 1 if any(needs_action(r) for r in reports.values()) else 0


def _diff(args: argparse.Namespace, config: Config | None) -> BranchDiffReport:
    """The branch diff of the repository the flags and ``config`` describe."""
    from cockpit.bootstrap import git_repo
    from cockpit.services.branch_loader import load_branch_diff

    s = settings(args, config)
    repo = git_repo(s.clone, read_only=True)  # a clone that is no clone fails here, before GitHub is asked
    items = (
        read_prs_file(args.prs_file, s.repository) if args.prs_file else _milestone_items(args, config, s.repository)
    )
    return load_branch_diff(
        repo,
        main=s.main,
        branch=s.branch,
        items=items,
        repository=s.repository,
        cut_override=s.cut,
        remote=s.remote,
        skip_labels=s.skip_labels,
        release_only_patterns=s.release_only_patterns,
        predict=bool(getattr(args, "predict", False)),
    )


def _show(args: argparse.Namespace, report: BranchDiffReport) -> int:
    """Print one diff in the asked format; 1 when something needs picking or reverting."""
    from cockpit.services.branch_diff import branch_gate
    from cockpit.services.branch_render import needs_action, to_json, to_markdown, to_text

    if args.format == "json":
        print(json.dumps(to_json(report), indent=2))
    else:
        summary = branch_gate(report).summary
        print(to_markdown(report, summary) if args.format == "markdown" else to_text(report, summary), end="")
    return 1 if needs_action(report) else 0
