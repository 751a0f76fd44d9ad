"""The sandbox world's issues, pull requests, milestones and comments in GitHub's REST JSON shapes.

Every object carries each field GitHub's REST description (API version 2022-11-28) requires, with
GitHub's types and nullability (``tests/sandbox/test_github_conformance.py`` checks every answer).
``Urls`` knows the emulator's API base and the repository; the render functions take it and a
record and return plain dicts ready for ``json.dumps``. The nested building blocks (users,
repositories, labels) live in ``github_objects``; Actions and commits in ``github_render_ci``.
"""

from __future__ import annotations

from typing import Any

from cockpit.sandbox.github_objects import (
    CREATED,
    Urls,
    full_repo_json,
    label_json,
    repo_json,
    stable_id,
    user_json,
)
from cockpit.sandbox.github_render_ci import check_run_json, commit_json, job_json, run_json
from cockpit.sandbox.model import SbComment, SbIssue, SbMilestone, SbPull, SbRepo

__all__ = [
    "Urls",
    "check_run_json",
    "comment_json",
    "commit_json",
    "issue_json",
    "job_json",
    "label_json",
    "milestone_json",
    "pull_json",
    "repo_json",
    "run_json",
    "stable_id",
    "user_json",
]


def milestone_json(u: Urls, m: SbMilestone, open_count: int, closed_count: int) -> dict[str, Any]:
    mid = stable_id(u.full_name, "milestone", m.number)
    return {
        "url": f"{u.repo}/milestones/{m.number}",
        "html_url": f"{u.web}/milestone/{m.number}",
        "labels_url": f"{u.repo}/milestones/{m.number}/labels",
        "id": mid,
        "node_id": f"MI_{mid:x}",
        "number": m.number,
        "state": m.state,
        "title": m.title,
        "description": m.description,
        "creator": user_json(u.api, "release-bot"),
        "open_issues": open_count,
        "closed_issues": closed_count,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "closed_at": "2026-01-02T00:00:00Z" if m.state == "closed" else None,
        "due_on": m.due_on,
    }


def _user_or_ghost(api: str, login: str | None) -> dict[str, Any] | None:
    """GitHub sends ``null`` for an account that was deleted (its web pages show "ghost")."""
    return user_json(api, login) if login else None


def issue_json(u: Urls, item: SbIssue | SbPull, milestone: dict[str, Any] | None, comments: int) -> dict[str, Any]:
    """An issue object; a pull request's issue object carries ``pull_request``."""
    is_pull = isinstance(item, SbPull)
    kind = "pull" if is_pull else "issues"
    data: dict[str, Any] = {
        "url": f"{u.repo}/issues/{item.number}",
        "repository_url": u.repo,
        "labels_url": f"{u.repo}/issues/{item.number}/labels{{/name}}",
        "comments_url": f"{u.repo}/issues/{item.number}/comments",
        "events_url": f"{u.repo}/issues/{item.number}/events",
        "html_url": f"{u.web}/{kind}/{item.number}",
        "id": stable_id(u.full_name, "issue", item.number),
        "node_id": f"I_{stable_id(u.full_name, 'issue', item.number):x}",
        "number": item.number,
        "title": item.title,
        "user": _user_or_ghost(u.api, item.author),
        "labels": [label_json(u, name) for name in item.labels],
        "state": item.state,
        "locked": False,
        "assignee": user_json(u.api, item.assignees[0]) if item.assignees else None,
        "assignees": [user_json(u.api, a) for a in item.assignees],
        "milestone": milestone,
        "comments": comments,
        "created_at": item.created_at or CREATED,
        "updated_at": item.updated_at or item.created_at or CREATED,
        "closed_at": item.closed_at,
        "author_association": "CONTRIBUTOR",
        "active_lock_reason": None,
        "body": item.body,
        "timeline_url": f"{u.repo}/issues/{item.number}/timeline",
        "performed_via_github_app": None,
        "state_reason": getattr(item, "state_reason", None),
    }
    if isinstance(item, SbPull):
        data["draft"] = False
        data["pull_request"] = {
            "url": f"{u.repo}/pulls/{item.number}",
            "html_url": f"{u.web}/pull/{item.number}",
            "diff_url": f"{u.web}/pull/{item.number}.diff",
            "patch_url": f"{u.web}/pull/{item.number}.patch",
            "merged_at": item.merged_at if item.merged else None,
        }
    return data


