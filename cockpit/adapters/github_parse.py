"""GitHub REST JSON turned into domain dataclasses, defensively: bodies can be malformed.

Each ``*_from`` function raises ``Malformed`` (a ValueError) naming the missing or mistyped field;
the client wraps it into a ``GitHubError`` that says what was being read.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from cockpit.domain.ci import CheckRun, WorkflowRun
from cockpit.domain.evidence import RepoFile
from cockpit.domain.github import (
    IssueComment,
    ItemKind,
    ItemState,
    Milestone,
    MilestoneItem,
    PullRequest,
    PullState,
)
from cockpit.domain.merging import CommitStatus, Review

# any host: GitHub Enterprise bodies link to https://HOST/owner/name/pull/N
_PR_URL = re.compile(r"(?:https?://)?[\w-]+(?:\.[\w-]+)+(?::\d+)?/([\w.-]+/[\w.-]+)/pull/(\d+)\b")
GHOST = "ghost"  # the login GitHub shows for a deleted account (the API sends ``"user": null``)
_HASH_REF = re.compile(r"(?<![\w/&])#(\d+)\b")
_RUN_IN_URL = re.compile(r"/actions/runs/(\d+)")


class Malformed(ValueError):
    """A GitHub answer lacks a field the cockpit needs, or has it of the wrong type."""


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Malformed(f"expected an object for {what}, got {type(value).__name__}")
    return value


def _int(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(f"field '{key}' should be a number, got {value!r:.40}")
    return value


def _str(d: dict[str, Any], key: str, default: str | None = None) -> str:
    value = d.get(key)
    if isinstance(value, str):
        return value
    if default is not None and value is None:
        return default
    raise Malformed(f"field '{key}' should be text, got {value!r:.40}")


def _text(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    return value if isinstance(value, str) else ""


def _login(d: dict[str, Any], key: str = "user") -> str:
    user = d.get(key)
    if user is None:
        return GHOST if key in d else ""
    return _text(user, "login") if isinstance(user, dict) else ""


def login_of(data: Any) -> str:
    """The ``login`` of a user object (``GET /user``)."""
    login = _str(_dict(data, "a user"), "login")
    if not login.strip():
        raise Malformed("the user has an empty login")
    return login


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _names(items: Any, key: str) -> tuple[str, ...]:
    if not isinstance(items, list):
        return ()
    # once each: a list naming a label twice (the sandbox world does) must not show it twice
    return tuple(dict.fromkeys(i[key] for i in items if isinstance(i, dict) and isinstance(i.get(key), str)))


def list_of(data: Any, what: str, wrap: str | None = None) -> list[Any]:
    """The list in a list answer (or in ``data[wrap]`` for ``{"total_count", wrap: [...]}``)."""
    if wrap is not None:
        data = _dict(data, what).get(wrap)
    if not isinstance(data, list):
        raise Malformed(f"expected a list of {what}, got {type(data).__name__}")
    return data


def linked_prs(body: str, repository: str, own_number: int) -> tuple[int, ...]:
    """Pull request numbers a body mentions: this repository's PR URLs and ``#N`` references."""
    numbers = {int(n) for repo, n in _PR_URL.findall(body) if repo.lower() == repository.lower()}
    numbers.update(int(n) for n in _HASH_REF.findall(body))
    numbers.discard(own_number)
    return tuple(sorted(numbers))


def sha_from(data: Any) -> str:
    return _str(_dict(data, "a commit"), "sha")


def milestone_from(data: Any) -> Milestone:
    d = _dict(data, "a milestone")
    return Milestone(
        number=_int(d, "number"),
        title=_str(d, "title"),
        state=_str(d, "state", "open"),
        open_items=_count(d, "open_issues"),
        closed_items=_count(d, "closed_issues"),
        html_url=_text(d, "html_url"),
        created_at=_time(d.get("created_at")),
        due_on=_time(d.get("due_on")),
    )


