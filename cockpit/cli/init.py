"""``cockpit init``: write a commented ``cockpit.toml`` for a real release from its repository and version.

What can be checked offline is checked first (the version, OWNER/NAME, the clone and its release
branch, the tracker number, the API URL, the output path), each problem on its own line, exit 2.
Then the rest is discovered (``init_discover``): the remote, trunk and RC tags from the clone, the
milestone, tracker issue and workflows from GitHub, unless ``--offline``. The file is written from
a template (``init_template``) so that its comments survive.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from cockpit.cli.init_discover import Discovery, discover_clone, discover_github, discover_offline
from cockpit.cli.init_template import release_branch, render
from cockpit.domain.release import is_valid_version

EXIT_OK, EXIT_BAD_INPUT = 0, 2
DEFAULT_API_URL = "https://api.github.com"
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_REMOTE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]*$")


def _milestone(text: str | None, problems: list[str]) -> int | str | None:
    if text is None:
        return None
    if text.strip().isdigit():
        if int(text) < 1:
            problems.append(f"--milestone {text!r}: expected a milestone number (1 or more) or its title")
        return int(text)
    if not text.strip():
        problems.append("--milestone '': expected a milestone number or its title, e.g. 2.5.0")
    return text.strip()


def _tracker(text: str | None, problems: list[str]) -> int | None:
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) < 1:
        problems.append(f"--tracker {text!r}: expected the tracker issue's number, a positive integer such as 1234")
        return None
    return int(text)


def _check_clone(
    clone: Path, remote: str | None, branch: str | None, repository: str | None, problems: list[str]
) -> None:
    """The clone exists, is a git repository, has the remote (when given), and has the release branch.

    The branch counts when it is local or in a remote-tracking ref (``--remote``'s, else any remote's):
    nothing is fetched.
    """
    from cockpit.bootstrap import git_repo
    from cockpit.errors import GitError
    from cockpit.services.release_discovery import choose_remote

    if not clone.is_dir():
        problems.append(f"--clone {clone}: no such folder; expected your local clone of the repository")
        return
    try:
        repo = git_repo(clone, read_only=True)
        remotes = repo.remotes()
        remote_ok = remote is None or not _REMOTE.match(remote) or remote in remotes
        if not remote_ok:
            problems.append(
                f"--remote {remote!r}: the clone {clone} has no such remote (git -C {clone} remote -v lists them)"
            )
        if branch is None or repo.ref_exists(f"refs/heads/{branch}"):
            return
        candidates = [remote] if remote is not None else list(remotes)
        usable = [r for r in candidates if r in remotes and _REMOTE.match(r)]
        if any(repo.ref_exists(f"refs/remotes/{r}/{branch}") for r in usable):
            return
        if remote is not None:
            fetch = f"; fetch it (git -C {clone} fetch {remote} {branch})" if remote_ok else ""
            problems.append(f"--clone {clone}: has neither {branch} nor {remote}/{branch}{fetch}, or check --version")
            return
        if not remotes:
            problems.append(
                f"--clone {clone}: has no {branch} and no remote to fetch it from "
                f"(git -C {clone} remote add upstream URL), or check --version"
            )
            return
        fetch_from = choose_remote(repository or "", branch, remotes, []).name or sorted(remotes)[0]
        problems.append(
            f"--clone {clone}: neither {branch} nor any remote's {branch} ({', '.join(sorted(remotes))}); "
            f"fetch it (git -C {clone} fetch {fetch_from} {branch}), or check --version"
        )
    except GitError as exc:
        if "not a git repository" in exc.message:
            problems.append(f"--clone {clone}: not a git repository; expected your local clone of the repository")
            return
        problems.append(f"--clone {clone}: not a usable git clone: {exc.message.removeprefix(f'{clone}: ')}")


def output_path(args: argparse.Namespace) -> Path:
    """``--output``, else the ``--config`` path, else ``./cockpit.toml``."""
    return (args.output or getattr(args, "config", None) or Path("cockpit.toml")).expanduser()


def validate(args: argparse.Namespace) -> list[str]:
    """Every problem with the flags, one line each (empty: fine to write)."""
    problems: list[str] = []
    version, repository = args.release_version, args.repository
    if version is None:
        problems.append("--version is required: the release, e.g. --version 2.5.0")
    elif not is_valid_version(version):
        problems.append(f"--version {version!r}: expected a release version like 2.5.0")
    if repository is None:
        problems.append("--repository is required: the GitHub repository, e.g. --repository pytorch/pytorch")
    elif not _REPOSITORY.match(repository):
        problems.append(f"--repository {repository!r}: expected OWNER/NAME, e.g. pytorch/pytorch")
    args.milestone_value = _milestone(args.milestone, problems)
    args.tracker_value = _tracker(args.tracker, problems)
    if args.remote is not None and not _REMOTE.match(args.remote):
        problems.append(f"--remote {args.remote!r}: expected a git remote name such as origin or upstream")
    url = urlsplit(args.api_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        problems.append(f"--api-url {args.api_url!r}: expected an http(s) URL such as https://api.github.com")
    branch = release_branch(version) if version and is_valid_version(version) else None
    repository_ok = repository if repository and _REPOSITORY.match(repository) else None
    _check_clone(args.clone.expanduser().resolve(), args.remote, branch, repository_ok, problems)
    output = output_path(args)
    if output.is_dir():
        problems.append(
            f"--output {output}: is a folder; expected the path of the file to write, e.g. {output / 'cockpit.toml'}"
        )
    elif output.exists() and not args.force:
        problems.append(f"--output {output}: already exists; pass --force to overwrite it")
    elif not output.parent.resolve().is_dir():
        problems.append(f"--output {output}: the folder {output.parent} does not exist")
    return problems


def run_init(args: argparse.Namespace) -> int:
    """Validate the flags, discover the rest, write the config, say what was found and what to run next.

    Under ``--read-only`` nothing is written. Nothing is written either when GitHub cannot be read
    (a missing repository, a refused token, no network): one line says why, exit 2.
    """
    if getattr(args, "read_only", False):
        print(
            "cockpit init: --read-only: init writes a config file, so it refuses to run read-only; "
            "run it without --read-only",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if getattr(args, "add_repo", None) is not None:  # a domain library into an existing config
        from cockpit.cli.init_add_repo import run_add_repo

        return run_add_repo(args)
    args.api_url = args.api_url or DEFAULT_API_URL
    problems = validate(args)
    if problems:
        for problem in problems:
            print(f"cockpit init: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    found, failure = discover(args)
    if found is None:
        print(f"cockpit init: {failure}", file=sys.stderr)
        return EXIT_BAD_INPUT
    output = output_path(args).absolute()
    text = render(
        version=args.release_version,
        repository=args.repository,
        clone=args.clone.expanduser().resolve(),
        api_url=args.api_url,
        found=found,
    )
    partial = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(output)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        print(f"cockpit init: --output {output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for line in found.summary():
        print(line)
    print(f"wrote {output}")
    print(f"next: cockpit --config {output} check")
    return EXIT_OK


def discover(args: argparse.Namespace) -> tuple[Discovery | None, str]:
    """What the clone and GitHub say about the release, or the one line saying why they could not be read."""
    from cockpit.bootstrap import git_repo, github_client
    from cockpit.config import GitHubConfig
    from cockpit.errors import CockpitError, GitHubError, RateLimited

    version, repository = args.release_version, args.repository
    branch = release_branch(version)
    try:
        found = discover_clone(
            git_repo(args.clone.expanduser().resolve(), read_only=True), args, repository, branch, version
        )
    except CockpitError as exc:
        return None, f"--clone {args.clone}: {exc.message}"
    if args.offline:
        return discover_offline(found, args), ""
    api = args.api_url.rstrip("/")
    try:
        github = github_client(GitHubConfig(api_url=api), read_only=True)
    except CockpitError as exc:
        return None, f"--api-url {args.api_url}: {exc.message}"
    try:
        if not github.repository_exists(repository):
            return None, (
                f"--repository {repository}: not found at {api}: no such repository, or a private one "
                + (
                    "and no token was found (set GH_TOKEN or run 'cockpit auth login')"
                    if not _has_token(api)
                    else "the token cannot see"
                )
            )
        discover_github(github, found, args, repository, branch, version)
    except GitHubError as exc:
        refused = isinstance(exc, RateLimited) or getattr(exc, "status", None) in (401, 403)
        no_token = refused and not _has_token(api)
        hint = " (no token was found: set GH_TOKEN or run 'cockpit auth login')" if no_token else ""
        return None, (
            f"cannot read {repository} at {api}: {exc.message.rstrip('.')}{hint}; "
            "or pass --offline to write the config without asking GitHub"
        )
    finally:
        github.close()
    return found, ""


def _has_token(api_url: str) -> bool:
    """Whether a token was there to send: the likeliest cause of a 404 on a private repository or a 403."""
    from cockpit.adapters.credentials import resolve_token

    return resolve_token(api_url).token is not None
