"""What the GitHub adapter reads about CI: workflow runs, their jobs, check runs, commit statuses,
required checks and a branch's commits, in domain dataclasses."""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

from cockpit.adapters import github_parse as parse
from cockpit.adapters.github_rest import GitHubRest, repo_path
from cockpit.domain.ci import CheckRun, WorkflowRun
from cockpit.domain.merging import CommitStatus
from cockpit.errors import GitHubError


class GitHubCI(GitHubRest):
    """CI reads of the GitHub client (see ``GitHubClient``)."""

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
            f"{repo_path(repo)}/actions/runs",
            what,
            wrap="workflow_runs",
            limit=limit,
            branch=branch,
            head_sha=head_sha,
            event=event,
        )
        return [self._parsed(partial(parse.run_from, r), what) for r in rows]

    def workflow_names(self, repo: str) -> list[str]:
        """The names of ``repo``'s workflows as GitHub reports them (their ``name:`` lines, case-sensitive:
        ``Lint``), from ``GET /repos/{owner}/{repo}/actions/workflows``."""
        what = f"list the workflows of {repo}"
        rows = self._pages(f"{repo_path(repo)}/actions/workflows", what, wrap="workflows", limit=500)
        return [r["name"] for r in rows if isinstance(r, dict) and isinstance(r.get("name"), str) and r["name"]]

    def workflow_file_runs(
        self, repo: str, workflow: str, *, branch: str | None = None, limit: int = 100
    ) -> list[WorkflowRun]:
        """The runs of one workflow (its file name, e.g. ``validate-binaries.yml``), newest first, at most ``limit``."""
        what = f"list the runs of {workflow} in {repo}"
        rows = self._pages(
            f"{repo_path(repo)}/actions/workflows/{quote(workflow, safe='')}/runs",
            what,
            wrap="workflow_runs",
            limit=limit,
            branch=branch,
        )
        return [self._parsed(partial(parse.run_from, r), what) for r in rows]

    def run_jobs(self, repo: str, run_id: int) -> list[CheckRun]:
        """The latest attempt's jobs of one workflow run (a matrix's entries by name)."""
        what = f"list the jobs of run {run_id} in {repo}"
        rows = self._pages(f"{repo_path(repo)}/actions/runs/{int(run_id)}/jobs", what, wrap="jobs", filter="latest")
        return [self._parsed(partial(parse.job_from, r), what) for r in rows]

    def check_runs(self, repo: str, ref: str) -> list[CheckRun]:
        """The latest check runs of a branch, tag or sha, each with its workflow's name.

        One paged check-runs list plus one workflow-runs request for the head sha (the join key
        is the check suite id).
        """
        what = f"read the check runs of {ref} in {repo}"
        path = f"{repo_path(repo)}/commits/{quote(ref, safe='')}/check-runs"
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
        rows = self._pages(f"{repo_path(repo)}/commits", what, limit=limit, sha=branch)
        return [self._parsed(partial(parse.sha_from, r), what) for r in rows]

    def commit_statuses(self, repo: str, sha: str) -> list[CommitStatus]:
        """The legacy commit statuses of ``sha`` (latest per context); empty for a project that uses
        check runs only (GitHub's combined ``state`` is then "pending" and means nothing)."""
        what = f"read the commit statuses of {sha[:12]} in {repo}"
        rows = self._pages(f"{repo_path(repo)}/commits/{quote(sha, safe='')}/status", what, wrap="statuses")
        return [self._parsed(partial(parse.status_from, r), what) for r in rows]

    def required_checks(self, repo: str, branch: str) -> tuple[str, ...] | None:
        """The check names branch protection requires on ``branch``; None when the branch is not
        protected or the token is not shown its protection (the caller then waits on every check)."""
        what = f"read the protection of {branch} in {repo}"
        try:
            data = self._get(f"{repo_path(repo)}/branches/{quote(branch, safe='')}", what)
        except GitHubError as exc:
            if getattr(exc, "status", None) in (403, 404):
                return None
            raise
        return self._parsed(lambda: parse.required_checks_from(data), what)
