"""A workflow run's deployments in GitHub's shapes (REST API 2022-11-28): the pending deployments a run
waits on (``GET /repos/{owner}/{repo}/actions/runs/{run_id}/pending_deployments``) and the deployments an
approval creates (the answer of ``POST .../pending_deployments``)."""

from __future__ import annotations

from typing import Any

from cockpit.sandbox.github_objects import Urls, stable_id, user_json
from cockpit.sandbox.github_state import now_iso


def deployment_json(u: Urls, run: dict[str, Any], pending: dict[str, Any], login: str, n: int) -> dict[str, Any]:
    ident = stable_id("deployment", run["id"], pending["environment"], n)
    when = now_iso()
    return {
        "url": f"{u.repo}/deployments/{ident}",
        "id": ident,
        "node_id": f"DE_{ident:x}",
        "sha": run["head_sha"],
        "ref": run["head_branch"],
        "task": "deploy",
        "payload": {},
        "original_environment": pending["environment"],
        "environment": pending["environment"],
        "description": None,
        "creator": user_json(u.api, login),
        "created_at": when,
        "updated_at": when,
        "statuses_url": f"{u.repo}/deployments/{ident}/statuses",
        "repository_url": u.repo,
    }


def pending_json(u: Urls, p: dict[str, Any], login: str) -> dict[str, Any]:
    env = p["environment"]
    return {
        "environment": {
            "id": p["environment_id"],
            "node_id": f"EN_{p['environment_id']:x}",
            "name": env,
            "url": f"{u.repo}/environments/{env}",
            "html_url": f"{u.web}/deployments/activity_log?environments_filter={env}",
        },
        "wait_timer": p["wait_timer"],
        "wait_timer_started_at": None,
        "current_user_can_approve": login in p["reviewers"],
        "reviewers": [{"type": "User", "reviewer": user_json(u.api, r)} for r in p["reviewers"]],
    }