def repository_json(u: Urls, repo: SbRepo, open_issues: int = 0) -> dict[str, Any]:
    """``GET /repos/{owner}/{repo}``."""
    return full_repo_json(u.api, repo.full_name, repo.default_branch, open_issues)


def _ref_json(u: Urls, repo: SbRepo, ref: str, sha: str) -> dict[str, Any]:
    owner = repo.full_name.split("/", 1)[0]
    return {
        "label": f"{owner}:{ref}",
        "ref": ref,
        "sha": sha,
        "user": user_json(u.api, owner, "Organization"),
        "repo": repo_json(u.api, repo.full_name, repo.default_branch),
    }


def _link(href: str) -> dict[str, str]:
    return {"href": href}


def pull_json(
    u: Urls, repo: SbRepo, p: SbPull, milestone: dict[str, Any] | None, *, complete: bool = True
) -> dict[str, Any]:
    """A pull request; ``complete=False`` gives the list form ("pull request simple")."""
    base = f"{u.repo}/pulls/{p.number}"
    issue = f"{u.repo}/issues/{p.number}"
    statuses = f"{u.repo}/statuses/{p.head_sha}"
    data: dict[str, Any] = {
        "url": base,
        "id": stable_id(u.full_name, "pull", p.number),
        "node_id": f"PR_{stable_id(u.full_name, 'pull', p.number):x}",
        "html_url": f"{u.web}/pull/{p.number}",
        "diff_url": f"{u.web}/pull/{p.number}.diff",
        "patch_url": f"{u.web}/pull/{p.number}.patch",
        "issue_url": issue,
        "commits_url": f"{base}/commits",
        "review_comments_url": f"{base}/comments",
        "review_comment_url": f"{u.repo}/pulls/comments{{/number}}",
        "comments_url": f"{issue}/comments",
        "statuses_url": statuses,
        "number": p.number,
        "state": p.state,
        "locked": False,
        "title": p.title,
        "user": user_json(u.api, p.author),
        "body": p.body,
        "labels": [label_json(u, name) for name in p.labels],
        "milestone": milestone,
        "active_lock_reason": None,
        "created_at": p.created_at or CREATED,
        "updated_at": p.updated_at or p.created_at or CREATED,
        "closed_at": p.closed_at,
        "merged_at": p.merged_at if p.merged else None,
        "merge_commit_sha": p.merge_commit_sha,
        "assignee": user_json(u.api, p.assignees[0]) if p.assignees else None,
        "assignees": [user_json(u.api, a) for a in p.assignees],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": _ref_json(u, repo, p.head_ref, p.head_sha),
        "base": _ref_json(u, repo, p.base, repo.branches.get(p.base, "")),
        "_links": {
            "self": _link(base),
            "html": _link(f"{u.web}/pull/{p.number}"),
            "issue": _link(issue),
            "comments": _link(f"{issue}/comments"),
            "review_comments": _link(f"{base}/comments"),
            "review_comment": _link(f"{u.repo}/pulls/comments{{/number}}"),
            "commits": _link(f"{base}/commits"),
            "statuses": _link(statuses),
        },
        "author_association": "CONTRIBUTOR",
        "auto_merge": None,
        "draft": False,
    }
    if complete:
        data.update(
            {
                "merged": p.merged,
                "mergeable": p.mergeable,
                "rebaseable": None,
                "mergeable_state": p.mergeable_state,
                "merged_by": user_json(u.api, "pytorchmergebot") if p.merged else None,
                "comments": 0,
                "review_comments": 0,
                "maintainer_can_modify": False,
                "commits": 1,
                "additions": 0,
                "deletions": 0,
                "changed_files": 0,
            }
        )
    return data


def comment_json(u: Urls, c: SbComment, is_pull: bool) -> dict[str, Any]:
    kind = "pull" if is_pull else "issues"
    return {
        "id": c.id,
        "node_id": f"IC_{c.id:x}",
        "url": f"{u.repo}/issues/comments/{c.id}",
        "html_url": f"{u.web}/{kind}/{c.issue_number}#issuecomment-{c.id}",
        "issue_url": f"{u.repo}/issues/{c.issue_number}",
        "user": _user_or_ghost(u.api, c.author),
        "created_at": c.created_at or CREATED,
        "updated_at": c.updated_at or c.created_at or CREATED,
        "author_association": c.association,
        "body": c.body,
        "performed_via_github_app": None,
    }
