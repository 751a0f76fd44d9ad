"""The emulator's GitHub Actions endpoints for release day (``world.release_day``, see ``world_release_day``).

Served in GitHub's shapes (REST API 2022-11-28): the repository's workflows; dispatching one (200 with
the run's id and URLs when ``return_run_details`` is asked, else 204; 422 for an input the file does
not declare, a choice outside its options, a required input missing, or an unknown ref); a
workflow's runs; one run; its jobs with steps; a job's log (302 to a plain-text download, as GitHub
does); re-running failed jobs; cancelling; the deployments a run waits on, approved or rejected.

A dispatched run completes at once, green, unless it is a real run (dry run disabled) of a workflow
whose job runs in a protected environment: then it waits for a reviewer. Approving completes it
green; rejecting fails it. Runs the release day did not plant fall through to the emulator's
other handlers (``github_routes``, ``github_evidence_routes``).
"""

from __future__ import annotations

import copy
import json
import re
from typing import TYPE_CHECKING, Any

from cockpit.adapters.workflow_file import read_workflow_file
from cockpit.errors import CockpitError
from cockpit.sandbox import github_evidence_routes as evidence_routes
from cockpit.sandbox.github_host import ActionsHost
from cockpit.sandbox.github_objects import CREATED, Urls, stable_id
from cockpit.sandbox.github_render_ci import CommitFacts, job_json, run_json
from cockpit.sandbox.github_render_deployments import deployment_json, pending_json
from cockpit.sandbox.github_state import RepoState, now_iso
from cockpit.sandbox.github_user import login_for
from cockpit.sandbox.http_base import Request, Response
from cockpit.sandbox.model import SbCheckRun, SbWorkflowRun

if TYPE_CHECKING:
    from collections.abc import Callable


_SEG, _NUM = r"([^/]+)", r"(\d+)"
LOG_ROUTE = "/_actions-logs"  # where a job log's 302 points: outside the API, as GitHub's blob store is
_FAILED = ("failure", "cancelled", "timed_out")


class ReleaseDay:
    """The release day's workflows and runs of one repository, as one emulator changes them."""

    def __init__(self, data: dict[str, Any]) -> None:
        data = copy.deepcopy(data)  # each emulator mutates its own copy
        self.repository = str(data.get("repository", "")).lower()
        self.ref = str(data.get("ref", "main"))
        self.workflows: list[dict[str, Any]] = list(data.get("workflows", []))
        self.runs: dict[int, dict[str, Any]] = {r["id"]: r for r in data.get("runs", [])}
        self.jobs: dict[int, dict[str, Any]] = {j["id"]: j for r in self.runs.values() for j in r["jobs"]}
        self.run_details = data.get("run_details", True) is not False  # False: answer 204 as GitHub once did
        self.next_run = max(self.runs, default=97_000) + 1
        self.next_job = max(self.jobs, default=98_000) + 1

    def workflow(self, state: RepoState, key: str) -> dict[str, Any] | None:
        """The workflow named by its file name or its id."""
        for wf in self.workflows:
            if wf["path"].rsplit("/", 1)[-1] == key or str(workflow_id(state, wf["name"])) == key:
                return wf
        return None


def workflow_id(state: RepoState, name: str) -> int:
    """The id GitHub gives the workflow called ``name`` (the same the run renderer uses)."""
    return stable_id(state.repo.full_name, "workflow", name)


def _sb_run(run: dict[str, Any]) -> SbWorkflowRun:
    return SbWorkflowRun(
        run["id"],
        run["name"],
        run["head_sha"],
        run["head_branch"],
        event=run["event"],
        status=run["status"],
        conclusion=run["conclusion"],
        check_suite_id=run["id"] + 1_000_000,
        created_at=run["created_at"],
        run_attempt=run["run_attempt"],
        path=run["workflow_path"],
        display_title=run["name"],
    )


def _run_json(u: Urls, run: dict[str, Any]) -> dict[str, Any]:
    return run_json(u, _sb_run(run), CommitFacts(run["name"], run["actor"], run["created_at"]))


