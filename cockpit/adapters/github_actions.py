"""GitHub Actions through its documented REST API (version 2022-11-28), on httpx: release day's workflows.

It sends through the GitHub adapter's one door (``github_http.open_client``: in a read-only session
every method but GET/HEAD is refused there before a byte is sent, and every request is counted);
GitHub's JSON turned into ``cockpit.domain.workflows`` records at this edge, every failure raised as
``GitHubError``/``RateLimited``; a write in a read-only session is refused with ``ReadOnlyError``
and says what it would have done. Outside text is made inert where it enters (``inert_json_text``).

A POST is never retried: a dispatch sent twice is two runs of a promotion. A dispatch asks for
``return_run_details`` (GitHub then answers 200 with the run's id and URLs); an older 204 with no
body is followed by a lookup of the run it made (``find_dispatched_run``).
"""

from __future__ import annotations

import base64
import binascii
import time
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from cockpit.adapters import github_actions_parse as parse
from cockpit.adapters.github_http import SAFE_METHODS, Meter, open_client
from cockpit.adapters.workflow_file import read_workflow_file
from cockpit.domain.text import inert, inert_json_text
from cockpit.domain.workflows import Dispatched, PendingDeployment, RunJob, Workflow, WorkflowFile, WorkflowRun
from cockpit.errors import GitHubError, RateLimited, ReadOnlyError

_MAX_PAGES = 20
_MAX_FILE_BYTES = 1_000_000
_MAX_LOG_BYTES = 64_000_000  # a job log is read to its end for its tail, never past this


