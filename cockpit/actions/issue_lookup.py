"""Find an issue by its exact title before opening one of that title: the newest issues of the repository
(search may not have indexed an issue opened a moment ago), and the search too when asked. Shared by the
actions that open an issue once: the validation issue, the tracking issue, the release tracker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent
from cockpit.domain.github import ItemKind

if TYPE_CHECKING:
    from cockpit.domain.github import MilestoneItem
    from cockpit.ports import GitHubPort

RECENT_ISSUES = 100
"""The newest issues read to find a just-opened one."""


def titled_issues(github: GitHubPort, repo: str, title: str, *, search: str = "") -> list[MilestoneItem]:
    """The issues (not PRs) of ``repo`` titled exactly ``title``, once each, in the order found (newest first);
    ``search``: also this issue search (GitHub's query syntax)."""
    seen = list(github.issues(repo, state="all", limit=RECENT_ISSUES))
    if search:
        seen += github.search_issues(repo, search, limit=100)
    found: dict[int, MilestoneItem] = {}
    for item in seen:
        if item.title.strip() == title and item.kind is ItemKind.ISSUE:
            found.setdefault(item.number, item)
    return list(found.values())


def opening(repo: str, title: str) -> Intent:
    """The intent of an action that opens the issue titled ``title`` once."""
    return Intent("issue", repo, title)


def look_opened(github: GitHubPort, intent: Intent) -> Finding:
    """After an interruption: is an issue titled as intended there? (The retry adopts it: never a second one.)"""
    found = titled_issues(github, intent.where, intent.what)
    if not found:
        return Finding(NOT_DONE, f"no issue titled {intent.what!r} in {intent.where}: nothing was opened")
    shown = ", ".join(f"#{i.number}" for i in found)
    return Finding(DONE, f"{intent.where} has the issue titled {intent.what!r} ({shown}): opening again adopts it")
