"""``cockpit view --from-tracker``: the team's picture from the status comment, for anyone who can read
the tracker. Needs only ``[release]`` (and ``[github]`` for another API): no clone, no state file,
and nothing but GET requests.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

from cockpit.config import Config, parse_config
from cockpit.errors import ConfigError


def release_only_config(path: Path) -> Config | None:
    """The config at ``path`` when it has no ``[git]`` table (a viewer's config), else None."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # the usual loader says what is wrong with it
    if not isinstance(data, dict) or "git" in data:
        return None
    return parse_config(Path(path), {**data, "git": {"clone": "."}})


def run_from_tracker(config: Config, *, now: datetime | None = None) -> int:
    """Print the published picture and its age; 1 when there is none to show."""
    from cockpit.bootstrap import github_client
    from cockpit.services.status_comment import status_lines
    from cockpit.services.status_read import read_status

    rel = config.release
    if rel.tracker_issue is None:
        raise ConfigError(f"{config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number")
    client = github_client(config.github, read_only=True)
    try:
        comments = client.issue_comments(rel.repository, rel.tracker_issue)
    finally:
        client.close()
    read = read_status(comments, rel.version, now or datetime.now(UTC))
    for problem in read.problems:
        print(f"note: {problem}")
    if read.status is None:
        print(f"no status of release {rel.version} is published on {rel.repository}#{rel.tracker_issue} yet")
        return 1
    print("\n".join(status_lines(read.status, now or datetime.now(UTC))))
    if read.comment_url:
        print(f"\n{read.comment_url}")
    return 0