class GitHubActions:
    """Workflows, dispatches, runs, jobs, logs and approvals of GitHub Actions.

    ``api_url``: ``https://api.github.com`` or an Enterprise/sandbox base. ``token``: sent as a bearer
    token, never printed. ``transport``: an httpx transport for tests (the sandbox needs none).
    """

    def __init__(
        self,
        api_url: str,
        token: str | None = None,
        *,
        read_only: bool = False,
        timeout: float = 20.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self.read_only = read_only
        self.timeout = timeout
        self._token = token
        self.meter = Meter()
        self._client = open_client(
            token=token, timeout=timeout, read_only=read_only, meter=self.meter, transport=transport
        )
        self._client.headers["X-GitHub-Api-Version"] = "2022-11-28"
        self.requests_sent = 0

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    # -- transport ---------------------------------------------------------------------------------

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text

    def _send(self, method: str, url: str, what: str, **kwargs: Any) -> httpx.Response:
        if self.read_only and method.upper() not in SAFE_METHODS:
            raise ReadOnlyError(f"{what}: this session is read-only, so nothing is sent that would change GitHub")
        try:
            self.requests_sent += 1
            return self._client.request(method, url, **kwargs)
        except httpx.TimeoutException:
            later = " It may still have been done: look before trying again." if method.upper() == "POST" else ""
            raise GitHubError(f"{what}: GitHub did not answer within {self.timeout:g} s.{later}") from None
        except httpx.HTTPError as exc:
            raise GitHubError(self._scrub(f"{what}: cannot reach {self.api_url} ({type(exc).__name__}).")) from None

    def _request(
        self, method: str, path: str, what: str, *, params: Mapping[str, Any] | None = None, body: Any = None
    ) -> httpx.Response:
        url = path if path.startswith("http") else f"{self.api_url}{path}"
        if urlsplit(url).netloc != urlsplit(self.api_url).netloc:
            raise GitHubError(f"{what}: GitHub pointed at another host ({urlsplit(url).netloc}); not followed")
        response = self._send(method, url, what, params=params, json=body)
        if response.status_code >= 300:
            raise self._failure(response, what)
        return response

    def _failure(self, response: httpx.Response, what: str) -> GitHubError:
        status = response.status_code
        said = parse.github_message(response)
        said = f": {said}" if said else ""
        remaining = response.headers.get("x-ratelimit-remaining")
        if status == 429 or (status == 403 and (remaining == "0" or "rate limit" in said.lower())):
            reset = response.headers.get("retry-after") or response.headers.get("x-ratelimit-reset")
            reset_at = None
            if reset and reset.isdigit():
                reset_at = time.time() + int(reset) if "retry-after" in response.headers else float(reset)
            return RateLimited(f"{what}: GitHub's rate limit is exhausted ({status}{said}).", reset_at=reset_at)
        if status == 401:
            return GitHubError(
                f"{what}: GitHub refused the token (401{said}). Set GH_TOKEN or run 'cockpit auth login'."
            )
        if status == 403:
            return GitHubError(f"{what}: forbidden (403{said}). The token may lack the rights this needs.")
        if status == 404:
            return GitHubError(
                f"{what}: not found (404). Check the repository, workflow and ref, and the token's access."
            )
        if status == 409:
            return GitHubError(f"{what}: GitHub refused it in the run's present state (409{said}).")
        if status == 422:
            return GitHubError(f"{what}: GitHub refused the request (422{said}).")
        if status >= 500:
            return GitHubError(f"{what}: GitHub failed ({status}{said}); try again in a minute.")
        return GitHubError(f"{what}: GitHub answered {status}{said}.")

    def _json(self, response: httpx.Response, what: str) -> Any:
        try:
            return inert_json_text(response.text)
        except ValueError:
            raise GitHubError(f"{what}: GitHub answered a body that is not valid JSON.") from None

    def _pages(self, path: str, what: str, key: str | None, params: dict[str, Any]) -> Iterator[Any]:
        """Every item of a paginated list (``key``: the list's field in a wrapped answer), following ``Link``."""
        url: str | None = path
        query: dict[str, Any] | None = {"per_page": 100, **params}
        for _ in range(_MAX_PAGES):
            if url is None:
                return
            response = self._request("GET", url, what, params=query)
            data = self._json(response, what)
            items = data.get(key) if key and isinstance(data, dict) else data
            if not isinstance(items, list):
                raise GitHubError(f"{what}: GitHub answered {type(data).__name__}, expected a list")
            yield from items
            url, query = response.links.get("next", {}).get("url"), None

    # -- workflows and their files -----------------------------------------------------------------

    def whoami(self) -> str:
        """The login the token belongs to (who a dispatch will name as its actor)."""
        data = self._json(self._request("GET", "/user", "read the token's user"), "read the token's user")
        return str(data.get("login", "")) if isinstance(data, dict) else ""

    def workflows(self, repo: str) -> tuple[Workflow, ...]:
        """Every workflow of ``repo`` (``owner/name``), as GitHub names them."""
        what = f"list the workflows of {repo}"
        return tuple(parse.workflow(w) for w in self._pages(f"/repos/{repo}/actions/workflows", what, "workflows", {}))

    def file_text(self, repo: str, path: str, ref: str) -> tuple[str, str]:
        """A file of ``repo`` on ``ref``: (its text, its blob sha)."""
        what = f"read {path} of {repo} on {ref}"
        response = self._request("GET", f"/repos/{repo}/contents/{quote(path)}", what, params={"ref": ref})
        data = self._json(response, what) if response.content else None
        if not isinstance(data, dict) or data.get("type") != "file":
            raise GitHubError(f"{what}: GitHub answered something other than one file")
        if int(data.get("size") or 0) > _MAX_FILE_BYTES or data.get("encoding") != "base64":
            raise GitHubError(f"{what}: the file is too large to read through the contents API")
        try:
            raw = base64.b64decode(str(data.get("content", "")), validate=False)
            text = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise GitHubError(f"{what}: the file is not UTF-8 text") from None
        return inert(text, multiline=True), str(data.get("sha", ""))

    def workflow_file(self, repo: str, path: str, ref: str) -> WorkflowFile:
        """The workflow file at ``path`` on ``ref`` with its dispatch inputs, read on the ref it will run on.

        Raises ``GitHubError`` when it cannot be read and ``CockpitError`` (title "Workflow file") when
        its ``on:`` block cannot be understood: never a form from a stale or guessed file."""
        text, sha = self.file_text(repo, path, ref)
        return read_workflow_file(text, path=path, ref=ref, sha=sha)

    # -- dispatch ----------------------------------------------------------------------------------

    def dispatch(
        self,
        repo: str,
        workflow: str,
        ref: str,
        inputs: Mapping[str, str],
        *,
        actor: str = "",
        since: float | None = None,
    ) -> Dispatched:
        """Start ``workflow`` (its file name or id) on ``ref`` with ``inputs``: exactly one POST.

        With GitHub's run details (200) the run is known; after an older 204 it is looked up
        (``find_dispatched_run``, by ``actor`` and the time the dispatch was sent).
        """
        what = f"start {workflow} on {ref} in {repo}"
        sent_at = time.time() if since is None else since
        body = {"ref": ref, "inputs": dict(inputs), "return_run_details": True}
        response = self._request(
            "POST", f"/repos/{repo}/actions/workflows/{quote(workflow)}/dispatches", what, body=body
        )
        if response.status_code == 200 and response.content:
            data = self._json(response, what)
            if isinstance(data, dict) and isinstance(data.get("workflow_run_id"), int):
                return Dispatched(
                    workflow,
                    ref,
                    data["workflow_run_id"],
                    str(data.get("run_url", "")),
                    str(data.get("html_url", "")),
                    note="GitHub gave the run's details",
                )
        if not actor:  # an older 204: the run is told from others' by who started it
            try:
                actor = self.whoami()
            except GitHubError:
                actor = ""
        return self.find_dispatched_run(repo, workflow, ref, actor=actor, since=sent_at)

    def find_dispatched_run(
        self, repo: str, workflow: str, ref: str, *, actor: str = "", since: float, skew: float = 30.0
    ) -> Dispatched:
        """The run a dispatch without run details made: ``workflow_dispatch`` runs of ``workflow`` on
        ``ref`` by ``actor`` created since ``since`` (epoch seconds, less ``skew`` for clocks that
        differ). One fits: known. None or several: ``run_id`` None and ``note`` says which."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(since - skew))
        runs = self.runs(repo, workflow=workflow, event="workflow_dispatch", branch=ref, created=f">={stamp}")
        fits = [r for r in runs if not actor or actor in (r.actor, r.triggering_actor)]
        who = f" by {actor}" if actor else ""
        if len(fits) == 1:
            run = fits[0]
            note = f"found by looking: the one {workflow} run on {ref}{who} since {stamp}"
            return Dispatched(workflow, ref, run.id, "", run.html_url, (run.id,), note)
        ids = tuple(r.id for r in fits)
        if not fits:
            note = f"no {workflow} run on {ref}{who} since {stamp} yet: GitHub may not have created it; look again"
        else:
            shown = ", ".join(str(i) for i in ids)
            note = f"ambiguous: {len(fits)} {workflow} runs on {ref}{who} since {stamp} ({shown}); pick the right one"
        return Dispatched(workflow, ref, None, candidates=ids, note=note)

    # -- runs, jobs, logs --------------------------------------------------------------------------

    def runs(
        self,
        repo: str,
        *,
        workflow: str | None = None,
        event: str | None = None,
        branch: str | None = None,
        status: str | None = None,
        created: str | None = None,
        limit: int = 100,
    ) -> tuple[WorkflowRun, ...]:
        """Runs newest first, of one workflow (file name or id) or the whole repository, filtered as GitHub filters."""
        params: dict[str, Any] = {
            k: v for k, v in {"event": event, "branch": branch, "status": status, "created": created}.items() if v
        }
        params["per_page"] = max(1, min(limit, 100))  # the latest run alone costs one small page
        where = f"/repos/{repo}/actions/workflows/{quote(workflow)}/runs" if workflow else f"/repos/{repo}/actions/runs"
        out: list[WorkflowRun] = []
        for item in self._pages(where, f"list the runs of {workflow or repo}", "workflow_runs", params):
            out.append(parse.run(item))
            if len(out) >= limit:
                break
        return tuple(out)

    def run(self, repo: str, run_id: int) -> WorkflowRun:
        """One run."""
        what = f"read run {run_id} of {repo}"
        return parse.run(self._json(self._request("GET", f"/repos/{repo}/actions/runs/{run_id}", what), what))

    def jobs(self, repo: str, run_id: int, *, latest: bool = True) -> tuple[RunJob, ...]:
        """The jobs of a run with their steps (``latest``: the last attempt's only)."""
        what = f"list the jobs of run {run_id} in {repo}"
        params = {"filter": "latest" if latest else "all"}
        return tuple(
            parse.job(j) for j in self._pages(f"/repos/{repo}/actions/runs/{run_id}/jobs", what, "jobs", params)
        )

    def job_log_tail(self, repo: str, job_id: int, *, lines: int = 40) -> tuple[str, ...]:
        """The last ``lines`` lines of a job's log, each made inert.

        GitHub answers 302 to a short-lived download URL, often on another host; the token is sent
        to GitHub's API host only, never to where the log is stored."""
        what = f"read the log of job {job_id} in {repo}"
        response = self._send("GET", f"{self.api_url}/repos/{repo}/actions/jobs/{job_id}/logs", what)
        if response.status_code in (301, 302, 303, 307, 308) and (location := response.headers.get("location")):
            same = urlsplit(location).netloc in ("", urlsplit(self.api_url).netloc)
            url = location if location.startswith("http") else f"{self.api_url}{location}"
            request = self._client.build_request("GET", url)
            if not same:
                request.headers.pop("Authorization", None)
            try:
                streamed = self._client.send(request, stream=True)
            except httpx.HTTPError:
                raise GitHubError(f"{what}: the log could not be downloaded from where GitHub keeps it") from None
            try:
                if streamed.status_code >= 300:
                    raise self._failure(streamed, what)
                return _tail(streamed.iter_lines(), lines)
            finally:
                streamed.close()
        if response.status_code >= 300:
            raise self._failure(response, what)
        return _tail(iter(response.text.splitlines()), lines)

    # -- acting on a run ---------------------------------------------------------------------------

    def rerun_failed_jobs(self, repo: str, run_id: int) -> None:
        """Re-run the failed jobs of a run (a new attempt of the same run)."""
        self._request(
            "POST", f"/repos/{repo}/actions/runs/{run_id}/rerun-failed-jobs", f"re-run run {run_id} of {repo}"
        )

    def cancel(self, repo: str, run_id: int) -> None:
        """Cancel a run that is queued, waiting or in progress."""
        self._request("POST", f"/repos/{repo}/actions/runs/{run_id}/cancel", f"cancel run {run_id} of {repo}")

    def pending_deployments(self, repo: str, run_id: int) -> tuple[PendingDeployment, ...]:
        """The protected environments the run waits on, with who may approve them."""
        what = f"read the approvals run {run_id} of {repo} waits for"
        data = self._json(self._request("GET", f"/repos/{repo}/actions/runs/{run_id}/pending_deployments", what), what)
        if not isinstance(data, list):
            raise GitHubError(f"{what}: GitHub answered {type(data).__name__}, expected a list")
        return tuple(parse.pending(p) for p in data)

    def review_deployments(
        self, repo: str, run_id: int, environment_ids: tuple[int, ...], *, approve: bool, comment: str
    ) -> tuple[str, ...]:
        """Approve or reject the run's waiting deployments to ``environment_ids``, with ``comment``;
        the environments GitHub says it deployed to (empty for a rejection)."""
        verb = "approve" if approve else "reject"
        what = f"{verb} run {run_id} of {repo}"
        if not environment_ids:
            raise GitHubError(f"{what}: no environment was named")
        body = {
            "environment_ids": list(environment_ids),
            "state": "approved" if approve else "rejected",
            "comment": comment,
        }
        path = f"/repos/{repo}/actions/runs/{run_id}/pending_deployments"
        data = self._json(self._request("POST", path, what, body=body), what)
        return (
            tuple(str(d.get("environment", "")) for d in data if isinstance(d, dict)) if isinstance(data, list) else ()
        )


def _tail(lines: Iterator[str], count: int) -> tuple[str, ...]:
    kept: deque[str] = deque(maxlen=max(count, 0))
    read = 0
    for line in lines:
        read += len(line) + 1
        kept.append(inert(parse.without_timestamp(line)))
        if read > _MAX_LOG_BYTES:
            kept.append(f"[log cut after {_MAX_LOG_BYTES // 1_000_000} MB]")
            break
    return tuple(kept)
