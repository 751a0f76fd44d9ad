"""What ``cockpit init`` checks and discovers, for the core's config and for a library added to it
(``init_add_repo``): the milestone and tracker flags, the clone and its release branch, the output
path, and what the clone and GitHub say about the release.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cockpit.cli.init_discover import Discovery, discover_clone, discover_github, discover_offline
from cockpit.cli.init_template import release_branch

REMOTE_NAME = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_./-]*$")


def milestone_flag(text: str | None, problems: list[str]) -> int | str | None:
    """``--milestone`` as a number or a title (None when not given); what is wrong goes to ``problems``."""
    if text is None:
        return None
    if text.strip().isdigit():
        if int(text) < 1:
            problems.append(f"--milestone {text!r}: expected a milestone number (1 or more) or its title")
        return int(text)
    if not text.strip():
        problems.append("--milestone '': expected a milestone number or its title, e.g. 2.5.0")
    return text.strip()


def tracker_flag(text: str | None, problems: list[str]) -> int | None:
    """``--tracker`` as an issue number (None when not given or wrong); what is wrong goes to ``problems``."""
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) < 1:
        problems.append(f"--tracker {text!r}: expected the tracker issue's number, a positive integer such as 1234")
        return None
    return int(text)


def check_clone(
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
        remote_ok = remote is None or not REMOTE_NAME.match(remote) or remote in remotes
        if not remote_ok:
            problems.append(
                f"--remote {remote!r}: the clone {clone} has no such remote (git -C {clone} remote -v lists them)"
            )
        if branch is None or repo.ref_exists(f"refs/heads/{branch}"):
            return
        candidates = [remote] if remote is not None else list(remotes)
        usable = [r for r in candidates if r in remotes and REMOTE_NAME.match(r)]
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