def _count(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    return value if isinstance(value, int) else 0


def item_from(data: Any, repository: str) -> MilestoneItem:
    """An issue-list row: a PR's state comes from ``pull_request.merged_at`` (no extra request)."""
    d = _dict(data, "an issue")
    number = _int(d, "number")
    pull = d.get("pull_request")
    is_pull = isinstance(pull, dict)
    state_text = _str(d, "state")
    if state_text == "open":
        state = ItemState.OPEN
    elif isinstance(pull, dict):
        state = ItemState.MERGED if pull.get("merged_at") else ItemState.CLOSED_UNMERGED
    else:
        state = ItemState.CLOSED
    body = _text(d, "body")
    return MilestoneItem(
        number=number,
        kind=ItemKind.PULL if is_pull else ItemKind.ISSUE,
        title=_str(d, "title", ""),
        state=state,
        html_url=_text(d, "html_url"),
        labels=_names(d.get("labels"), "name"),
        assignees=_names(d.get("assignees"), "login"),
        author=_login(d),
        updated_at=_time(d.get("updated_at")),
        closed_at=_time(d.get("closed_at")),
        linked_prs=linked_prs(body, repository, number) if is_pull else (),
        body=body,
        state_reason=_text(d, "state_reason") if state is ItemState.CLOSED else "",
        created_at=_time(d.get("created_at")),
    )


def comment_from(data: Any) -> IssueComment:
    d = _dict(data, "a comment")
    return IssueComment(
        id=_int(d, "id"),
        author=_login(d),
        body=_text(d, "body"),
        html_url=_text(d, "html_url"),
        created_at=_time(d.get("created_at")),
        updated_at=_time(d.get("updated_at")),
        author_association=d["author_association"] if isinstance(d.get("author_association"), str) else "",
    )


def pull_from(data: Any, repository: str) -> PullRequest:
    d = _dict(data, "a pull request")
    merged_at = _time(d.get("merged_at"))
    if _str(d, "state") == "open":
        state = PullState.OPEN
    else:
        state = PullState.MERGED if d.get("merged") is True or merged_at else PullState.CLOSED_UNMERGED
    base, head = _dict(d.get("base"), "base"), _dict(d.get("head"), "head")
    base_repo = base.get("repo")
    return PullRequest(
        number=_int(d, "number"),
        title=_str(d, "title", ""),
        state=state,
        base_ref=_str(base, "ref"),
        head_ref=_str(head, "ref", ""),
        html_url=_text(d, "html_url"),
        author=_login(d),
        created_at=_time(d.get("created_at")),
        merged_at=merged_at,
        closed_at=_time(d.get("closed_at")),
        merge_commit_sha=d.get("merge_commit_sha") if isinstance(d.get("merge_commit_sha"), str) else None,
        body=_text(d, "body"),
        repository=_text(base_repo, "full_name") if isinstance(base_repo, dict) else repository,
        head_sha=_text(head, "sha"),
        mergeable=d.get("mergeable") if isinstance(d.get("mergeable"), bool) else None,
        mergeable_state=_text(d, "mergeable_state"),
    )


def review_from(data: Any) -> Review:
    d = _dict(data, "a review")
    return Review(
        author=_login(d),
        state=_str(d, "state"),
        commit_id=_text(d, "commit_id"),
        submitted_at=_time(d.get("submitted_at")),
    )


def status_from(data: Any) -> CommitStatus:
    d = _dict(data, "a commit status")
    return CommitStatus(context=_str(d, "context"), state=_str(d, "state"))


def required_checks_from(data: Any) -> tuple[str, ...] | None:
    """The required check names of a branch (``GET /branches/{branch}``); None when the branch is not
    protected or its protection is not shown to this token."""
    d = _dict(data, "a branch")
    protection = d.get("protection")
    checks = protection.get("required_status_checks") if isinstance(protection, dict) else None
    if d.get("protected") is not True or not isinstance(checks, dict):
        return None
    contexts = checks.get("contexts")
    if not isinstance(contexts, list) or not all(isinstance(c, str) for c in contexts):
        raise Malformed("field 'protection.required_status_checks.contexts' should be a list of names")
    return tuple(dict.fromkeys(contexts))


def run_from(data: Any) -> WorkflowRun:
    d = _dict(data, "a workflow run")
    suite = d.get("check_suite_id")
    return WorkflowRun(
        id=_int(d, "id"),
        name=_str(d, "name", ""),
        head_sha=_str(d, "head_sha", ""),
        head_branch=_str(d, "head_branch", ""),
        status=_str(d, "status", ""),
        conclusion=d.get("conclusion") if isinstance(d.get("conclusion"), str) else None,
        check_suite_id=suite if isinstance(suite, int) and not isinstance(suite, bool) else None,
        html_url=_text(d, "html_url"),
        event=_text(d, "event"),
        attempt=_attempt(d.get("run_attempt")),
        created_at=_time(d.get("created_at")),
        display_title=_text(d, "display_title"),
        actor=_login(d, "actor"),
    )


def _attempt(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def check_run_from(data: Any, runs_by_suite: dict[int, WorkflowRun]) -> CheckRun:
    """A check run with ``workflow`` and ``run_id`` joined through its check suite."""
    d = _dict(data, "a check run")
    suite = d.get("check_suite")
    suite_id: Any = suite.get("id") if isinstance(suite, dict) else None  # any JSON value: only a known id matches
    run = runs_by_suite.get(suite_id)
    html = _text(d, "html_url") or _text(d, "details_url")
    run_id = run.id if run else None
    if run_id is None and (m := _RUN_IN_URL.search(_text(d, "details_url") or html)):
        run_id = int(m.group(1))
    return CheckRun(
        id=_int(d, "id"),
        name=_str(d, "name"),
        status=_str(d, "status", ""),
        conclusion=d.get("conclusion") if isinstance(d.get("conclusion"), str) else None,
        workflow=run.name if run else "",
        html_url=html,
        run_id=run_id,
        head_sha=_text(d, "head_sha"),
        started_at=_time(d.get("started_at")),
        completed_at=_time(d.get("completed_at")),
    )


def job_from(data: Any) -> CheckRun:
    """A job of a workflow run (``GET .../actions/runs/{id}/jobs``) as a check run of that run."""
    d = _dict(data, "a job")
    return CheckRun(
        id=_int(d, "id"),
        name=_str(d, "name"),
        status=_str(d, "status", ""),
        conclusion=d.get("conclusion") if isinstance(d.get("conclusion"), str) else None,
        workflow=_text(d, "workflow_name"),
        html_url=_text(d, "html_url"),
        run_id=d.get("run_id") if isinstance(d.get("run_id"), int) and not isinstance(d.get("run_id"), bool) else None,
        head_sha=_text(d, "head_sha"),
        started_at=_time(d.get("started_at")),
        completed_at=_time(d.get("completed_at")),
    )


def file_from(data: Any, repository: str, ref: str) -> RepoFile:
    """A file of the contents API; a directory (a list) or a symlink/submodule is not a file."""
    if isinstance(data, list):
        raise Malformed("expected a file, got a directory listing")
    d = _dict(data, "a file")
    if _text(d, "type") != "file":
        raise Malformed(f"expected a file, got type {_text(d, 'type')!r:.40}")
    return RepoFile(
        repository=repository,
        path=_str(d, "path"),
        ref=ref,
        sha=_str(d, "sha"),
        size=_int(d, "size"),
        html_url=_text(d, "html_url"),
        text=_content(d),
    )


def _content(d: dict[str, Any]) -> str | None:
    """A content-file's text: base64 then UTF-8; None when it is absent (over 1 MB: ``encoding: none``),
    not base64 or not UTF-8."""
    import base64
    import binascii

    content = d.get("content")
    if d.get("encoding") != "base64" or not isinstance(content, str):
        return None
    try:
        return base64.b64decode("".join(content.split()), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
