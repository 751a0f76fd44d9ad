"""The sandbox world's records rendered in GitHub's REST JSON shapes (the fields clients read).

``Urls`` knows the emulator's API base and the repository; the render functions take it and a
record and return plain dicts ready for ``json.dumps``.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from cockpit.sandbox.model import (
    SbCheckRun,
    SbComment,
    SbIssue,
    SbMilestone,
    SbPull,
    SbRepo,
    SbWorkflowRun,
)

WEB = "https://github.com"


def stable_id(*parts: object) -> int:
    """A deterministic positive id for records the world gives no id (users, labels, issues)."""
    return zlib.crc32("/".join(str(p) for p in parts).encode()) or 1


@dataclass(frozen=True)
class Urls:
    """API and web URLs of one repository as served by one emulator."""

    api: str  # emulator base, e.g. http://127.0.0.1:PORT
    full_name: str

    @property
    def repo(self) -> str:
        return f"{self.api}/repos/{self.full_name}"

    @property
    def web(self) -> str:
        return f"{WEB}/{self.full_name}"


def user_json(api: str, login: str) -> dict[str, Any]:
    return {
        "login": login,
        "id": stable_id("user", login),
        "node_id": f"U_{stable_id('user', login):x}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{stable_id('user', login)}",
        "url": f"{api}/users/{login}",
        "html_url": f"{WEB}/{login}",
        "type": "Bot" if login.endswith("[bot]") else "User",
        "site_admin": False,
    }


def label_json(u: Urls, name: str) -> dict[str, Any]:
    return {
        "id": stable_id(u.full_name, "label", name),
        "node_id": f"LA_{stable_id(u.full_name, 'label', name):x}",
        "url": f"{u.repo}/labels/{name.replace(' ', '%20')}",
        "name": name,
        "color": f"{stable_id(name) & 0xFFFFFF:06x}",
        "default": False,
        "description": None,
    }


def milestone_json(u: Urls, m: SbMilestone, open_count: int, closed_count: int) -> dict[str, Any]:
    return {
        "url": f"{u.repo}/milestones/{m.number}",
        "html_url": f"{u.web}/milestone/{m.number}",
        "labels_url": f"{u.repo}/milestones/{m.number}/labels",
        "id": stable_id(u.full_name, "milestone", m.number),
        "node_id": f"MI_{stable_id(u.full_name, 'milestone', m.number):x}",
        "number": m.number,
        "title": m.title,
        "description": m.description,
        "creator": user_json(u.api, "release-bot"),
        "open_issues": open_count,
        "closed_issues": closed_count,
        "state": m.state,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "due_on": m.due_on,
        "closed_at": "2026-01-02T00:00:00Z" if m.state == "closed" else None,
    }


def issue_json(
    u: Urls, item: SbIssue | SbPull, milestone: dict[str, Any] | None, comments: int
) -> dict[str, Any]:
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
        "user": user_json(u.api, item.author),
        "labels": [label_json(u, name) for name in item.labels],
        "state": item.state,
        "locked": False,
        "assignee": user_json(u.api, item.assignees[0]) if item.assignees else None,
        "assignees": [user_json(u.api, a) for a in item.assignees],
        "milestone": milestone,
        "comments": comments,
        "created_at": item.created_at,
        "updated_at": item.updated_at,
        "closed_at": item.closed_at,
        "author_association": "CONTRIBUTOR",
        "body": item.body,
        "state_reason": getattr(item, "state_reason", None),
    }
    if is_pull:
        data["draft"] = False
        data["pull_request"] = {
            "url": f"{u.repo}/pulls/{item.number}",
            "html_url": f"{u.web}/pull/{item.number}",
            "diff_url": f"{u.web}/pull/{item.number}.diff",
            "patch_url": f"{u.web}/pull/{item.number}.patch",
            "merged_at": item.merged_at if item.merged else None,
        }
    return data


def repo_json(u: Urls, repo: SbRepo, open_issues: int = 0) -> dict[str, Any]:
    owner, name = repo.full_name.split("/", 1)
    return {
        "id": stable_id("repo", repo.full_name),
        "node_id": f"R_{stable_id('repo', repo.full_name):x}",
        "name": name,
        "full_name": repo.full_name,
        "private": False,
        "owner": user_json(u.api, owner) | {"type": "Organization"},
        "html_url": u.web,
        "description": f"{name}: a fictional project of the cockpit sandbox",
        "fork": False,
        "url": u.repo,
        "issues_url": f"{u.repo}/issues{{/number}}",
        "pulls_url": f"{u.repo}/pulls{{/number}}",
        "milestones_url": f"{u.repo}/milestones{{/number}}",
        "commits_url": f"{u.repo}/commits{{/sha}}",
        "git_url": f"git://github.com/{repo.full_name}.git",
        "clone_url": f"{u.web}.git",
        "created_at": "2020-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "pushed_at": "2026-01-01T00:00:00Z",
        "default_branch": repo.default_branch,
        "visibility": "public",
        "archived": False,
        "disabled": False,
        "has_issues": True,
        "open_issues_count": open_issues,
        "permissions": {"admin": False, "maintain": True, "push": True, "triage": True, "pull": True},
    }


def _ref_json(u: Urls, repo: SbRepo, ref: str, sha: str) -> dict[str, Any]:
    owner = repo.full_name.split("/", 1)[0]
    return {
        "label": f"{owner}:{ref}",
        "ref": ref,
        "sha": sha,
        "user": user_json(u.api, owner),
        "repo": {"id": stable_id("repo", repo.full_name), "full_name": repo.full_name, "url": u.repo},
    }


def pull_json(u: Urls, repo: SbRepo, p: SbPull, milestone: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "url": f"{u.repo}/pulls/{p.number}",
        "id": stable_id(u.full_name, "pull", p.number),
        "node_id": f"PR_{stable_id(u.full_name, 'pull', p.number):x}",
        "html_url": f"{u.web}/pull/{p.number}",
        "diff_url": f"{u.web}/pull/{p.number}.diff",
        "patch_url": f"{u.web}/pull/{p.number}.patch",
        "issue_url": f"{u.repo}/issues/{p.number}",
        "comments_url": f"{u.repo}/issues/{p.number}/comments",
        "number": p.number,
        "state": p.state,
        "locked": False,
        "title": p.title,
        "user": user_json(u.api, p.author),
        "body": p.body,
        "labels": [label_json(u, name) for name in p.labels],
        "milestone": milestone,
        "created_at": p.created_at,
        "updated_at": p.updated_at,
        "closed_at": p.closed_at,
        "merged_at": p.merged_at if p.merged else None,
        "merge_commit_sha": p.merge_commit_sha,
        "assignee": user_json(u.api, p.assignees[0]) if p.assignees else None,
        "assignees": [user_json(u.api, a) for a in p.assignees],
        "requested_reviewers": [],
        "head": _ref_json(u, repo, p.head_ref, p.head_sha),
        "base": _ref_json(u, repo, p.base, repo.branches.get(p.base, "")),
        "author_association": "CONTRIBUTOR",
        "draft": False,
        "merged": p.merged,
        "mergeable": None,
        "merged_by": user_json(u.api, "pytorchmergebot") if p.merged else None,
        "comments": 0,
        "commits": 1,
    }


def comment_json(u: Urls, c: SbComment, is_pull: bool) -> dict[str, Any]:
    kind = "pull" if is_pull else "issues"
    return {
        "id": c.id,
        "node_id": f"IC_{c.id:x}",
        "url": f"{u.repo}/issues/comments/{c.id}",
        "html_url": f"{u.web}/{kind}/{c.issue_number}#issuecomment-{c.id}",
        "issue_url": f"{u.repo}/issues/{c.issue_number}",
        "user": user_json(u.api, c.author),
        "created_at": c.created_at,
        "updated_at": c.updated_at,
        "author_association": "MEMBER",
        "body": c.body,
    }


def commit_json(u: Urls, sha: str, parent: str | None) -> dict[str, Any]:
    parents = [{"sha": parent, "url": f"{u.repo}/commits/{parent}", "html_url": f"{u.web}/commit/{parent}"}] if parent else []
    return {
        "sha": sha,
        "node_id": f"C_{sha[:12]}",
        "url": f"{u.repo}/commits/{sha}",
        "html_url": f"{u.web}/commit/{sha}",
        "commit": {"message": "", "tree": {"sha": sha, "url": f"{u.repo}/git/trees/{sha}"}},
        "parents": parents,
    }


def run_json(u: Urls, r: SbWorkflowRun) -> dict[str, Any]:
    return {
        "id": r.id,
        "name": r.name,
        "node_id": f"WFR_{r.id:x}",
        "head_branch": r.head_branch,
        "head_sha": r.head_sha,
        "path": f".github/workflows/{r.name}.yml",
        "display_title": r.name,
        "run_number": r.id % 100000,
        "event": r.event,
        "status": r.status,
        "conclusion": r.conclusion,
        "workflow_id": stable_id(u.full_name, "workflow", r.name),
        "check_suite_id": r.check_suite_id,
        "check_suite_node_id": f"CS_{r.check_suite_id:x}",
        "url": f"{u.repo}/actions/runs/{r.id}",
        "html_url": f"{u.web}/actions/runs/{r.id}",
        "jobs_url": f"{u.repo}/actions/runs/{r.id}/jobs",
        "logs_url": f"{u.repo}/actions/runs/{r.id}/logs",
        "check_suite_url": f"{u.repo}/check-suites/{r.check_suite_id}",
        "rerun_url": f"{u.repo}/actions/runs/{r.id}/rerun",
        "created_at": r.created_at,
        "updated_at": r.created_at,
        "run_attempt": r.run_attempt,
        "run_started_at": r.created_at,
        "head_commit": {"id": r.head_sha, "tree_id": r.head_sha},
    }


def check_run_json(u: Urls, c: SbCheckRun, check_suite_id: int) -> dict[str, Any]:
    html = f"{u.web}/actions/runs/{c.run_id}/job/{c.id}"
    return {
        "id": c.id,
        "name": c.name,
        "node_id": f"CR_{c.id:x}",
        "head_sha": c.head_sha,
        "external_id": str(c.id),
        "url": f"{u.repo}/check-runs/{c.id}",
        "html_url": html,
        "details_url": html,
        "status": c.status,
        "conclusion": c.conclusion,
        "started_at": c.started_at,
        "completed_at": c.completed_at,
        "output": {"title": None, "summary": None, "text": None, "annotations_count": 0,
                   "annotations_url": f"{u.repo}/check-runs/{c.id}/annotations"},
        "check_suite": {"id": check_suite_id},
        "app": {"id": 15368, "slug": "github-actions", "name": "GitHub Actions"},
        "pull_requests": [],
    }


def job_json(u: Urls, c: SbCheckRun, run: SbWorkflowRun) -> dict[str, Any]:
    return {
        "id": c.id,
        "run_id": run.id,
        "run_url": f"{u.repo}/actions/runs/{run.id}",
        "run_attempt": run.run_attempt,
        "node_id": f"CR_{c.id:x}",
        "head_sha": c.head_sha,
        "head_branch": run.head_branch,
        "url": f"{u.repo}/actions/jobs/{c.id}",
        "html_url": f"{u.web}/actions/runs/{run.id}/job/{c.id}",
        "status": c.status,
        "conclusion": c.conclusion,
        "created_at": c.started_at,
        "started_at": c.started_at,
        "completed_at": c.completed_at,
        "name": c.name,
        "workflow_name": run.name,
        "steps": [],
        "check_run_url": f"{u.repo}/check-runs/{c.id}",
        "labels": [],
        "runner_name": None,
    }
