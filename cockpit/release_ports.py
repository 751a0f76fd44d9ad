"""The seam to GitHub Actions as release day drives it: start a workflow, find and watch its runs, re-run,
cancel, approve. The real one is ``cockpit.adapters.github_actions.GitHubActions``; ``cockpit.ports.Ports``
offers it as ``release_workflows``. Nothing here is imported by the first screen's code at run time beyond
this Protocol; the domain types are named for the type checker only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cockpit.domain.workflows import Dispatched, PendingDeployment, RunJob, WorkflowFile
    from cockpit.domain.workflows import WorkflowRun as ActionsRun

__all__ = ["ReleaseWorkflowsPort"]


class ReleaseWorkflowsPort(Protocol):
    """GitHub Actions as release day drives it (``cockpit.adapters.github_actions.GitHubActions``)."""

    def workflow_file(self, repo: str, path: str, ref: str) -> WorkflowFile: ...

    def dispatch(
        self,
        repo: str,
        workflow: str,
        ref: str,
        inputs: Mapping[str, str],
        *,
        actor: str = "",
        since: float | None = None,
    ) -> Dispatched: ...

    def find_dispatched_run(
        self, repo: str, workflow: str, ref: str, *, actor: str = "", since: float, skew: float = 30.0
    ) -> Dispatched: ...

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
    ) -> tuple[ActionsRun, ...]: ...

    def run(self, repo: str, run_id: int) -> ActionsRun: ...

    def jobs(self, repo: str, run_id: int, *, latest: bool = True) -> tuple[RunJob, ...]: ...

    def job_log_tail(self, repo: str, job_id: int, *, lines: int = 40) -> tuple[str, ...]: ...

    def rerun_failed_jobs(self, repo: str, run_id: int) -> None: ...

    def cancel(self, repo: str, run_id: int) -> None: ...

    def pending_deployments(self, repo: str, run_id: int) -> tuple[PendingDeployment, ...]: ...

    def review_deployments(
        self, repo: str, run_id: int, environment_ids: tuple[int, ...], *, approve: bool, comment: str
    ) -> tuple[str, ...]: ...
