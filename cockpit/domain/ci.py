"""CI: check runs of a release branch head or an RC tag, and the verdict on them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from cockpit.domain.gates import GateStatus
from cockpit.domain.release import CITarget

__all__ = ["CITarget", "CheckRun", "JobVerdict", "RepoCIVerdict", "RunHistory", "WorkflowRun"]


@dataclass(frozen=True)
class CheckRun:
    """One job as the check-runs API reports it. ``workflow`` is the workflow's name."""

    id: int
    name: str
    status: str  # queued / in_progress / completed
    conclusion: str | None  # success / failure / cancelled / skipped / neutral / timed_out / ...
    workflow: str = ""
    html_url: str = ""
    run_id: int | None = None
    head_sha: str = ""
    started_at: datetime | None = None
    completed_at: datetime | None = None


@dataclass(frozen=True)
class JobVerdict:
    """A folded job (shards counted once) and how it stands."""

    name: str
    workflow: str
    status: str
    conclusion: str | None
    html_url: str = ""
    run_id: int | None = None
    duration_s: float | None = None


@dataclass(frozen=True)
class RepoCIVerdict:
    repository: str
    ref: str
    status: GateStatus
    reason: str
    failed: tuple[JobVerdict, ...] = ()
    pending: tuple[JobVerdict, ...] = ()
    unstable: tuple[JobVerdict, ...] = ()
    missing_workflows: tuple[str, ...] = ()
    job_count: int = 0
    head_sha: str = ""
    last_green_sha: str | None = None
    commits_behind_green: int | None = None
    # Failures in workflows that are not required: listed for the reader, never counted (as PyTorch).
    advisory_failed: tuple[JobVerdict, ...] = ()


@dataclass(frozen=True)
class WorkflowRun:
    """An Actions workflow run; its ``check_suite_id`` ties check runs to the workflow's name."""

    id: int
    name: str
    head_sha: str
    head_branch: str
    status: str
    conclusion: str | None
    check_suite_id: int | None = None
    html_url: str = ""
    event: str = ""
    attempt: int = 1  # GitHub's ``run_attempt``: 2 and up once someone re-ran it
    created_at: datetime | None = None
    display_title: str = ""  # what the run calls itself on GitHub (a dispatch's run-name, a push's subject)
    actor: str = ""  # the login that started the run


@dataclass(frozen=True)
class RunHistory:
    """The newest workflow runs pushed to a repository's release branch, newest first."""

    repository: str
    branch: str
    runs: tuple[WorkflowRun, ...] = ()
    required: tuple[str, ...] = ()  # the workflows whose runs count
