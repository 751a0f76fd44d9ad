"""``cockpit picks``: the tracker's cherry-pick requests, parsed, as JSON on stdout.

``--from-json FILE`` reads a JSON array of GitHub issue-comment objects (as ``GET
/repos/O/R/issues/N/comments`` returns them, exported with any tool) and needs no network; without
it the configured tracker issue is read from GitHub (read-only). Each request is printed as
``{"comment_id", "author", "trunk_prs": [int], "release_prs": [int], "category", "parsed"}``.
PR numbers are those of the repository (``--repo``, else the config's, else the one the comments'
own URLs name); PRs of other repositories are left out of the number lists. ``--repo NAME`` picks a
repository of the release by name; a config of several repositories without it prints each
repository's requests under its name.
Exit status: 0, or 2 with one line on stderr for unreadable input (see ``cockpit.cli.main``).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from cockpit.config import CONFIG_NAME, Config
from cockpit.domain.github import IssueComment
from cockpit.domain.picks import PickRequest
from cockpit.errors import CockpitError, ConfigError


class TrackerExportError(CockpitError):
    """The ``--from-json`` file is not a JSON array of GitHub issue comments."""

    title = "Tracker export"


_REPO = re.compile(r"^[\w.-]+/[\w.-]+$")
_COMMENT_URL = re.compile(r"^https?://[^/\s]+/(?:repos/)?([\w.-]+/[\w.-]+)/issues/")


def run(args: argparse.Namespace) -> int:
    """Print the requests; with a config of several repositories and no ``--repo``, every repository's
    tracker in turn, as one JSON object keyed by repository name."""
    from cockpit.cli.repos import each, named

    config = _config(args)
    chosen = named(config, args.repo)
    if chosen is not None:
        config, args = chosen, argparse.Namespace(**{**vars(args), "repo": chosen.release.repository})
    elif args.from_json is None and config is not None and config.repos and not args.repo:
        everything = {}
        for name, single in each(config):
            repository = single.release.repository
            everything[name] = requests_json(
                _tracker_comments(single, repository), repository, release=single.release.version
            )
        print(json.dumps(everything, indent=2))
        return 0
    if args.from_json is not None:
        comments = read_comments(args.from_json)
        repository = _repository(args, config) or _repository_from_urls(comments)
    else:
        if config is None:
            raise ConfigError(
                f"no {CONFIG_NAME} in {Path.cwd()}: pass --config PATH, or --from-json FILE to read an export"
            )
        repository = _repository(args, config) or config.release.repository
        comments = _tracker_comments(config, repository)
    version = config.release.version if config is not None else ""
    print(json.dumps(requests_json(comments, repository, release=version), indent=2))
    return 0


def requests_json(comments: list[IssueComment], repository: str, *, release: str = "") -> list[dict[str, Any]]:
    """Every comment parsed into the printed shape, in the order given (``release``: see ``parse_request``);
    the cockpit's own comments (a status comment, a manager's sign-off comment, of any release) are no requests."""
    from cockpit.services.pick_parser import parse_requests
    from cockpit.services.signoff_record import RECORD_PREFIX
    from cockpit.services.status_comment import MARKER_PREFIX

    asked = [c for c in comments if MARKER_PREFIX not in c.body and RECORD_PREFIX not in c.body]
    return [_as_json(r, repository) for r in parse_requests(asked, repository=repository, release=release)]


def read_comments(path: Path) -> list[IssueComment]:
    """The comments of an export file; ``TrackerExportError`` (one line) when it is not a JSON array of comments."""
    from cockpit.adapters.github_parse import Malformed, comment_from
    from cockpit.domain.text import inert_json

    try:
        data = inert_json(json.loads(Path(path).read_text(encoding="utf-8")))  # an export is GitHub's text too
    except OSError as exc:
        raise TrackerExportError(f"--from-json {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise TrackerExportError(
            f"--from-json {path}: not UTF-8 text: expected a JSON array of issue comments"
        ) from None
    except RecursionError:
        raise TrackerExportError(f"--from-json {path}: nested too deeply to be an array of issue comments") from None
    except ValueError as exc:
        raise TrackerExportError(
            f"--from-json {path}: not valid JSON ({_first_line(exc)}): expected an array of issue comments"
        ) from None
    if not isinstance(data, list):
        raise TrackerExportError(
            f'--from-json {path}: the JSON is {_kind(data)}, not an array: expected [{{"id": ..., "body": ...}}, ...]'
        )
    comments = []
    for index, item in enumerate(data):
        try:
            comments.append(comment_from(item))
        except Malformed as exc:
            raise TrackerExportError(f"--from-json {path}: item {index} is not an issue comment ({exc})") from None
    return comments


def _as_json(request: PickRequest, repository: str) -> dict[str, Any]:
    home = repository.casefold()

    def numbers(refs: tuple) -> list[int]:
        return [r.number for r in refs if not r.repository or r.repository.casefold() == home]

    return {
        "comment_id": request.comment_id,
        "author": request.author,
        "trunk_prs": numbers(request.trunk_prs),
        "release_prs": numbers(request.release_prs),
        "category": request.category,
        "parsed": request.parsed,
    }


def _config(args: argparse.Namespace) -> Config | None:
    from cockpit.config import load_config

    if getattr(args, "config", None) is not None:
        return load_config(args.config)
    here = Path.cwd() / CONFIG_NAME
    return load_config(here) if here.exists() else None


def _repository(args: argparse.Namespace, config: Config | None) -> str:
    repo = (args.repo or "").strip()
    if repo and not _REPO.match(repo):
        raise ConfigError(f"--repo {repo!r}: expected OWNER/NAME")
    return repo or (config.release.repository if config else "")


def _repository_from_urls(comments: list[IssueComment]) -> str:
    for comment in comments:
        match = _COMMENT_URL.match(comment.html_url or "")
        if match:
            return match.group(1)
    return ""


def _tracker_comments(config: Config, repository: str) -> list[IssueComment]:
    from cockpit.bootstrap import github_client

    if config.release.tracker_issue is None:
        raise ConfigError(f"{config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number")
    client = github_client(config.github, read_only=True)
    try:
        return client.issue_comments(repository, config.release.tracker_issue)
    finally:
        client.close()


def _kind(data: Any) -> str:
    return {dict: "an object", str: "a string", int: "a number", float: "a number", bool: "true/false"}.get(
        type(data), "null"
    )


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
