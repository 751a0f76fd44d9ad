"""The emulator's endpoints for the release manager's last chores: open an issue, read a PR's reviews,
a branch's protection and a commit's statuses, and merge a PR only at the head that was judged.

``MergeHandlers`` is mixed into ``GitHubEmulator`` like ``RouteHandlers``. The merge answers as
GitHub does: 409 when ``sha`` is not the head any more, 405 when the PR will not merge (already
merged or closed, conflicts, a protected base whose required checks or approval are missing), 422
for an unknown ``merge_method``; on success the PR is merged and its base branch moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.sandbox.github_objects import minimal_repo_json, user_json
from cockpit.sandbox.github_render_ci import CommitFacts, commit_json
from cockpit.sandbox.github_state import RepoState, now_iso
from cockpit.sandbox.http_base import Request, Response
from cockpit.sandbox.model import SbIssue, SbPull, SbReview
from cockpit.sandbox.world_names import fake_sha

if TYPE_CHECKING:
    from cockpit.sandbox.github_host import EmulatorHost

MERGE_METHODS = ("merge", "squash", "rebase")
_GREEN = ("success", "skipped", "neutral")


def _json_body(request: Request) -> dict[str, Any] | None:
    if not request.body:
        return {}
    try:
        body = request.json()
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


class MergeHandlers:
    """``create_issue``, ``create_pull``, ``list_reviews``, ``get_branch``, ``combined_status``, ``merge_pull``; and
    ``push_to_pull``, which moves a PR's head as a contributor's push would (for tests and the demo)."""

    def create_issue(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        body = _json_body(request)
        if body is None:
            return self.error(400, "Problems parsing JSON")
        title = body.get("title")
        if not isinstance(title, str) or not title.strip():
            return self.validation_failed("Issue", "title", code="missing_field")
        text = body.get("body")
        if text is not None and not isinstance(text, str):
            return self.validation_failed("Issue", "body", value=text)
        labels = body.get("labels", [])
        if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
            return self.validation_failed("Issue", "labels", value=labels)
        number = max([*state.items, *state.moved, *state.deleted, 0]) + 1
        stamp = now_iso()
        author = request.header("x-sandbox-user", "release-manager")
        issue = SbIssue(number, title, author, "open", text or "", created_at=stamp, updated_at=stamp)
        issue.labels = list(labels)
        state.repo.issues.append(issue)
        state.items[number] = issue
        data = self._issue(state, issue)
        return Response.json(data, status=201, headers={"Location": data["url"]})

    def create_pull(self: EmulatorHost, request: Request, state: RepoState) -> Response:
        """Open a PR as GitHub does: 422 without a title, head or base, or when one is already open for
        that head and base ("A pull request already exists for owner:branch.")."""
        body = _json_body(request)
        if body is None:
            return self.error(400, "Problems parsing JSON")
        fields = {k: body.get(k) for k in ("title", "head", "base")}
        for name, value in fields.items():
            if not isinstance(value, str) or not value.strip():
                return self.validation_failed("PullRequest", name, code="missing_field")
        text = body.get("body")
        if text is not None and not isinstance(text, str):
            return self.validation_failed("PullRequest", "body", value=text)
        head_ref = str(fields["head"]).partition(":")[2] or str(fields["head"])
        if any(p.head_ref == head_ref and p.base == fields["base"] and p.state == "open" for p in state.pulls.values()):
            return self.error(422, f"A pull request already exists for {fields['head']}.")
        number = max([*state.items, *state.moved, *state.deleted, 0]) + 1
        stamp = now_iso()
        author = request.header("x-sandbox-user", "release-manager")
        pull = SbPull(number, str(fields["title"]), author, str(fields["base"]), head_ref, body=text or "")
        pull.created_at = pull.updated_at = stamp
        pull.head_sha = fake_sha("pull", state.repo.full_name, number, head_ref)
        state.repo.pulls.append(pull)
        state.pulls[number] = pull
        state.items[number] = pull
        data = self._pull(state, pull, state.milestone_counts())
        return Response.json(data, status=201, headers={"Location": data["url"]})

    def list_reviews(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        pull = state.pulls.get(int(number))
        if pull is None:
            return self.error(404, "Not Found")
        reviews = sorted((r for r in state.repo.reviews if r.pull == pull.number), key=lambda r: r.id)
        return self.paged(request, reviews, lambda r: self._review(state, r))

    def _review(self: EmulatorHost, state: RepoState, r: SbReview) -> dict[str, Any]:
        u = self.urls(state)
        html = f"{u.web}/pull/{r.pull}#pullrequestreview-{r.id}"
        return {
            "id": r.id,
            "node_id": f"PRR_{r.id:x}",
            "user": user_json(u.api, r.author),
            "body": r.body,
            "state": r.state,
            "html_url": html,
            "pull_request_url": f"{u.repo}/pulls/{r.pull}",
            "_links": {"html": {"href": html}, "pull_request": {"href": f"{u.repo}/pulls/{r.pull}"}},
            "submitted_at": r.submitted_at or None,
            "commit_id": r.commit_id,
            "author_association": "MEMBER",
        }

    def get_branch(self: EmulatorHost, request: Request, state: RepoState, branch: str) -> Response:
        sha = state.repo.branches.get(branch)
        if sha is None:
            return self.error(404, "Branch not found")
        u = self.urls(state)
        history = state.repo.branch_history.get(branch) or [sha]
        parent = history[1] if len(history) > 1 and history[0] == sha else None
        required = state.repo.required_checks.get(branch)
        checks = list(required or [])
        protection_url = f"{u.repo}/branches/{branch}/protection"
        return Response.json(
            {
                "name": branch,
                "commit": commit_json(u, sha, parent, CommitFacts.of(sha, state.pull_by_merge_sha.get(sha), None)),
                "_links": {"self": f"{u.repo}/branches/{branch}", "html": f"{u.web}/tree/{branch}"},
                "protected": required is not None,
                "protection": {
                    "enabled": required is not None,
                    "required_status_checks": {
                        "enforcement_level": "non_admins" if required is not None else "off",
                        "contexts": checks,
                        "checks": [{"context": c, "app_id": None} for c in checks],
                    },
                },
                "protection_url": protection_url,
            }
        )

    def combined_status(self: EmulatorHost, request: Request, state: RepoState, ref: str) -> Response:
        """The sandbox's projects use check runs only: no statuses, so GitHub's combined state is "pending"."""
        sha = state.resolve_ref(ref) or (ref if ref in state.checks_by_sha else None)
        if sha is None:
            return self.error(404, f"No commit found for SHA: {ref}")
        u = self.urls(state)
        return Response.json(
            {
                "state": "pending",
                "statuses": [],
                "sha": sha,
                "total_count": 0,
                "repository": minimal_repo_json(u.api, state.repo.full_name),
                "commit_url": f"{u.repo}/commits/{sha}",
                "url": f"{u.repo}/commits/{sha}/status",
            }
        )

    def merge_pull(self: EmulatorHost, request: Request, state: RepoState, number: str) -> Response:
        pull = state.pulls.get(int(number))
        if pull is None:
            return self.error(404, "Not Found")
        body = _json_body(request)
        if body is None:
            return self.error(400, "Problems parsing JSON")
        method = body.get("merge_method", "merge")
        if method not in MERGE_METHODS:
            return self.validation_failed("PullRequest", "merge_method", value=method)
        if pull.merged or pull.state != "open":
            return self.error(405, "Pull Request is not mergeable")
        wanted = body.get("sha")
        if wanted is not None and wanted != pull.head_sha:
            return self.error(409, "Head branch was modified. Review and try the merge again.")
        refusal = _protection_refusal(state, pull) or (
            None if pull.mergeable is not False else "Pull Request is not mergeable"
        )
        if refusal:
            return self.error(405, refusal)
        merged = fake_sha("merge", state.repo.full_name, pull.number, pull.head_sha, method)
        stamp = now_iso()
        pull.state, pull.merged, pull.merged_at, pull.closed_at = "closed", True, stamp, stamp
        pull.merge_commit_sha, pull.updated_at = merged, stamp
        state.pull_by_merge_sha[merged] = pull
        state.repo.branches[pull.base] = merged
        if pull.base in state.repo.branch_history:
            state.repo.branch_history[pull.base].insert(0, merged)
        return Response.json({"sha": merged, "merged": True, "message": "Pull Request successfully merged"})

    def push_to_pull(self: EmulatorHost, repo: str, number: int, sha: str) -> None:
        """Someone pushed ``sha`` to PR #number's branch: its head moves, its old checks stay on the old head."""
        with self.lock:
            pull = self.repos[repo.lower()].pulls[number]
            pull.head_sha, pull.updated_at = sha, now_iso()


def _protection_refusal(state: RepoState, pull: SbPull) -> str | None:
    """GitHub's refusal when the base is protected: one approval and every required check green."""
    required = state.repo.required_checks.get(pull.base)
    if required is None:
        return None
    latest: dict[str, str] = {}
    for r in sorted((r for r in state.repo.reviews if r.pull == pull.number), key=lambda r: r.id):
        if r.state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[r.author] = r.state
    if "APPROVED" not in latest.values() or "CHANGES_REQUESTED" in latest.values():
        return "At least 1 approving review is required by reviewers with write access."
    runs = {c.name: c for c in state.checks_by_sha.get(pull.head_sha, [])}
    for name in required:
        run = runs.get(name)
        if run is None or run.status != "completed":
            return f'Required status check "{name}" is expected.'
        if run.conclusion not in _GREEN:
            return f'Required status check "{name}" is failing.'
    return None
