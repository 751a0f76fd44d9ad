"""GitHub Actions as the release day sees it: workflows, their dispatch inputs, runs, jobs, approvals.

pytorch/test-infra runs release day through ``workflow_dispatch`` workflows (``release-stage-pypi.yml``,
``release-pypi.yml``, ``release-download-pytorch-org.yml``, ``release-post-promotion.yml``,
``release-docker.yml``, ``validate-binaries.yml`` ...; HEAD 61a77570f454). Their inputs come from
the workflow file itself (``on.workflow_dispatch.inputs``); the promoting jobs run in protected
environments (``pytorchbot-env``, ``promote-env``) that wait for a reviewer's approval.
"""

from __future__ import annotations

from dataclasses import dataclass

FINISHED = "completed"
"""A run's status once it ended (its conclusion then says how)."""

INPUT_TYPES = ("string", "choice", "boolean", "number", "environment")
"""The input types GitHub documents for ``workflow_dispatch``; ``string`` when a file names none."""


@dataclass(frozen=True)
class Workflow:
    """A workflow of a repository: ``name`` is what GitHub reports (from the file's ``name:``), ``path``
    its file (``.github/workflows/release-pypi.yml``), ``state`` ``active`` or ``disabled_*``."""

    id: int
    name: str
    path: str
    state: str
    html_url: str = ""

    @property
    def file_name(self) -> str:
        """``release-pypi.yml``: what GitHub accepts in place of the workflow's id."""
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class WorkflowInput:
    """One input of ``on.workflow_dispatch.inputs``, as the file declares it.

    ``default`` is the text a form shows (``"enabled"``, ``"true"`` for a boolean), or None when the
    file gives none; ``options`` the choices of a ``choice`` input, in the file's order.
    """

    name: str
    type: str = "string"
    description: str = ""
    required: bool = False
    default: str | None = None
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkflowFile:
    """A workflow file read on a ref: whether it can be dispatched, its inputs, its environments.

    ``environments`` are the job environments the file names (``pytorchbot-env``, or both names an
    expression chooses between, such as ``promote-env``); ``sha`` is the file's blob id on ``ref``, so
    a form built from it can tell when the file changed.
    """

    path: str
    ref: str
    sha: str
    name: str
    dispatchable: bool
    inputs: tuple[WorkflowInput, ...] = ()
    environments: tuple[str, ...] = ()

    def input(self, name: str) -> WorkflowInput | None:
        """The input called ``name``, or None."""
        return next((i for i in self.inputs if i.name == name), None)

    @property
    def dry_run_input(self) -> WorkflowInput | None:
        """The input that makes a run a dry run: ``dryrun`` (a choice, default ``enabled``) in the
        promotion workflows, ``dry_run`` (a boolean) in ``release-docker.yml`` and others."""
        return next((i for i in self.inputs if i.name in ("dryrun", "dry_run", "dry-run")), None)


@dataclass(frozen=True)
class WorkflowRun:
    """One run of a workflow. ``actor`` started it; ``triggering_actor`` started this attempt."""

    id: int
    workflow_id: int
    name: str
    path: str
    head_branch: str
    head_sha: str
    event: str
    status: str  # queued, in_progress, waiting, requested, pending, completed
    conclusion: str | None  # success, failure, cancelled, skipped, timed_out, action_required, ...
    actor: str
    triggering_actor: str
    created_at: str
    run_attempt: int
    html_url: str
    display_title: str = ""

    @property
    def waiting(self) -> bool:
        """The run waits for a reviewer to approve a deployment to a protected environment."""
        return self.status == "waiting"


@dataclass(frozen=True)
class JobStep:
    """A step of a job, numbered as GitHub numbers them (from 1)."""

    number: int
    name: str
    status: str
    conclusion: str | None
    started_at: str | None = None
    completed_at: str | None = None


@dataclass(frozen=True)
class RunJob:
    """A job of a workflow run, with its steps."""

    id: int
    run_id: int
    name: str
    status: str
    conclusion: str | None
    started_at: str | None
    completed_at: str | None
    html_url: str
    steps: tuple[JobStep, ...] = ()

    @property
    def failed(self) -> bool:
        """The job concluded in a way a re-run of failed jobs would run again."""
        return self.conclusion in ("failure", "timed_out", "cancelled", "startup_failure")


@dataclass(frozen=True)
class PendingDeployment:
    """A protected environment a run waits on: who may approve it, and whether this token's user may."""

    environment_id: int
    environment: str
    wait_timer: int
    current_user_can_approve: bool
    reviewers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dispatched:
    """What one dispatch made.

    ``run_id`` and the URLs are GitHub's own answer when it gave run details (200). After an older
    204 answer they are the run found by looking (event ``workflow_dispatch``, ref, actor, created
    since the dispatch); ``candidates`` then lists every run that fits, and ``note`` says how the run
    was found, or why it is not known (none yet, or several: ambiguous).
    """

    workflow: str
    ref: str
    run_id: int | None
    run_url: str = ""
    html_url: str = ""
    candidates: tuple[int, ...] = ()
    note: str = ""

    @property
    def known(self) -> bool:
        """The run this dispatch made is known for certain."""
        return self.run_id is not None


@dataclass(frozen=True)
class RunWatch:
    """A run as ``gh run watch`` shows it: the run, its jobs and steps, the tail of each failed job's
    log, and the approvals it waits for."""

    repository: str
    run: WorkflowRun
    jobs: tuple[RunJob, ...]
    logs: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (job id, tail) for each failed job
    pending: tuple[PendingDeployment, ...] = ()
    problems: tuple[str, ...] = ()  # what could not be read (a log, the approvals), said, not hidden

    @property
    def finished(self) -> bool:
        return self.run.status == FINISHED

    def log_of(self, job_id: int) -> tuple[str, ...]:
        return dict(self.logs).get(job_id, ())


@dataclass(frozen=True)
class RunTarget:
    """A run of a release workflow to act on; ``environments``: the pending deployments' (id, name);
    ``comment``: the reviewer's comment for an approval or a rejection."""

    repository: str
    run_id: int
    title: str = ""
    environments: tuple[tuple[int, str], ...] = ()
    comment: str = ""

    @property
    def html_url(self) -> str:
        return f"https://github.com/{self.repository}/actions/runs/{self.run_id}"
