"""GitHub's answers in the shapes api.github.com sends, written for these tests.

The pinned description (``githubkit-schemas``) ships models, not GitHub's example responses, so
these examples are our own words in GitHub's real shapes; ``test_github_real_shapes`` first checks
each against its operation's schema, so a shape here cannot drift from GitHub's. Each builder
takes the few fields a test varies and fills every other field GitHub always sends.
"""

from __future__ import annotations

from typing import Any

API = "https://api.github.com"
WEB = "https://github.com"
WHEN = "2026-09-10T10:00:00Z"


def user(login: str, uid: int = 1001, kind: str = "User") -> dict[str, Any]:
    url = f"{API}/users/{login}"
    return {
        "login": login,
        "id": uid,
        "node_id": f"MDQ6VXNlcj{uid}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
        "gravatar_id": "",
        "url": url,
        "html_url": f"{WEB}/{login}",
        "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}",
        "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions",
        "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos",
        "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events",
        "type": kind,
        "user_view_type": "public",
        "site_admin": False,
    }


_REPO_URLS = (
    "archive:{archive_format}{/ref}",
    "assignees:assignees{/user}",
    "blobs:git/blobs{/sha}",
    "branches:branches{/branch}",
    "collaborators:collaborators{/collaborator}",
    "comments:comments{/number}",
    "commits:commits{/sha}",
    "compare:compare/{base}...{head}",
    "contents:contents/{+path}",
    "contributors:contributors",
    "deployments:deployments",
    "downloads:downloads",
    "events:events",
    "forks:forks",
    "git_commits:git/commits{/sha}",
    "git_refs:git/refs{/sha}",
    "git_tags:git/tags{/sha}",
    "issue_comment:issues/comments{/number}",
    "issue_events:issues/events{/number}",
    "issues:issues{/number}",
    "keys:keys{/key_id}",
    "labels:labels{/name}",
    "languages:languages",
    "merges:merges",
    "milestones:milestones{/number}",
    "notifications:notifications{?since,all,participating}",
    "pulls:pulls{/number}",
    "releases:releases{/id}",
    "stargazers:stargazers",
    "statuses:statuses/{sha}",
    "subscribers:subscribers",
    "subscription:subscription",
    "tags:tags",
    "teams:teams",
    "trees:git/trees{/sha}",
    "hooks:hooks",
)


def repo(full_name: str = "pytorch/pytorch", rid: int = 65600975, fork: bool = False) -> dict[str, Any]:
    owner, name = full_name.split("/")
    url = f"{API}/repos/{full_name}"
    data = {
        "id": rid,
        "node_id": f"MDEwOlJlcG9zaXRvcnk{rid}",
        "name": name,
        "full_name": full_name,
        "private": False,
        "owner": user(owner, rid + 1, "Organization" if not fork else "User"),
        "html_url": f"{WEB}/{full_name}",
        "description": "Tensors and dynamic neural networks",
        "fork": fork,
        "url": url,
        "git_url": f"git://github.com/{full_name}.git",
        "ssh_url": f"git@github.com:{full_name}.git",
        "clone_url": f"{WEB}/{full_name}.git",
        "svn_url": f"{WEB}/{full_name}",
        "mirror_url": None,
        "homepage": None,
        "language": "Python",
        "forks_count": 1,
        "stargazers_count": 2,
        "watchers_count": 2,
        "size": 100,
        "default_branch": "main",
        "open_issues_count": 3,
        "has_issues": True,
        "has_projects": True,
        "has_wiki": True,
        "has_pages": False,
        "has_discussions": False,
        "archived": False,
        "disabled": False,
        "pushed_at": WHEN,
        "created_at": "2016-08-13T05:26:41Z",
        "updated_at": WHEN,
        "license": None,
        "forks": 1,
        "open_issues": 3,
        "watchers": 2,
    }
    data.update({f"{k}_url": f"{url}/{v}" for k, v in (pair.split(":", 1) for pair in _REPO_URLS)})
    return data


def label(name: str, lid: int = 7) -> dict[str, Any]:
    return {
        "id": lid,
        "node_id": f"LA_{lid}",
        "url": f"{API}/repos/pytorch/pytorch/labels/{name}",
        "name": name,
        "color": "ededed",
        "default": False,
        "description": None,
    }


def milestone(number: int = 47, title: str = "2.5.0", state: str = "open") -> dict[str, Any]:
    url = f"{API}/repos/pytorch/pytorch/milestones/{number}"
    return {
        "url": url,
        "html_url": f"{WEB}/pytorch/pytorch/milestone/{number}",
        "labels_url": f"{url}/labels",
        "id": 9000 + number,
        "node_id": f"MI_{number}",
        "number": number,
        "state": state,
        "title": title,
        "description": None,
        "creator": user("atalman", 7563158),
        "open_issues": 4,
        "closed_issues": 120,
        "created_at": "2026-06-01T00:00:00Z",
        "updated_at": WHEN,
        "closed_at": None,
        "due_on": None,
    }


