"""The objects GitHub nests everywhere (users, repositories, labels, the Actions app), complete.

Each is rendered with every field GitHub's REST description (API version 2022-11-28) requires,
with its types and nullability, so a client that validates or relies on them meets the same
shapes as on api.github.com. Results are cached per emulator URL and name: treat them as
read-only (every caller nests them, none changes them).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

WEB = "https://github.com"
CREATED = "2020-01-01T00:00:00Z"  # when the fictional accounts and repositories were made
UPDATED = "2026-01-01T00:00:00Z"


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


@lru_cache(maxsize=4096)
def user_json(api: str, login: str, kind: str = "") -> dict[str, Any]:
    """GitHub's "simple user". ``kind``: "User", "Bot" or "Organization" (guessed from the login)."""
    uid = stable_id("user", login)
    url = f"{api}/users/{login}"
    kind = kind or ("Bot" if login.endswith("[bot]") else "User")
    return {
        "login": login,
        "id": uid,
        "node_id": f"U_{uid:x}",
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


def label_json(u: Urls, name: str) -> dict[str, Any]:
    lid = stable_id(u.full_name, "label", name)
    return {
        "id": lid,
        "node_id": f"LA_{lid:x}",
        "url": f"{u.repo}/labels/{name.replace(' ', '%20')}",
        "name": name,
        "color": f"{stable_id(name) & 0xFFFFFF:06x}",
        "default": False,
        "description": None,
        "archived_by": None,
    }


@lru_cache(maxsize=256)
def minimal_repo_json(api: str, full_name: str) -> dict[str, Any]:
    """A "minimal repository" (what workflow runs carry): identity and the URL templates."""
    u = Urls(api, full_name)
    owner, name = full_name.split("/", 1)
    r = u.repo
    return {
        "id": stable_id("repo", full_name),
        "node_id": f"R_{stable_id('repo', full_name):x}",
        "name": name,
        "full_name": full_name,
        "private": False,
        "owner": user_json(api, owner, "Organization"),
        "html_url": u.web,
        "description": f"{name}: a fictional project of the cockpit sandbox",
        "fork": False,
        "url": r,
        **{
            f"{k}_url": f"{r}/{path}"
            for k, path in (
                ("archive", "{archive_format}{/ref}"),
                ("assignees", "assignees{/user}"),
                ("blobs", "git/blobs{/sha}"),
                ("branches", "branches{/branch}"),
                ("collaborators", "collaborators{/collaborator}"),
                ("comments", "comments{/number}"),
                ("commits", "commits{/sha}"),
                ("compare", "compare/{base}...{head}"),
                ("contents", "contents/{+path}"),
                ("contributors", "contributors"),
                ("deployments", "deployments"),
                ("downloads", "downloads"),
                ("events", "events"),
                ("forks", "forks"),
                ("git_commits", "git/commits{/sha}"),
                ("git_refs", "git/refs{/sha}"),
                ("git_tags", "git/tags{/sha}"),
                ("issue_comment", "issues/comments{/number}"),
                ("issue_events", "issues/events{/number}"),
                ("issues", "issues{/number}"),
                ("keys", "keys{/key_id}"),
                ("labels", "labels{/name}"),
                ("languages", "languages"),
                ("merges", "merges"),
                ("milestones", "milestones{/number}"),
                ("notifications", "notifications{?since,all,participating}"),
                ("pulls", "pulls{/number}"),
                ("releases", "releases{/id}"),
                ("stargazers", "stargazers"),
                ("statuses", "statuses/{sha}"),
                ("subscribers", "subscribers"),
                ("subscription", "subscription"),
                ("tags", "tags"),
                ("teams", "teams"),
                ("trees", "git/trees{/sha}"),
                ("hooks", "hooks"),
            )
        },
    }


_LICENSE = {
    "key": "bsd-3-clause",
    "name": 'BSD 3-Clause "New" or "Revised" License',
    "spdx_id": "BSD-3-Clause",
    "url": "https://api.github.com/licenses/bsd-3-clause",
    "node_id": "MDc6TGljZW5zZTU=",
}


@lru_cache(maxsize=256)
def repo_json(api: str, full_name: str, default_branch: str = "main", open_issues: int = 0) -> dict[str, Any]:
    """A "repository" as pull requests' ``head``/``base`` carry it, complete enough for a full repository."""
    u = Urls(api, full_name)
    return {
        **minimal_repo_json(api, full_name),
        "git_url": f"git://github.com/{full_name}.git",
        "ssh_url": f"git@github.com:{full_name}.git",
        "clone_url": f"{u.web}.git",
        "svn_url": u.web,
        "mirror_url": None,
        "homepage": None,
        "language": "Python",
        "forks_count": 0,
        "stargazers_count": 0,
        "watchers_count": 0,
        "size": 0,
        "default_branch": default_branch,
        "open_issues_count": open_issues,
        "is_template": False,
        "topics": [],
        "has_issues": True,
        "has_projects": True,
        "has_wiki": False,
        "has_pages": False,
        "has_downloads": True,
        "has_discussions": False,
        "archived": False,
        "disabled": False,
        "visibility": "public",
        "pushed_at": UPDATED,
        "created_at": CREATED,
        "updated_at": UPDATED,
        "license": _LICENSE,
        "forks": 0,
        "open_issues": open_issues,
        "watchers": 0,
    }


def full_repo_json(api: str, full_name: str, default_branch: str, open_issues: int) -> dict[str, Any]:
    """``GET /repos/{owner}/{repo}``: the repository plus counts and the caller's permissions."""
    return {
        **repo_json(api, full_name, default_branch, open_issues),
        "subscribers_count": 0,
        "network_count": 0,
        "permissions": {"admin": False, "maintain": True, "push": True, "triage": True, "pull": True},
    }


@lru_cache(maxsize=16)
def actions_app_json(api: str) -> dict[str, Any]:
    """The GitHub Actions app, which owns every check run a workflow job makes."""
    return {
        "id": 15368,
        "slug": "github-actions",
        "node_id": "MDM6QXBwMTUzNjg=",
        "client_id": "Iv1.05c79e9ad1f6bdfa",
        "owner": user_json(api, "github", "Organization"),
        "name": "GitHub Actions",
        "description": "Automate your workflow from idea to production",
        "external_url": "https://help.github.com/en/actions",
        "html_url": f"{WEB}/apps/github-actions",
        "created_at": "2018-07-30T09:30:17Z",
        "updated_at": "2024-04-10T20:33:16Z",
        "permissions": {
            "actions": "write",
            "checks": "write",
            "contents": "write",
            "issues": "write",
            "metadata": "read",
            "pull_requests": "write",
            "statuses": "write",
        },
        "events": ["check_run", "check_suite", "pull_request", "push", "workflow_dispatch"],
    }


def git_person(name: str, login: str, date: str) -> dict[str, Any]:
    """A commit's author or committer as git records them (name, e-mail, date)."""
    return {"name": name, "email": f"{login}@users.noreply.github.com", "date": date}