def _job_json(u: Urls, run: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    check = SbCheckRun(
        job["id"], job["name"], run["head_sha"], run["id"], job["status"], job["conclusion"], job["started_at"]
    )
    data = job_json(u, check, _sb_run(run))
    data["completed_at"] = job["completed_at"]
    data["steps"] = [{**s, "started_at": job["started_at"], "completed_at": job["completed_at"]} for s in job["steps"]]
    return data


def _finish(run: dict[str, Any], conclusion: str) -> None:
    run["status"], run["conclusion"], run["pending"] = "completed", conclusion, []
    for job in run["jobs"]:
        if job["conclusion"] is None or conclusion == "success":
            job["status"], job["conclusion"], job["completed_at"] = "completed", conclusion, now_iso()
            job["steps"] = [{**s, "status": "completed", "conclusion": conclusion} for s in job["steps"]]


class Handlers:
    """The handlers, bound to one emulator and its release day."""

    def __init__(self, gh: ActionsHost, day: ReleaseDay) -> None:
        self.gh, self.day = gh, day

    def mine(self, state: RepoState) -> bool:
        return state.repo.full_name.lower() == self.day.repository

    def run_of(self, state: RepoState, run_id: str) -> dict[str, Any] | None:
        return self.day.runs.get(int(run_id)) if self.mine(state) else None

    def list_workflows(self, request: Request, state: RepoState) -> Response:
        u = self.gh.urls(state)
        items = list(self.day.workflows) if self.mine(state) else []
        for run in sorted(state.runs.values(), key=lambda r: r.id):  # the workflows the other runs belong to
            path = run.path or f".github/workflows/{run.name}.yml"
            if all(wf["path"] != path for wf in items):
                items.append({"name": run.name, "path": path})
        body = [
            {
                "id": workflow_id(state, wf["name"]),
                "node_id": f"W_{workflow_id(state, wf['name']):x}",
                "name": wf["name"],
                "path": wf["path"],
                "state": "active",
                "created_at": CREATED,
                "updated_at": CREATED,
                "url": f"{u.repo}/actions/workflows/{workflow_id(state, wf['name'])}",
                "html_url": f"{u.web}/blob/{self.day.ref}/{wf['path']}",
                "badge_url": f"{u.web}/workflows/{wf['name']}/badge.svg",
            }
            for wf in items
        ]
        return self.gh.paged(request, body, wrap="workflows")

    def dispatch(self, request: Request, state: RepoState, key: str) -> Response:
        wf = self.day.workflow(state, key) if self.mine(state) else None
        if wf is None:
            return self.gh.error(404, "Not Found")
        try:
            body = request.json() or {}
        except ValueError:
            return self.gh.error(400, "Problems parsing JSON")
        ref, given = body.get("ref"), body.get("inputs") or {}
        if not isinstance(ref, str) or ref.removeprefix("refs/heads/") not in state.repo.branches:
            return self.gh.error(422, f"No ref found for: {ref}")
        text = state.repo.files.get(ref.removeprefix("refs/heads/"), {}).get(wf["path"], "")
        try:
            read = read_workflow_file(text, path=wf["path"], ref=ref)
        except CockpitError:
            read = None
        if read is None or not read.dispatchable:
            return self.gh.error(422, "Workflow does not have 'workflow_dispatch' trigger")
        declared = {i.name: i for i in read.inputs}
        if unexpected := sorted(set(given) - set(declared)):
            return self.gh.error(422, f"Unexpected inputs provided: {json.dumps(unexpected)}")
        inputs = {n: str(given.get(n, i.default or "")) for n, i in declared.items()}
        for name, spec in declared.items():
            if spec.required and not inputs[name]:
                return self.gh.error(422, f"Required input '{name}' not provided")
            if spec.options and inputs[name] and inputs[name] not in spec.options:
                return self.gh.error(
                    422, f"Provided value '{inputs[name]}' for input '{name}' not in the list of allowed values"
                )
        run = self.start(state, wf, ref.removeprefix("refs/heads/"), inputs, login_for(request, self.gh.users))
        if body.get("return_run_details") is True and self.day.run_details:
            u = self.gh.urls(state)
            details = {"workflow_run_id": run["id"], "run_url": f"{u.repo}/actions/runs/{run['id']}"}
            return Response.json({**details, "html_url": f"{u.web}/actions/runs/{run['id']}"})
        return Response(status=204)

    def start(
        self, state: RepoState, wf: dict[str, Any], ref: str, inputs: dict[str, str], actor: str
    ) -> dict[str, Any]:
        dry = inputs.get("dryrun", inputs.get("dry_run", "enabled")) in ("enabled", "true")
        protected = bool(wf.get("environment")) and not dry
        run_id, job_id = self.day.next_run, self.day.next_job
        self.day.next_run, self.day.next_job = run_id + 1, job_id + 1
        when = now_iso()
        job = {
            "id": job_id,
            "name": wf.get("job", "run"),
            "status": "waiting" if protected else "completed",
            "conclusion": None if protected else "success",
            "started_at": when,
            "completed_at": None if protected else when,
            "steps": []
            if protected
            else [{"number": 1, "name": "Run", "status": "completed", "conclusion": "success"}],
            "log": f"{wf['name']} with {json.dumps(inputs, sort_keys=True)}\ndone\n",
        }
        run = {
            "id": run_id,
            "workflow_path": wf["path"],
            "name": wf["name"],
            "head_branch": ref,
            "head_sha": state.repo.branches.get(ref, "0" * 40),
            "event": "workflow_dispatch",
            "status": "waiting" if protected else "completed",
            "conclusion": None if protected else "success",
            "actor": actor,
            "created_at": when,
            "run_attempt": 1,
            "inputs": inputs,
            "jobs": [job],
            "pending": [],
        }
        if protected:
            env = wf["environment"]
            reviewers = sorted(
                {actor, *(p for r in self.day.runs.values() for x in r["pending"] for p in x["reviewers"])}
            )
            env_id = stable_id("environment", state.repo.full_name, env) % 1_000_000
            run["pending"] = [{"environment": env, "environment_id": env_id, "reviewers": reviewers, "wait_timer": 0}]
        self.day.runs[run_id], self.day.jobs[job_id] = run, job
        if run["conclusion"] == "success":
            self._succeeded(run)
        return run

    def _succeeded(self, run: dict[str, Any]) -> None:
        """What a run that concluded ``success`` changes in the world (``release_effects``)."""
        if self.gh.release_effects is not None:
            self.gh.release_effects.succeeded(run)

    def list_runs_of(self, request: Request, state: RepoState, key: str) -> Response:
        wf = self.day.workflow(state, key) if self.mine(state) else None
        runs = [r for r in self.day.runs.values() if wf is not None and r["workflow_path"] == wf["path"]]
        if not runs:
            answer = evidence_routes.list_workflow_runs_of(self.gh, request, state, key)
            if answer.status == 404 and wf is not None:  # a known workflow that has not run yet: an empty list
                return self.gh.paged(request, [], wrap="workflow_runs")
            return answer
        q = request.query
        created = q.get("created", "").removeprefix(">=")
        chosen = [
            r
            for r in sorted(runs, key=lambda r: (r["created_at"], r["id"]), reverse=True)
            if (not q.get("branch") or r["head_branch"] == q["branch"])
            and (not q.get("event") or r["event"] == q["event"])
            and (not q.get("actor") or r["actor"] == q["actor"])
            and (not q.get("status") or q["status"] in (r["status"], r["conclusion"]))
            and (not created or r["created_at"] >= created)
        ]
        u = self.gh.urls(state)
        return self.gh.paged(request, chosen, lambda r: _run_json(u, r), wrap="workflow_runs")

    def get_run(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is not None:
            return Response.json(_run_json(self.gh.urls(state), run))
        other = state.runs.get(int(run_id))
        if other is None:
            return self.gh.error(404, "Not Found")
        return Response.json(
            run_json(self.gh.urls(state), other, CommitFacts.of(other.head_sha, None, other.created_at))
        )

    def list_jobs(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is None:
            return self.gh.list_jobs(request, state, run_id)
        u = self.gh.urls(state)
        return self.gh.paged(request, run["jobs"], lambda j: _job_json(u, run, j), wrap="jobs")

    def job_logs(self, request: Request, state: RepoState, job_id: str) -> Response:
        if not self.mine(state) or int(job_id) not in self.day.jobs:
            return self.gh.error(404, "Not Found")
        location = f"{self.gh.base_url}{LOG_ROUTE}/{state.repo.full_name}/{job_id}"
        return Response(status=302, headers={"Location": location})

    def log_text(self, request: Request, owner: str, name: str, job_id: str) -> Response:
        job = self.day.jobs.get(int(job_id)) if f"{owner}/{name}".lower() == self.day.repository else None
        if job is None:
            return Response(status=404, body=b"BlobNotFound", content_type="text/plain")
        stamped = "".join(f"{job['started_at'][:19]}.0000000Z {line}\n" for line in job["log"].splitlines())
        return Response(status=200, body=stamped.encode("utf-8"), content_type="text/plain; charset=utf-8")

    def rerun_failed(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is None:
            return self.gh.rerun_failed_jobs(request, state, run_id)
        if run["status"] != "completed":
            return self.gh.error(403, "This workflow is already running")
        if run["conclusion"] not in _FAILED:
            return self.gh.error(403, "This workflow run has no failed jobs to re-run")
        run["run_attempt"] += 1
        effects = self.gh.release_effects
        failure = effects.rerun_failure(run) if effects is not None else ""
        if failure:  # the world has not changed: the failed job fails again, saying why
            for job in run["jobs"]:
                if job["conclusion"] in _FAILED:
                    job["log"] += f"(attempt {run['run_attempt']}) {failure}"
            return Response.json({}, status=201)
        for job in run["jobs"]:
            job["log"] += f"(attempt {run['run_attempt']}) every check passed\n"
        _finish(run, "success")
        self._succeeded(run)
        return Response.json({}, status=201)

    def cancel(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is None:
            return self.gh.error(404, "Not Found")
        if run["status"] == "completed":
            return self.gh.error(409, "Cannot cancel a workflow run that is completed.")
        _finish(run, "cancelled")
        return Response.json({}, status=202)

    def pending(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is None:
            return Response.json([]) if int(run_id) in state.runs else self.gh.error(404, "Not Found")
        login = login_for(request, self.gh.users)
        return Response.json([pending_json(self.gh.urls(state), p, login) for p in run["pending"]])

    def review(self, request: Request, state: RepoState, run_id: str) -> Response:
        run = self.run_of(state, run_id)
        if run is None:
            return self.gh.error(404, "Not Found")
        try:
            body = request.json() or {}
        except ValueError:
            return self.gh.error(400, "Problems parsing JSON")
        ids, decision, comment = body.get("environment_ids"), body.get("state"), body.get("comment")
        if not isinstance(ids, list) or decision not in ("approved", "rejected") or not isinstance(comment, str):
            return self.gh.validation_failed("PendingDeployment", "state", "invalid", decision)
        login = login_for(request, self.gh.users)
        chosen = [p for p in run["pending"] if p["environment_id"] in ids]
        if not chosen or any(login not in p["reviewers"] for p in chosen):
            return self.gh.error(422, "No pending deployment requests to approve or reject for these environments")
        u = self.gh.urls(state)
        answer = [deployment_json(u, run, p, login, n) for n, p in enumerate(chosen)] if decision == "approved" else []
        run.setdefault("reviews", []).append({"by": login, "state": decision, "comment": comment})
        run["pending"] = [p for p in run["pending"] if p not in chosen]
        if decision == "rejected":
            _finish(run, "failure")
        elif not run["pending"]:
            _finish(run, "success")
            self._succeeded(run)
        return Response.json(answer)


def routes(gh: ActionsHost) -> list[tuple[str, re.Pattern[str], Callable[..., Response]]]:
    """The release day's routes for ``gh``, to be tried before the emulator's own."""
    h = Handlers(gh, ReleaseDay(gh.world.release_day))
    repo = f"/repos/{_SEG}/{_SEG}"
    table: list[tuple[str, str, Callable[..., Response]]] = [
        ("GET", repo + "/actions/workflows", h.list_workflows),
        ("POST", repo + f"/actions/workflows/{_SEG}/dispatches", h.dispatch),
        ("GET", repo + f"/actions/workflows/{_SEG}/runs", h.list_runs_of),
        ("GET", repo + f"/actions/runs/{_NUM}", h.get_run),
        ("GET", repo + f"/actions/runs/{_NUM}/jobs", h.list_jobs),
        ("GET", repo + f"/actions/jobs/{_NUM}/logs", h.job_logs),
        ("POST", repo + f"/actions/runs/{_NUM}/rerun-failed-jobs", h.rerun_failed),
        ("POST", repo + f"/actions/runs/{_NUM}/cancel", h.cancel),
        ("GET", repo + f"/actions/runs/{_NUM}/pending_deployments", h.pending),
        ("POST", repo + f"/actions/runs/{_NUM}/pending_deployments", h.review),
        ("GET", f"{LOG_ROUTE}/{_SEG}/{_SEG}/{_NUM}", h.log_text),
    ]
    return [(method, re.compile(pattern + "/?$"), fn) for method, pattern, fn in table]
