"""The GitHub emulator's endpoints: one method per route, each taking the request and repository.

``RouteHandlers`` is mixed into ``GitHubEmulator``, which routes, holds the lock while a handler
runs, and supplies ``urls``, ``paged``, ``error`` and ``validation_failed``.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from cockpit.sandbox import github_render as render
from cockpit.sandbox.github_objects import label_json
from cockpit.sandbox.github_render_ci import CommitFacts
from cockpit.sandbox.github_state import RepoState, now_iso
from cockpit.sandbox.github_user import login_for
from cockpit.sandbox.http_base import Request, Response
from cockpit.sandbox.model import SbPull

if TYPE_CHECKING:
    from cockpit.sandbox.github_host import EmulatorHost

_STATES = ("open", "closed", "all")


def _sorted(items: list[Any], request: Request) -> list[Any]:
    key = request.query.get("sort", "created")
    field = "updated_at" if key == "updated" else "created_at"
    desc = request.query.get("direction", "desc") != "asc"
    return sorted(items, key=lambda i: (getattr(i, field) or "", i.number), reverse=desc)


def _facts(state: RepoState, sha: str, when: str | None = None) -> CommitFacts:
    if when is None:  # a commit's time: the newest run on it, else the world's epoch
        when = max((r.created_at for r in state.runs.values() if r.head_sha == sha), default=None)
    return CommitFacts.of(sha, state.pull_by_merge_sha.get(sha), when)


class RouteHandlers:
    """Endpoint implementations; see ``GitHubEmulator`` for the routing table."""

    def _milestone(
        self: EmulatorHost, state: RepoState, number: int | None, counts: dict[int, tuple[int, int]]
    ) -> dict[str, Any] | None:
        m = state.milestones.get(number) if number is not None else None
        return render.milestone_json(self.urls(state), m, *counts[m.number]) if m else None

    def _issue(
        self: EmulatorHost,
        state: RepoState,
        item: Any,
        counts: dict | None = None,
        comments: dict[int, int] | None = None,
    ) -> dict[str, Any]:
        counts = counts if counts is not None else state.milestone_counts()
        comments = comments if comments is not None else state.comment_counts()
        milestone = self._milestone(state, item.milestone, counts)
        return render.issue_json(self.urls(state), item, milestone, comments.get(item.number, 0))

    def get_repo(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        open_count = sum(1 for i in state.items.values() if i.state == "open")
        return Response.json(render.repository_json(self.urls(state), state.repo, open_count))

    def list_milestones(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        wanted = request.query.get("state", "open")
        if wanted not in _STATES:
            return self.validation_failed("Milestone", "state", value=wanted)
        counts = state.milestone_counts()
        chosen = [
            m for m in sorted(state.milestones.values(), key=lambda m: m.number) if wanted == "all" or m.state == wanted
        ]
        if request.query.get("direction") == "desc":
            chosen.reverse()
        return self.paged(request, [self._milestone(state, m.number, counts) for m in chosen])

    def get_milestone(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        data = self._milestone(state, int(number), state.milestone_counts())
        return Response.json(data) if data else self.error(404, "Not Found")

    def list_issues(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        q = request.query
        wanted = q.get("state", "open")
        if wanted not in _STATES:
            return self.validation_failed("Issue", "state", value=wanted)
        milestone = q.get("milestone")
        if milestone not in (None, "*", "none") and not milestone.isdigit():
            return self.validation_failed("Issue", "milestone", value=milestone)
        labels = {name.strip() for name in q.get("labels", "").split(",") if name.strip()}
        chosen = []
        for item in state.items.values():
            if wanted != "all" and item.state != wanted:
                continue
            if (milestone == "*" and item.milestone is None) or (milestone == "none" and item.milestone is not None):
                continue
            if milestone and milestone.isdigit() and item.milestone != int(milestone):
                continue
            if labels and not labels <= set(item.labels):
                continue
            chosen.append(item)
        counts, comments = state.milestone_counts(), state.comment_counts()
        return self.paged(request, _sorted(chosen, request), lambda i: self._issue(state, i, counts, comments))

    def get_issue(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        if (moved := self.moved_or_gone(state, int(number))) is not None:
            return moved
        item = state.items.get(int(number))
        return Response.json(self._issue(state, item)) if item else self.error(404, "Not Found")

    def edit_issue(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        item = state.items.get(int(number))
        if item is None:
            return self.error(404, "Not Found")
        try:
            body = request.json()
        except ValueError:
            return self.error(400, "Problems parsing JSON")
        if not isinstance(body, dict):
            return self.error(400, "Problems parsing JSON")
        if "milestone" in body:
            value = body["milestone"]
            if isinstance(value, str) and value.isdigit():
                value = int(value)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value not in state.milestones
            ):
                return self.validation_failed("Issue", "milestone", value=body["milestone"])
            item.milestone = value
        if "state" in body:
            if body["state"] not in ("open", "closed"):
                return self.validation_failed("Issue", "state", value=body["state"])
            if isinstance(item, SbPull) and item.merged and body["state"] == "open":
                return self.validation_failed("PullRequest", "state", code="custom", value="open")
            item.state = body["state"]
            item.closed_at = now_iso() if item.state == "closed" else None
        for field in ("title", "body"):
            if isinstance(body.get(field), str):
                setattr(item, field, body[field])
        item.updated_at = now_iso()
        return Response.json(self._issue(state, item))

    def remove_label(self: EmulatorHost, request: Request, state: RepoState, number: str, name: str) -> Response:
        """GitHub answers with the labels left; 404 "Label does not exist" when the item has no such label."""
        item = state.items.get(int(number))
        if item is None:
            return self.error(404, "Not Found")
        label = unquote(name)
        if label not in item.labels:
            return self.error(404, "Label does not exist")
        item.labels = [other for other in item.labels if other != label]
        item.updated_at = now_iso()
        urls = self.urls(state)
        return Response.json([label_json(urls, other) for other in item.labels])

    def _comment(self: EmulatorHost, state: RepoState, comment: Any) -> dict[str, Any]:
        is_pull = comment.issue_number in state.pulls
        return render.comment_json(self.urls(state), comment, is_pull)

    def list_comments(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        if (moved := self.moved_or_gone(state, int(number), "/comments")) is not None:
            return moved
        if int(number) not in state.items:
            return self.error(404, "Not Found")
        return self.paged(request, state.comments_on(int(number)), lambda c: self._comment(state, c))

    def _comment_body(self: EmulatorHost, request: Request) -> str | Response:
        try:
            body = request.json()
        except ValueError:
            return self.error(400, "Problems parsing JSON")
        if not isinstance(body, dict) or not isinstance(body.get("body"), str) or not body["body"].strip():
            return self.validation_failed("IssueComment", "body", code="missing_field")
        return body["body"]

    def create_comment(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        if int(number) not in state.items:
            return self.error(404, "Not Found")
        text = self._comment_body(request)
        if isinstance(text, Response):
            return text
        author = login_for(request, self.users)
        comment = state.add_comment(self.next_comment_id, int(number), author, text)
        self.next_comment_id += 1
        data = self._comment(state, comment)
        return Response.json(data, status=201, headers={"Location": data["url"]})

    def get_comment(self: EmulatorHost, request: Request, state: RepoState, comment_id: str) -> Response:
        comment = state.comments.get(int(comment_id))
        return Response.json(self._comment(state, comment)) if comment else self.error(404, "Not Found")

    def edit_comment(self: EmulatorHost, request: Request, state: RepoState, comment_id: str) -> Response:
        comment = state.comments.get(int(comment_id))
        if comment is None:
            return self.error(404, "Not Found")
        text = self._comment_body(request)
        if isinstance(text, Response):
            return text
        comment.body, comment.updated_at = text, now_iso()
        return Response.json(self._comment(state, comment))

    def delete_comment(self: EmulatorHost, request: Request, state: RepoState, comment_id: str) -> Response:
        if int(comment_id) not in state.comments:
            return self.error(404, "Not Found")
        state.delete_comment(int(comment_id))
        return Response(status=204)

    def _pull(
        self: EmulatorHost, state: RepoState, pull: SbPull, counts: dict, complete: bool = True
    ) -> dict[str, Any]:
        milestone = self._milestone(state, pull.milestone, counts)
        return render.pull_json(self.urls(state), state.repo, pull, milestone, complete=complete)

    def list_pulls(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        q = request.query
        wanted = q.get("state", "open")
        if wanted not in _STATES:
            return self.validation_failed("PullRequest", "state", value=wanted)
        head = q.get("head", "").partition(":")[2] or q.get("head", "")
        chosen = [
            p
            for p in state.pulls.values()
            if (wanted == "all" or p.state == wanted)
            and (not q.get("base") or p.base == q["base"])
            and (not head or p.head_ref == head)
        ]
        counts = state.milestone_counts()
        return self.paged(request, _sorted(chosen, request), lambda p: self._pull(state, p, counts, complete=False))

    def get_pull(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        pull = state.pulls.get(int(number))
        if pull is None:
            return self.error(404, "Not Found")
        return Response.json(self._pull(state, pull, state.milestone_counts()))

    def list_commits(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        ref = request.query.get("sha") or state.repo.default_branch
        shas = state.history(ref)
        if not shas:
            return self.error(404, f"No commit found for SHA: {ref}")
        parents = dict(itertools.pairwise(shas))
        urls = self.urls(state)
        return self.paged(
            request, shas, lambda sha: render.commit_json(urls, sha, parents.get(sha), _facts(state, sha))
        )

    def list_check_runs(self: EmulatorHost, request: Request, state: RepoState, ref: str) -> Response:
        sha = state.resolve_ref(ref)
        if sha is None:
            return self.error(422, f"No commit found for SHA: {ref}")
        q = request.query
        if q.get("filter", "latest") not in ("latest", "all"):
            return self.validation_failed("CheckRun", "filter", value=q["filter"])
        runs = [
            c
            for c in state.checks_by_sha.get(sha, [])
            if (not q.get("check_name") or c.name == q["check_name"])
            and (not q.get("status") or c.status == q["status"])
        ]
        suite = {run_id: run.check_suite_id for run_id, run in state.runs.items()}
        urls = self.urls(state)
        return self.paged(
            request, runs, lambda c: render.check_run_json(urls, c, suite.get(c.run_id, 0)), wrap="check_runs"
        )

    def list_runs(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        q = request.query
        status = q.get("status")
        chosen = [
            r
            for r in sorted(state.runs.values(), key=lambda r: (r.created_at, r.id), reverse=True)
            if (not q.get("branch") or r.head_branch == q["branch"])
            and (not q.get("event") or r.event == q["event"])
            and (not q.get("head_sha") or r.head_sha == q["head_sha"])
            and (not status or status in (r.status, r.conclusion))
        ]
        urls = self.urls(state)
        return self.paged(
            request,
            chosen,
            lambda r: render.run_json(urls, r, _facts(state, r.head_sha, r.created_at)),
            wrap="workflow_runs",
        )

    def list_jobs(self: EmulatorHost, request: Request, state: RepoState, run_id: str) -> Response:
        run = state.runs.get(int(run_id))
        if run is None:
            return self.error(404, "Not Found")
        urls = self.urls(state)
        jobs = state.checks_by_run.get(run.id, [])
        return self.paged(request, jobs, lambda c: render.job_json(urls, c, run), wrap="jobs")

    def rerun_failed_jobs(self: EmulatorHost, request: Request, state: RepoState, run_id: str) -> Response:
        run = state.runs.get(int(run_id))
        if run is None:
            return self.error(404, "Not Found")
        if run.status != "completed":
            return self.error(403, "This workflow is already running")
        state.rerun_failed(run)
        return Response.json({}, status=201)
