"""A GitHub REST emulator serving a sandbox ``World`` on 127.0.0.1, in GitHub's wire formats.

    with GitHubEmulator(world) as gh:       # or: base = gh.start(); ...; gh.stop()
        requests.get(f"{gh.base_url}/repos/acme/torchlet/issues?milestone=1&state=all")
        gh.log()                             # what was asked, in order
        gh.faults.status_burst(502, count=2) # see cockpit.sandbox.http_base

It answers the endpoints the cockpit uses (repository, milestones, issues and pull requests,
comments and their mutations, issue search, commits of a branch, check runs, workflow runs (of the repository
or of one workflow file) and jobs, file contents, re-run failed jobs, rate limit; opening an issue, reviews, a
branch's protection, commit statuses and the merge of a pull request: ``github_merge_routes``) with pagination
and ``Link`` headers, weak ETags with 304s that do not
count against the rate limit, and ``X-RateLimit-*`` headers. Errors carry GitHub's JSON body.
"""

from __future__ import annotations

import copy
import hashlib
import re
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from cockpit.sandbox import github_actions_routes as actions_routes
from cockpit.sandbox import github_evidence_routes as evidence_routes
from cockpit.sandbox import github_render as render
from cockpit.sandbox.github_merge_routes import MergeHandlers
from cockpit.sandbox.github_paging import link_header, page_of
from cockpit.sandbox.github_routes import RouteHandlers
from cockpit.sandbox.github_search import SearchHandlers
from cockpit.sandbox.github_state import RepoState
from cockpit.sandbox.github_user import login_for, user_answer
from cockpit.sandbox.http_base import Request, Response, SandboxServer

if TYPE_CHECKING:
    from cockpit.sandbox.release_effects import StagingEffects
from cockpit.sandbox.model import World

DOCS = "https://docs.github.com/rest"
_SEG = r"([^/]+)"
_NUM = r"(\d+)"
_BY_ID = re.compile(r"^/repositories/(\d+)(/.*)?$")