def issue(
    number: int,
    *,
    state: str = "open",
    author: Any = "malfet",
    state_reason: str | None = None,
    pull_merged_at: Any = ...,
    body: str | None = "",
    with_milestone: bool = True,
) -> dict[str, Any]:
    """An issue list row; ``pull_merged_at`` (a time or None) makes it a pull request's row."""
    url = f"{API}/repos/pytorch/pytorch/issues/{number}"
    data = {
        "url": url,
        "repository_url": f"{API}/repos/pytorch/pytorch",
        "labels_url": f"{url}/labels{{/name}}",
        "comments_url": f"{url}/comments",
        "events_url": f"{url}/events",
        "html_url": f"{WEB}/pytorch/pytorch/issues/{number}",
        "id": 2_000_000 + number,
        "node_id": f"I_{number}",
        "number": number,
        "title": f"Item {number}",
        "user": user(author) if isinstance(author, str) else author,
        "labels": [label("release notes: nn")],
        "state": state,
        "locked": False,
        "assignee": None,
        "assignees": [],
        "milestone": milestone() if with_milestone else None,
        "comments": 2,
        "created_at": WHEN,
        "updated_at": WHEN,
        "closed_at": WHEN if state == "closed" else None,
        "author_association": "CONTRIBUTOR",
        "active_lock_reason": None,
        "body": body,
        "state_reason": state_reason,
        "timeline_url": f"{url}/timeline",
        "performed_via_github_app": None,
        "reactions": {
            "url": f"{url}/reactions",
            "total_count": 0,
            "+1": 0,
            "-1": 0,
            "laugh": 0,
            "hooray": 0,
            "confused": 0,
            "heart": 0,
            "rocket": 0,
            "eyes": 0,
        },
    }
    if pull_merged_at is not ...:
        pulls = f"{API}/repos/pytorch/pytorch/pulls/{number}"
        data["html_url"] = f"{WEB}/pytorch/pytorch/pull/{number}"
        data["draft"] = False
        data["pull_request"] = {
            "url": pulls,
            "html_url": data["html_url"],
            "diff_url": f"{data['html_url']}.diff",
            "patch_url": f"{data['html_url']}.patch",
            "merged_at": pull_merged_at,
        }
    return data


def comment(cid: int, body: str | None, author: Any = "atalman") -> dict[str, Any]:
    return {
        "id": cid,
        "node_id": f"IC_{cid}",
        "url": f"{API}/repos/pytorch/pytorch/issues/comments/{cid}",
        "html_url": f"{WEB}/pytorch/pytorch/issues/130000#issuecomment-{cid}",
        "body": body,
        "user": user(author) if isinstance(author, str) else author,
        "created_at": WHEN,
        "updated_at": WHEN,
        "issue_url": f"{API}/repos/pytorch/pytorch/issues/130000",
        "author_association": "MEMBER",
        "performed_via_github_app": None,
    }


def pull(
    number: int,
    *,
    base: str = "release/2.5",
    head_repo: Any = ...,
    state: str = "closed",
    merged: bool = True,
    author: Any = "pytorchbot",
) -> dict[str, Any]:
    """``GET /repos/pytorch/pytorch/pulls/{number}``; ``head_repo`` a fork's repository or None (deleted)."""
    url = f"{API}/repos/pytorch/pytorch/pulls/{number}"
    issue_url = f"{API}/repos/pytorch/pytorch/issues/{number}"
    html = f"{WEB}/pytorch/pytorch/pull/{number}"
    head = repo() if head_repo is ... else head_repo
    links = {
        "self": url,
        "html": html,
        "issue": issue_url,
        "comments": f"{issue_url}/comments",
        "review_comments": f"{url}/comments",
        "review_comment": f"{API}/repos/pytorch/pytorch/pulls/comments{{/number}}",
        "commits": f"{url}/commits",
        "statuses": f"{API}/repos/pytorch/pytorch/statuses/{'b' * 40}",
    }
    return {
        "url": url,
        "id": 3_000_000 + number,
        "node_id": f"PR_{number}",
        "html_url": html,
        "diff_url": f"{html}.diff",
        "patch_url": f"{html}.patch",
        "issue_url": issue_url,
        "commits_url": f"{url}/commits",
        "review_comments_url": f"{url}/comments",
        "review_comment_url": links["review_comment"],
        "comments_url": f"{issue_url}/comments",
        "statuses_url": links["statuses"],
        "number": number,
        "state": state,
        "locked": False,
        "title": f"[release/2.5] Fix {number}",
        "user": user(author) if isinstance(author, str) else author,
        "body": None,
        "labels": [],
        "milestone": None,
        "active_lock_reason": None,
        "created_at": WHEN,
        "updated_at": WHEN,
        "closed_at": WHEN if state == "closed" else None,
        "merged_at": WHEN if merged else None,
        "merge_commit_sha": "a" * 40 if merged else None,
        "assignee": None,
        "assignees": [],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": {
            "label": f"{(head or {}).get('owner', {}).get('login', 'ghost')}:fix-{number}",
            "ref": f"fix-{number}",
            "sha": "b" * 40,
            "user": head["owner"] if head else None,
            "repo": head,
        },
        "base": {
            "label": f"pytorch:{base}",
            "ref": base,
            "sha": "c" * 40,
            "user": user("pytorch", 21003710, "Organization"),
            "repo": repo(),
        },
        "_links": {k: {"href": v} for k, v in links.items()},
        "author_association": "COLLABORATOR",
        "auto_merge": None,
        "draft": False,
        "merged": merged,
        "mergeable": None,
        "rebaseable": None,
        "mergeable_state": "unknown",
        "merged_by": user("pytorchmergebot") if merged else None,
        "comments": 1,
        "review_comments": 0,
        "maintainer_can_modify": False,
        "commits": 1,
        "additions": 3,
        "deletions": 1,
        "changed_files": 1,
    }


