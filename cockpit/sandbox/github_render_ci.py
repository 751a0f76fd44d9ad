"""The sandbox world's commits, workflow runs, check runs and jobs in GitHub's REST JSON shapes.

Complete per GitHub's REST description (API version 2022-11-28), like ``github_render``. The world
keeps no commit metadata beyond the pull request that a commit merged, so ``CommitFacts`` says what
the emulator knows of a commit: the merged PR's title and author when there is one, else the
release-branch bot's commit at the time the world gives it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from cockpit.sandbox.github_objects import (
    CREATED,
    Urls,
    actions_app_json,
    git_person,
    minimal_repo_json,
    stable_id,
    user_json,
)
from cockpit.sandbox.model import SbCheckRun, SbPull, SbWorkflowRun

MERGEBOT = "pytorchmergebot"


@dataclass(frozen=True)
class CommitFacts:
    """What one commit says of itself: message, author's login and the commit time."""

    message: str
    author: str
    date: str

    @classmethod
    def of(cls, sha: str, pull: SbPull | None, when: str | None) -> CommitFacts:
        """From the PR that merged ``sha`` (None: a direct push by the merge bot at ``when``)."""
        if pull is not None:
            return cls(f"{pull.title} (#{pull.number})", pull.author, pull.merged_at or pull.updated_at or CREATED)
        return cls(f"Update the release branch to {sha[:12]}", MERGEBOT, when or CREATED)


def commit_json(u: Urls, sha: str, parent: str | None, facts: CommitFacts) -> dict[str, Any]:
    """An item of ``GET /repos/{owner}/{repo}/commits``."""
    parents = (
        [{"sha": parent, "url": f"{u.repo}/commits/{parent}", "html_url": f"{u.web}/commit/{parent}"}] if parent else []
    )
    author = git_person(facts.author, facts.author, facts.date)
    committer = git_person(MERGEBOT, MERGEBOT, facts.date)
    return {
        "sha": sha,
        "node_id": f"C_{sha[:12]}",
        "url": f"{u.repo}/commits/{sha}",
        "html_url": f"{u.web}/commit/{sha}",
        "comments_url": f"{u.repo}/commits/{sha}/comments",
        "commit": {
            "url": f"{u.repo}/git/commits/{sha}",
            "author": author,
            "committer": committer,
            "message": facts.message,
            "comment_count": 0,
            "tree": {"sha": _tree_sha(sha), "url": f"{u.repo}/git/trees/{_tree_sha(sha)}"},
            "verification": {
                "verified": False,
                "reason": "unsigned",
                "signature": None,
                "payload": None,
                "verified_at": None,
            },
        },
        "author": user_json(u.api, facts.author),
        "committer": user_json(u.api, MERGEBOT),
        "parents": parents,
    }


def _tree_sha(sha: str) -> str:
    return f"{stable_id('tree', sha):08x}{sha[8:]}"


def run_json(u: Urls, r: SbWorkflowRun, facts: CommitFacts) -> dict[str, Any]:
    """A workflow run (``GET /repos/{owner}/{repo}/actions/runs``)."""
    url = f"{u.repo}/actions/runs/{r.id}"
    workflow_id = stable_id(u.full_name, "workflow", r.name)
    repository = minimal_repo_json(u.api, u.full_name)
    data: dict[str, Any] = {
        "id": r.id,
        "name": r.name,
        "node_id": f"WFR_{r.id:x}",
        "head_branch": r.head_branch,
        "head_sha": r.head_sha,
        "path": r.path or f".github/workflows/{r.name}.yml",
        "display_title": r.display_title or facts.message.split("\n", 1)[0],
        "run_number": r.id % 100000,
        "event": r.event,
        "status": r.status,
        "conclusion": r.conclusion,
        "workflow_id": workflow_id,
        "check_suite_id": r.check_suite_id,
        "check_suite_node_id": f"CS_{r.check_suite_id:x}",
        "url": url,
        "html_url": f"{u.web}/actions/runs/{r.id}",
        "pull_requests": [],
        "created_at": r.created_at or CREATED,
        "updated_at": r.created_at or CREATED,
        "actor": user_json(u.api, facts.author),
        "triggering_actor": user_json(u.api, facts.author),
        "run_attempt": r.run_attempt,
        "referenced_workflows": [],
        "run_started_at": r.created_at or CREATED,
        "jobs_url": f"{url}/jobs",
        "logs_url": f"{url}/logs",
        "check_suite_url": f"{u.repo}/check-suites/{r.check_suite_id}",
        "artifacts_url": f"{url}/artifacts",
        "cancel_url": f"{url}/cancel",
        "rerun_url": f"{url}/rerun",
        "previous_attempt_url": f"{url}/attempts/{r.run_attempt - 1}" if r.run_attempt > 1 else None,
        "workflow_url": f"{u.repo}/actions/workflows/{workflow_id}",
        "head_commit": {
            "id": r.head_sha,
            "tree_id": _tree_sha(r.head_sha),
            "message": facts.message,
            "timestamp": facts.date,
            "author": {"name": facts.author, "email": f"{facts.author}@users.noreply.github.com"},
            "committer": {"name": MERGEBOT, "email": f"{MERGEBOT}@users.noreply.github.com"},
        },
        "repository": repository,
        "head_repository": repository,
    }
    return data


def check_run_json(u: Urls, c: SbCheckRun, check_suite_id: int) -> dict[str, Any]:
    """A check run (``GET /repos/{owner}/{repo}/commits/{ref}/check-runs``), made by GitHub Actions."""
    html = f"{u.web}/actions/runs/{c.run_id}/job/{c.id}"
    return {
        "id": c.id,
        "name": c.name,
        "node_id": f"CR_{c.id:x}",
        "head_sha": c.head_sha,
        "external_id": str(uuid.uuid5(uuid.NAMESPACE_URL, html)),
        "url": f"{u.repo}/check-runs/{c.id}",
        "html_url": html,
        "details_url": html,
        "status": c.status,
        "conclusion": c.conclusion,
        "started_at": c.started_at or None,
        "completed_at": c.completed_at,
        "output": {
            "title": None,
            "summary": None,
            "text": None,
            "annotations_count": 0,
            "annotations_url": f"{u.repo}/check-runs/{c.id}/annotations",
        },
        "check_suite": {"id": check_suite_id},
        "app": actions_app_json(u.api),
        "pull_requests": [],
    }


def job_json(u: Urls, c: SbCheckRun, run: SbWorkflowRun) -> dict[str, Any]:
    """A job of a workflow run (``GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs``)."""
    started = c.started_at or run.created_at or CREATED
    return {
        "id": c.id,
        "run_id": run.id,
        "workflow_name": run.name,
        "head_branch": run.head_branch,
        "run_url": f"{u.repo}/actions/runs/{run.id}",
        "run_attempt": run.run_attempt,
        "node_id": f"CR_{c.id:x}",
        "head_sha": c.head_sha,
        "url": f"{u.repo}/actions/jobs/{c.id}",
        "html_url": f"{u.web}/actions/runs/{run.id}/job/{c.id}",
        "status": c.status,
        "conclusion": c.conclusion,
        "created_at": started,
        "started_at": started,
        "completed_at": c.completed_at,
        "name": c.name,
        "steps": [],
        "check_run_url": f"{u.repo}/check-runs/{c.id}",
        "labels": [],
        "runner_id": None,
        "runner_name": None,
        "runner_group_id": None,
        "runner_group_name": None,
    }