class GitHubEmulator(SandboxServer, RouteHandlers, SearchHandlers, MergeHandlers):
    """Serve ``world`` like api.github.com. ``token``: when set, other tokens get 401 Bad credentials.

    ``rate_limit`` is the primary budget per hour; every answered request but a 304 and
    ``/rate_limit`` uses one unit, and an exhausted budget answers 403 like GitHub.
    """

    server_name = "github"

    def __init__(
        self,
        world: World,
        *,
        token: str | None = None,
        rate_limit: int = 5000,
        owned: bool = False,
        users: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.world = world
        self.token = token
        self.users = dict(users or {})  # token -> login: several people on one emulator
        self.release_effects: StagingEffects | None = None  # set by SandboxServers: see release_effects
        self.lock = threading.RLock()
        # Each emulator mutates its own copy: a re-run or a comment in one test must not leak into
        # the next emulator built from the same world. ``owned``: the world was loaded for this
        # emulator alone (``cockpit demo``), so the copy (a tenth of a second) is skipped.
        remotes = {world.repository.lower(): world.remote_path} | {
            str(lib["repository"]).lower(): lib.get("remote_path", "") for lib in world.libraries
        }
        self.repos = {
            name.lower(): RepoState(
                repo if owned else copy.deepcopy(repo),
                Path(remotes[name.lower()]) if remotes.get(name.lower()) else None,
            )
            for name, repo in world.repos.items()
        }
        ids = [c.id for r in world.repos.values() for c in r.comments]
        self.next_comment_id = max(ids, default=1_000_000) + 1
        self.rate_limit_total = rate_limit
        self.rate_used = 0
        self.rate_reset = int(time.time()) + 3600
        self._routes: list[tuple[str, re.Pattern[str], Callable[..., Response]]] = []
        repo = f"/repos/{_SEG}/{_SEG}"
        for method, pattern, fn in (
            ("GET", "/rate_limit", self.get_rate_limit),
            ("GET", "/user", self.get_user),
            ("GET", "/search/issues", self.search_issues),
            ("GET", repo, self.get_repo),
            ("GET", repo + "/milestones", self.list_milestones),
            ("GET", repo + f"/milestones/{_NUM}", self.get_milestone),
            ("GET", repo + "/issues", self.list_issues),
            ("POST", repo + "/issues", self.create_issue),
            ("GET", repo + f"/issues/comments/{_NUM}", self.get_comment),
            ("PATCH", repo + f"/issues/comments/{_NUM}", self.edit_comment),
            ("DELETE", repo + f"/issues/comments/{_NUM}", self.delete_comment),
            ("GET", repo + f"/issues/{_NUM}", self.get_issue),
            ("PATCH", repo + f"/issues/{_NUM}", self.edit_issue),
            ("GET", repo + f"/issues/{_NUM}/comments", self.list_comments),
            ("POST", repo + f"/issues/{_NUM}/comments", self.create_comment),
            ("DELETE", repo + f"/issues/{_NUM}/labels/{_SEG}", self.remove_label),
            ("GET", repo + "/pulls", self.list_pulls),
            ("POST", repo + "/pulls", self.create_pull),
            ("GET", repo + f"/pulls/{_NUM}", self.get_pull),
            ("GET", repo + f"/pulls/{_NUM}/reviews", self.list_reviews),
            ("PUT", repo + f"/pulls/{_NUM}/merge", self.merge_pull),
            ("GET", repo + f"/branches/{_SEG}", self.get_branch),
            ("GET", repo + f"/commits/{_SEG}/status", self.combined_status),
            ("GET", repo + "/commits", self.list_commits),
            ("GET", repo + f"/commits/{_SEG}/check-runs", self.list_check_runs),
            ("GET", repo + "/actions/runs", self.list_runs),
            ("GET", repo + f"/actions/runs/{_NUM}/jobs", self.list_jobs),
            ("GET", repo + f"/actions/workflows/{_SEG}/runs", partial(evidence_routes.list_workflow_runs_of, self)),
            ("GET", repo + "/contents/(.+?)", partial(evidence_routes.get_content, self)),
            ("POST", repo + f"/actions/runs/{_NUM}/rerun-failed-jobs", self.rerun_failed_jobs),
        ):
            self._routes.append((method, re.compile(pattern + "/?$"), fn))
        self._routes[:0] = actions_routes.routes(self)  # release day's Actions endpoints answer first

    def transfer_issue(self, repo: str, number: int, to_repo: str) -> int:
        """Move issue #number to ``to_repo`` as GitHub's "Transfer issue" does; its number there.

        The old URL then answers 301 to the new one (``/repositories/{id}/issues/{n}``)."""
        with self.lock:
            source, target = self.repos[repo.lower()], self.repos[to_repo.lower()]
            comments = source.comments_on(number)
            item = source.take_out(number)
            new = max([*target.items, 0]) + 1
            item.number, item.milestone = new, None
            target.repo.issues.append(item)
            target.items[new] = item
            for c in comments:
                target.add_comment(c.id, new, c.author, c.body)
            source.moved[number] = (target.repo.full_name, new)
            return new

    def delete_issue(self, repo: str, number: int) -> None:
        """Delete issue #number: its URL then answers 410 Gone, as GitHub's does."""
        with self.lock:
            state = self.repos[repo.lower()]
            state.take_out(number)
            state.deleted.add(number)

    def moved_or_gone(self, state: RepoState, number: int, rest: str = "") -> Response | None:
        """GitHub's answer for a transferred (301) or deleted (410) issue, or None."""
        if number in state.deleted:
            return self.error(410, "This issue was deleted")
        if number not in state.moved:
            return None
        full_name, new = state.moved[number]
        url = f"{self.base_url}/repositories/{render.stable_id('repo', full_name)}/issues/{new}{rest}"
        body = {"message": "Moved Permanently", "url": url, "documentation_url": DOCS}
        return Response.json(body, status=301, headers={"Location": url})

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"message": message, "documentation_url": DOCS, "status": str(status)}

    def validation_failed(self, resource: str, field: str, code: str = "invalid", value: Any = None) -> Response:
        body = self.error_body(422, "Validation Failed")
        body["errors"] = [{"resource": resource, "field": field, "code": code, "value": value}]
        return Response.json(body, status=422)

    def paged(
        self,
        request: Request,
        items: list[Any],
        render_item: Callable[[Any], Any] = lambda x: x,
        wrap: str | None = None,
    ) -> Response:
        """One page of ``items``, each rendered, as a list or ``{"total_count", wrap: [...]}``, with Link."""
        page, number, last = page_of(items, request.query)
        rendered = [render_item(item) for item in page]
        body: Any = {"total_count": len(items), wrap: rendered} if wrap else rendered
        raw_query = request.path.partition("?")[2]
        link = link_header(self.base_url, request.route, raw_query, number, last)
        return Response.json(body, headers={"Link": link} if link else None)

    def handle(self, request: Request) -> Response:
        if self.token is not None:
            auth = request.header("authorization")
            if auth not in (f"token {self.token}", f"Bearer {self.token}"):
                return self.error(401, "Bad credentials")
        with self.lock:
            by_id = _BY_ID.match(request.route)
            if by_id:  # GitHub's stable address of a repository, whatever its name is now
                names = [
                    s.repo.full_name
                    for s in self.repos.values()
                    if render.stable_id("repo", s.repo.full_name) == int(by_id.group(1))
                ]
                if not names:
                    return self.error(404, "Not Found")
                request.route = f"/repos/{names[0]}{by_id.group(2) or ''}"
            if request.route != "/rate_limit" and self.rate_used >= self.rate_limit_total:
                return self.error(403, "API rate limit exceeded for 127.0.0.1.")
            for method, pattern, fn in self._routes:
                match = pattern.match(request.route)
                if not match or (method != request.method and (method, request.method) != ("GET", "HEAD")):
                    continue
                args = [unquote(g) for g in match.groups()]
                if request.route.startswith("/repos/"):
                    state = self.repos.get(f"{args[0]}/{args[1]}".lower())
                    if state is None:
                        return self.error(404, "Not Found")
                    return fn(request, state, *args[2:])
                return fn(request, *args)
            return self.error(404, "Not Found")  # GitHub answers 404, not 405, for a wrong method too

    def finish_response(self, request: Request, response: Response) -> Response:
        if request.route.startswith("/_sandbox/"):
            return response
        if request.method in ("GET", "HEAD") and response.status == 200:
            etag = f'W/"{hashlib.sha1(response.body).hexdigest()}"'
            response.headers["ETag"] = etag
            wanted = {t.strip().removeprefix("W/") for t in request.header("if-none-match").split(",")}
            if etag.removeprefix("W/") in wanted or "*" in wanted:
                response = Response(status=304, headers={"ETag": etag})
        with self.lock:
            exhausted = response.headers.get("X-RateLimit-Remaining") == "0"
            if response.status != 304 and request.route != "/rate_limit" and not exhausted:
                self.rate_used = min(self.rate_used + 1, self.rate_limit_total)
            headers = {
                "X-RateLimit-Limit": str(self.rate_limit_total),
                "X-RateLimit-Remaining": str(self.rate_limit_total - self.rate_used),
                "X-RateLimit-Reset": str(self.rate_reset),
                "X-RateLimit-Used": str(self.rate_used),
                "X-RateLimit-Resource": "core",
                "X-GitHub-Media-Type": "github.v3; format=json",
                "X-GitHub-Api-Version-Selected": "2022-11-28",
            }
        for name, value in headers.items():
            response.headers.setdefault(name, value)
        return response

    def get_user(self, request: Request) -> Response:
        return user_answer(self.base_url, login_for(request, self.users))

    def get_rate_limit(self, request: Request) -> Response:
        with self.lock:
            core = {
                "limit": self.rate_limit_total,
                "used": self.rate_used,
                "remaining": self.rate_limit_total - self.rate_used,
                "reset": self.rate_reset,
            }
        other = {"limit": 30, "used": 0, "remaining": 30, "reset": self.rate_reset}
        return Response.json({"resources": {"core": core, "search": other, "graphql": core}, "rate": core})

    def urls(self, state: RepoState) -> render.Urls:
        return render.Urls(self.base_url, state.repo.full_name)