def workflow_run(
    run_id: int, *, attempt: int = 1, conclusion: str | None = "success", suite: int = 555
) -> dict[str, Any]:
    url = f"{API}/repos/pytorch/pytorch/actions/runs/{run_id}"
    minimal = {k: v for k, v in repo().items() if k not in ("license",)}
    return {
        "id": run_id,
        "name": "trunk",
        "node_id": f"WFR_{run_id}",
        "head_branch": "release/2.5",
        "head_sha": "d" * 40,
        "path": ".github/workflows/trunk.yml",
        "display_title": "[release/2.5] Fix the thing (#140001)",
        "run_number": 4242,
        "event": "push",
        "status": "completed" if conclusion else "in_progress",
        "conclusion": conclusion,
        "workflow_id": 1234,
        "check_suite_id": suite,
        "check_suite_node_id": f"CS_{suite}",
        "url": url,
        "html_url": f"{WEB}/pytorch/pytorch/actions/runs/{run_id}",
        "pull_requests": [],
        "created_at": WHEN,
        "updated_at": WHEN,
        "actor": user("pytorchmergebot"),
        "triggering_actor": user("atalman"),
        "run_attempt": attempt,
        "referenced_workflows": [],
        "run_started_at": WHEN,
        "jobs_url": f"{url}/jobs",
        "logs_url": f"{url}/logs",
        "check_suite_url": f"{API}/repos/pytorch/pytorch/check-suites/{suite}",
        "artifacts_url": f"{url}/artifacts",
        "cancel_url": f"{url}/cancel",
        "rerun_url": f"{url}/rerun",
        "previous_attempt_url": f"{url}/attempts/{attempt - 1}" if attempt > 1 else None,
        "workflow_url": f"{API}/repos/pytorch/pytorch/actions/workflows/1234",
        "head_commit": {
            "id": "d" * 40,
            "tree_id": "e" * 40,
            "message": "[release/2.5] Fix the thing (#140001)",
            "timestamp": WHEN,
            "author": {"name": "A Dev", "email": "dev@example.com"},
            "committer": {"name": "GitHub", "email": "noreply@github.com"},
        },
        "repository": minimal,
        "head_repository": minimal,
    }


def check_run(cid: int, conclusion: str | None, *, suite: int = 555, run_id: int = 9_000_001) -> dict[str, Any]:
    html = f"{WEB}/pytorch/pytorch/actions/runs/{run_id}/job/{cid}"
    return {
        "id": cid,
        "head_sha": "d" * 40,
        "node_id": f"CR_{cid}",
        "external_id": "0b5a7c4e-8f5d-5b6e-9c3d-2a1f0e9d8c7b",
        "url": f"{API}/repos/pytorch/pytorch/check-runs/{cid}",
        "html_url": html,
        "details_url": html,
        "status": "completed" if conclusion else "in_progress",
        "conclusion": conclusion,
        "started_at": WHEN,
        "completed_at": WHEN if conclusion else None,
        "output": {
            "title": None,
            "summary": None,
            "text": None,
            "annotations_count": 0,
            "annotations_url": f"{API}/repos/pytorch/pytorch/check-runs/{cid}/annotations",
        },
        "name": f"linux-jammy-py3.10-gcc11 / test (default, 1, 5, linux.4xlarge) [{conclusion}]",
        "check_suite": {"id": suite},
        "app": {
            "id": 15368,
            "slug": "github-actions",
            "node_id": "MDM6QXBwMTUzNjg=",
            "owner": user("github", 9919, "Organization"),
            "name": "GitHub Actions",
            "description": "Automate your workflow from idea to production",
            "external_url": "https://help.github.com/en/actions",
            "html_url": f"{WEB}/apps/github-actions",
            "created_at": "2018-07-30T09:30:17Z",
            "updated_at": WHEN,
            "permissions": {"actions": "write", "checks": "write", "metadata": "read"},
            "events": [],
        },
        "pull_requests": [],
    }
