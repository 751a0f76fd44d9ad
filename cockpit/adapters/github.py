"""The GitHub adapter: what the cockpit reads from and does to GitHub, in domain dataclasses.

Every method raises only ``GitHubError`` (``RateLimited`` when the budget is gone and waiting
would take longer than ``max_rate_limit_wait``) or ``ReadOnlyError`` (a mutation in a read-only
session; nothing is sent). Lists are read 100 a page by following ``Link`` headers, with
conditional requests, so a refresh with nothing changed costs only 304s. Works against
github.com, GitHub Enterprise (``https://HOST/api/v3``) and the sandbox emulator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar
from urllib.parse import quote

from cockpit.adapters import github_parse as parse
from cockpit.adapters.github_transport import Transport
from cockpit.domain.ci import CheckRun, WorkflowRun
from cockpit.domain.evidence import RepoFile
from cockpit.domain.github import (
    IssueComment,
    Milestone,
    MilestoneItem,
    PullRequest,
    RateLimit,
)
from cockpit.domain.merging import CommitStatus, Review
from cockpit.errors import GitHubError

T = TypeVar("T")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
_MAX_PAGES = 200  # a runaway Link chain must end


def _repo_path(repo: str) -> str:
    if not _REPO.match(repo or ""):
        raise GitHubError(f"repository {repo!r} is not of the form 'owner/name'")
    return f"/repos/{repo}"


class GitHubClient:
    """A GitHub REST client for one API URL. Thread-safe enough for the UI's workers."""

    def __init__(
        self,
        api_url: str,
        token: str | None,
        *,
        timeout: float = 15,
        retries: int = 3,
        max_rate_limit_wait: float = 30,
        read_only: bool = False,
    ) -> None:
        self._t = Transport(
            api_url,
            token,
            timeout=timeout,
            retries=retries,
            max_rate_limit_wait=max_rate_limit_wait,
            read_only=read_only,
        )
        self.read_only = read_only

    @property
    def request_count(self) -> int:
        """Requests actually sent (retries and 304s included; refused mutations excluded)."""
        return self._t.meter.sent

    def thread_request_counts(self) -> tuple[int, int]:
        """(sent, answered 304) by the calling thread so far: one load's cost while other loads run."""
        mine = self._t.meter.mine
        return getattr(mine, "sent", 0), getattr(mine, "not_modified", 0)

    @property
    def rate_limit(self) -> RateLimit | None:
        """The budget the last response reported, or None before the first answer."""
        return self._t.meter.rate_limit

    def close(self) -> None:
        self._t.close()

    def _get(self, path: str, what: str, **params: Any) -> Any:
        return self._t.request("GET", path, what, params={k: v for k, v in params.items() if v is not None})[0]

    def _pages(
        self, path: str, what: str, *, wrap: str | None = None, limit: int | None = None, **params: Any
    ) -> list[Any]:
        """Every row of a paged list (100 a page), following ``rel="next"`` up to ``limit`` rows."""
        query: dict[str, Any] | None = {"per_page": 100, **{k: v for k, v in params.items() if v is not None}}
        rows: list[Any] = []
        url = path
        for _ in range(_MAX_PAGES):
            data, link = self._t.request("GET", url, what, params=query)
            rows.extend(self._parsed(partial(parse.list_of, data, what, wrap), what))
            if limit is not None and len(rows) >= limit:
                return rows[:limit]
            match = _NEXT.search(link or "")
            if not match:
                return rows
            url, query = match.group(1), None
        raise GitHubError(f"{what}: more than {_MAX_PAGES} pages; stopped following GitHub's Link header")

    @staticmethod
    def _parsed(fn: Callable[[], T], what: str) -> T:
        try:
            return fn()
        except parse.Malformed as exc:
            raise GitHubError(f"{what}: GitHub answered something unexpected ({exc})") from None

    def repository_exists(self, repo: str) -> bool:
        """True when the repository exists and the token can see it; False on 404."""
        what = f"look up {repo}"
        try:
            self._get(_repo_path(repo), what)
        except GitHubError as exc:
            if getattr(exc, "status", None) == 404:
                return False
            raise
        return True

    def milestone(self, repo: str, number_or_title: int | str) -> Milestone:
        """The milestone by number, or by title among open AND closed milestones."""
        key = str(number_or_title).strip()
        if key.isdigit():
            what = f"read milestone {key} of {repo}"
            return self._parsed(
                lambda: parse.milestone_from(self._get(f"{_repo_path(repo)}/milestones/{key}", what)), what
            )
        milestones = self.milestones(repo)
        for exact in (True, False):
            for m in milestones:
                if m.title == key if exact else m.title.strip().lower().lstrip("v") == key.lower().lstrip("v"):
                    return m
        titles = ", ".join(repr(m.title) for m in milestones[:8]) or "none"
        raise GitHubError(f"{repo} has no milestone titled {key!r} (open or closed); it has {titles}")

    def milestones(self, repo: str, *, state: str = "all") -> list[Milestone]:
        """Every milestone, open and closed by default (GitHub's own default lists only open ones)."""
        what = f"list the milestones of {repo}"
        rows = self._pages(f"{_repo_path(repo)}/milestones", what, state=state)
        return [self._parsed(partial(parse.milestone_from, r), what) for r in rows]

    def issues(
        self,
        repo: str,
        *,
        labels: str | None = None,
        state: str = "all",
        newest_first: bool = True,
        limit: int | None = None,
    ) -> list[MilestoneItem]:
        """Issues (and the PRs GitHub mixes in), optionally only those carrying every label of ``labels``.

        ``labels`` is GitHub's comma-separated list; newest first by default; at most ``limit``.
        """
        what = f"list the issues of {repo}" + (f" labelled {labels!r}" if labels else "")
        rows = self._pages(
            f"{_repo_path(repo)}/issues",
            what,
            limit=limit,
            labels=labels,
            state=state,
            sort="created",
            direction="desc" if newest_first else "asc",
        )
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def search_issues(self, repo: str, query: str, *, limit: int = 300) -> list[MilestoneItem]:
        """Issues and PRs of ``repo`` matching a search ``query`` (GitHub's issue search syntax), best first."""
        what = f"search the issues of {_repo_path(repo).removeprefix('/repos/')} for {query!r}"
        rows = self._pages("/search/issues", what, wrap="items", limit=limit, q=f"repo:{repo} {query}")
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def milestone_items(self, repo: str, number: int) -> list[MilestoneItem]:
        """Every issue and PR of the milestone, open and closed, in one paged list call."""
        what = f"list the items of milestone {number} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/issues", what, milestone=str(number), state="all")
        return [self._parsed(partial(parse.item_from, r, repo), what) for r in rows]

    def issue(self, repo: str, number: int) -> MilestoneItem:
        what = f"read issue #{number} of {repo}"
        return self._parsed(
            lambda: parse.item_from(self._get(f"{_repo_path(repo)}/issues/{int(number)}", what), repo), what
        )

    def issue_comments(self, repo: str, number: int) -> list[IssueComment]:
        what = f"read the comments of #{number} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/issues/{int(number)}/comments", what)
        return [self._parsed(partial(parse.comment_from, r), what) for r in rows]

    def pull(self, repo: str, number: int) -> PullRequest:
        what = f"read pull request #{number} of {repo}"
        return self._parsed(
            lambda: parse.pull_from(self._get(f"{_repo_path(repo)}/pulls/{int(number)}", what), repo), what
        )

    def pulls(self, repo: str, *, base: str | None = None, state: str = "all") -> list[PullRequest]:
        """Pull requests, optionally only those aimed at ``base`` (e.g. the release branch)."""
        what = f"list pull requests of {repo}" + (f" onto {base}" if base else "")
        rows = self._pages(f"{_repo_path(repo)}/pulls", what, base=base, state=state)
        return [self._parsed(partial(parse.pull_from, r, repo), what) for r in rows]

    def workflow_runs(
        self,
        repo: str,
        *,
        branch: str | None = None,
        head_sha: str | None = None,
        event: str | None = None,
        limit: int = 300,
    ) -> list[WorkflowRun]:
        """Actions runs, newest first, filtered by branch, head sha and event; at most ``limit``."""
        what = f"list workflow runs of {repo}"
        rows = self._pages(
            f"{_repo_path(repo)}/actions/runs",
            what,
            wrap="workflow_runs",
            limit=limit,
            branch=branch,
            head_sha=head_sha,
            event=event,
        )
        return [self._parsed(partial(parse.run_from, r), what) for r in rows]

    def workflow_file_runs(
        self, repo: str, workflow: str, *, branch: str | None = None, limit: int = 100
    ) -> list[WorkflowRun]:
        """The runs of one workflow (its file name, e.g. ``validate-binaries.yml``), newest first, at most ``limit``."""
        what = f"list the runs of {workflow} in {repo}"
        rows = self._pages(
            f"{_repo_path(repo)}/actions/workflows/{quote(workflow, safe='')}/runs",
            what,
            wrap="workflow_runs",
            limit=limit,
            branch=branch,
        )
        return [self._parsed(partial(parse.run_from, r), what) for r in rows]

    def run_jobs(self, repo: str, run_id: int) -> list[CheckRun]:
        """The latest attempt's jobs of one workflow run (a matrix's entries by name)."""
        what = f"list the jobs of run {run_id} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/actions/runs/{int(run_id)}/jobs", what, wrap="jobs", filter="latest")
        return [self._parsed(partial(parse.job_from, r), what) for r in rows]

    def repo_file(self, repo: str, path: str, ref: str) -> RepoFile | None:
        """The file at ``path`` on ``ref`` (contents API); None when GitHub answers 404 for it.

        GitHub answers 404 as well for a repository the token cannot see: callers that must tell the
        two apart ask ``repository_exists``.
        """
        what = f"read {path} at {ref} in {repo}"
        try:
            data = self._get(f"{_repo_path(repo)}/contents/{quote(path.strip('/'))}", what, ref=ref)
        except GitHubError as exc:
            if getattr(exc, "status", None) == 404:
                return None
            raise
        return self._parsed(lambda: parse.file_from(data, repo, ref), what)

    def check_runs(self, repo: str, ref: str) -> list[CheckRun]:
        """The latest check runs of a branch, tag or sha, each with its workflow's name.

        One paged check-runs list plus one workflow-runs request for the head sha (the join key
        is the check suite id).
        """
        what = f"read the check runs of {ref} in {repo}"
        path = f"{_repo_path(repo)}/commits/{quote(ref, safe='')}/check-runs"
        rows = self._pages(path, what, wrap="check_runs", filter="latest")
        shas: set[str] = {r["head_sha"] for r in rows if isinstance(r, dict) and isinstance(r.get("head_sha"), str)}
        runs: dict[int, WorkflowRun] = {}
        for sha in sorted(shas):
            for run in self.workflow_runs(repo, head_sha=sha):
                if run.check_suite_id is not None:
                    runs[run.check_suite_id] = run
        return [self._parsed(partial(parse.check_run_from, r, runs), what) for r in rows]

    def branch_commits(self, repo: str, branch: str, limit: int) -> list[str]:
        """The shas of ``branch``, newest first, at most ``limit``."""
        what = f"list commits of {branch} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/commits", what, limit=limit, sha=branch)
        return [self._parsed(partial(parse.sha_from, r), what) for r in rows]

    def create_comment(self, repo: str, number: int, body: str) -> IssueComment:
        what = f"comment on #{number} in {repo}"
        data, _ = self._t.request(
            "POST", f"{_repo_path(repo)}/issues/{int(number)}/comments", what, body={"body": body}
        )
        return self._parsed(lambda: parse.comment_from(data), what)

    def edit_comment(self, repo: str, comment_id: int, body: str) -> IssueComment:
        what = f"edit comment {comment_id} in {repo}"
        data, _ = self._t.request(
            "PATCH", f"{_repo_path(repo)}/issues/comments/{int(comment_id)}", what, body={"body": body}
        )
        return self._parsed(lambda: parse.comment_from(data), what)

    def comment(self, repo: str, comment_id: int) -> IssueComment:
        """One issue comment as it is now (body and ``updated_at``), read without the ETag cache's help."""
        what = f"read comment {comment_id} in {repo}"
        data, _ = self._t.request("GET", f"{_repo_path(repo)}/issues/comments/{int(comment_id)}", what, fresh=True)
        return self._parsed(lambda: parse.comment_from(data), what)

    def delete_comment(self, repo: str, comment_id: int) -> None:
        self._t.request(
            "DELETE", f"{_repo_path(repo)}/issues/comments/{int(comment_id)}", f"delete comment {comment_id} in {repo}"
        )

    def authenticated_user(self) -> str:
        """The login of the token's user (``GET /user``)."""
        what = "ask GitHub whose token this is"
        return self._parsed(lambda: parse.login_of(self._get("/user", what)), what)

    def set_milestone(self, repo: str, number: int, milestone_number: int | None) -> None:
        """Put #number in the milestone, or take it out with None."""
        verb = (
            f"move #{number} to milestone {milestone_number}"
            if milestone_number
            else f"remove #{number} from its milestone"
        )
        self._t.request(
            "PATCH",
            f"{_repo_path(repo)}/issues/{int(number)}",
            f"{verb} in {repo}",
            body={"milestone": milestone_number},
        )

    def remove_label(self, repo: str, number: int, label: str) -> None:
        """Take ``label`` off issue or PR #number (GitHub answers with the labels left)."""
        self._t.request(
            "DELETE",
            f"{_repo_path(repo)}/issues/{int(number)}/labels/{quote(label, safe='')}",
            f"remove the label {label!r} from #{number} in {repo}",
        )

    def rerun_failed_jobs(self, repo: str, run_id: int) -> None:
        self._t.request(
            "POST",
            f"{_repo_path(repo)}/actions/runs/{int(run_id)}/rerun-failed-jobs",
            f"re-run the failed jobs of run {run_id} in {repo}",
        )

    def create_issue(self, repo: str, title: str, body: str) -> MilestoneItem:
        """Open an issue; GitHub answers with it (its number and URL)."""
        what = f"open the issue {title!r} in {repo}"
        data, _ = self._t.request("POST", f"{_repo_path(repo)}/issues", what, body={"title": title, "body": body})
        return self._parsed(lambda: parse.item_from(data, repo), what)

    def pull_reviews(self, repo: str, number: int) -> list[Review]:
        """Every review of PR #number, oldest first."""
        what = f"read the reviews of #{number} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/pulls/{int(number)}/reviews", what)
        return [self._parsed(partial(parse.review_from, r), what) for r in rows]

    def commit_statuses(self, repo: str, sha: str) -> list[CommitStatus]:
        """The legacy commit statuses of ``sha`` (latest per context); empty for a project that uses
        check runs only (GitHub's combined ``state`` is then "pending" and means nothing)."""
        what = f"read the commit statuses of {sha[:12]} in {repo}"
        rows = self._pages(f"{_repo_path(repo)}/commits/{quote(sha, safe='')}/status", what, wrap="statuses")
        return [self._parsed(partial(parse.status_from, r), what) for r in rows]

    def required_checks(self, repo: str, branch: str) -> tuple[str, ...] | None:
        """The check names branch protection requires on ``branch``; None when the branch is not
        protected or the token is not shown its protection (the caller then waits on every check)."""
        what = f"read the protection of {branch} in {repo}"
        try:
            data = self._get(f"{_repo_path(repo)}/branches/{quote(branch, safe='')}", what)
        except GitHubError as exc:
            if getattr(exc, "status", None) in (403, 404):
                return None
            raise
        return self._parsed(lambda: parse.required_checks_from(data), what)

    def merge_pull(self, repo: str, number: int, *, sha: str, method: str) -> str:
        """Merge PR #number only if its head is still ``sha``; the merge commit's sha.

        GitHub answers 409 when the head moved (someone pushed since it was judged) and 405 when it
        will not merge (conflicts, protection); both raise ``GitHubError`` saying so, nothing merged.
        """
        what = f"merge #{number} of {repo} at {sha[:12]}"
        try:
            data, _ = self._t.request(
                "PUT",
                f"{_repo_path(repo)}/pulls/{int(number)}/merge",
                what,
                body={"sha": sha, "merge_method": method},
            )
        except GitHubError as exc:
            if getattr(exc, "status", None) == 409:
                error = GitHubError(
                    f"#{number} was pushed to after it was judged: its head is no longer {sha[:12]}, so GitHub "
                    f"refused the merge (409) and nothing was merged. Review the new head and try again."
                )
                error.status = 409  # type: ignore[attr-defined]
                raise error from None
            raise
        merged = data.get("sha") if isinstance(data, dict) else None
        if not isinstance(merged, str) or data.get("merged") is not True:
            raise GitHubError(f"{what}: GitHub answered without a merge commit ({str(data)[:80]})")
        return merged
