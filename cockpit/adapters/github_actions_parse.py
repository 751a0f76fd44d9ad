"""GitHub Actions' JSON answers turned into ``cockpit.domain.workflows`` records, checked field by field.

The answers were made inert already (``inert_json``); here a field of the wrong type or missing
raises ``GitHubError`` naming the object and the field, instead of a ``KeyError`` deep in a pane.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from cockpit.domain.text import inert
from cockpit.domain.workflows import JobStep, PendingDeployment, RunJob, Workflow, WorkflowRun
from cockpit.errors import GitHubError

_TIMESTAMP = re.compile(r"^\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")


def _need(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise GitHubError(f"GitHub answered {type(data).__name__} for {what}, expected an object")
    return data


def _int(data: dict[str, Any], key: str, what: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise GitHubError(f"GitHub's {what} has no whole-number {key!r}")
    return value


def _int_or(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _str(data: dict[str, Any], key: str, default: str = "") -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def _opt(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _login(data: dict[str, Any], key: str) -> str:
    user = data.get(key)
    return _str(user, "login") if isinstance(user, dict) else ""


def workflow(data: Any) -> Workflow:
    """An item of ``GET /repos/{owner}/{repo}/actions/workflows``."""
    d = _need(data, "a workflow")
    return Workflow(_int(d, "id", "workflow"), _str(d, "name"), _str(d, "path"), _str(d, "state"), _str(d, "html_url"))


def run(data: Any) -> WorkflowRun:
    """A workflow run."""
    d = _need(data, "a workflow run")
    return WorkflowRun(
        id=_int(d, "id", "workflow run"),
        workflow_id=_int(d, "workflow_id", "workflow run"),
        name=_str(d, "name"),
        path=_str(d, "path"),
        head_branch=_str(d, "head_branch"),
        head_sha=_str(d, "head_sha"),
        event=_str(d, "event"),
        status=_str(d, "status"),
        conclusion=_opt(d, "conclusion"),
        actor=_login(d, "actor"),
        triggering_actor=_login(d, "triggering_actor") or _login(d, "actor"),
        created_at=_str(d, "created_at"),
        run_attempt=_int_or(d, "run_attempt", 1),
        html_url=_str(d, "html_url"),
        display_title=_str(d, "display_title"),
    )


def job(data: Any) -> RunJob:
    """A job of ``GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs``, with its steps."""
    d = _need(data, "a job")
    steps = d["steps"] if isinstance(d.get("steps"), list) else []
    return RunJob(
        id=_int(d, "id", "job"),
        run_id=_int(d, "run_id", "job"),
        name=_str(d, "name"),
        status=_str(d, "status"),
        conclusion=_opt(d, "conclusion"),
        started_at=_opt(d, "started_at"),
        completed_at=_opt(d, "completed_at"),
        html_url=_str(d, "html_url"),
        steps=tuple(
            JobStep(
                number=_int_or(s, "number", i + 1),
                name=_str(s, "name"),
                status=_str(s, "status"),
                conclusion=_opt(s, "conclusion"),
                started_at=_opt(s, "started_at"),
                completed_at=_opt(s, "completed_at"),
            )
            for i, s in enumerate(steps)
            if isinstance(s, dict)
        ),
    )


def pending(data: Any) -> PendingDeployment:
    """An item of ``GET .../actions/runs/{run_id}/pending_deployments``."""
    d = _need(data, "a pending deployment")
    env: dict[str, Any] = d["environment"] if isinstance(d.get("environment"), dict) else {}
    reviewers = []
    for r in d.get("reviewers") or []:
        who = r.get("reviewer") if isinstance(r, dict) else None
        if isinstance(who, dict):
            reviewers.append(_str(who, "login") or _str(who, "slug") or _str(who, "name"))
    return PendingDeployment(
        environment_id=_int(env, "id", "pending deployment's environment"),
        environment=_str(env, "name"),
        wait_timer=_int_or(d, "wait_timer", 0),
        current_user_can_approve=d.get("current_user_can_approve") is True,
        reviewers=tuple(r for r in reviewers if r),
    )


def github_message(response: httpx.Response) -> str:
    """GitHub's own ``message`` of an error answer (with the fields a 422 names), at most 300 characters."""
    try:
        data = response.json()
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    message = inert(str(data.get("message") or "").strip())
    errors = data.get("errors")
    if isinstance(errors, list):
        fields = [f"{e.get('field')} {e.get('code')}" for e in errors if isinstance(e, dict) and e.get("field")]
        if fields:
            message = f"{message} ({inert(', '.join(fields))})" if message else inert(", ".join(fields))
    return message[:300]


def without_timestamp(line: str) -> str:
    """A log line without the time GitHub puts before each one (``2026-08-21T10:00:00.1234567Z ``)."""
    return _TIMESTAMP.sub("", line, count=1)
