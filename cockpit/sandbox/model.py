"""The sandbox world as plain data: what the fictional GitHub, wheel index and PyPI hold.

The world builder (``world.py``) produces a ``World``; the emulators (``github_server.py``,
``index_server.py``) render it in the real wire formats. Times are ISO 8601 UTC strings
("2026-10-01T12:00:00Z"); SHAs are 40-hex strings from the generated git repository.
Everything here round-trips through ``dataclasses.asdict`` + JSON so a built world can be cached.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SbMilestone:
    number: int
    title: str
    state: str = "open"  # open / closed
    description: str = ""
    due_on: str | None = None


@dataclass
class SbIssue:
    """An issue. Pull requests are ``SbPull``; both share one number space per repository."""

    number: int
    title: str
    author: str
    state: str = "open"  # open / closed
    body: str = ""
    labels: list[str] = field(default_factory=list)
    assignees: list[str] = field(default_factory=list)
    milestone: int | None = None
    created_at: str = ""
    updated_at: str = ""
    closed_at: str | None = None
    state_reason: str | None = None  # completed / not_planned


@dataclass
class SbPull:
    number: int
    title: str
    author: str
    base: str  # "main" or "release/X.Y"
    head_ref: str
    state: str = "open"  # open / closed
    merged: bool = False
    body: str = ""
    labels: list[str] = field(default_factory=list)
    assignees: list[str] = field(default_factory=list)
    milestone: int | None = None
    created_at: str = ""
    updated_at: str = ""
    closed_at: str | None = None
    merged_at: str | None = None
    merge_commit_sha: str | None = None
    head_sha: str = ""
    mergeable: bool | None = None  # GitHub's answer once it has computed it; None while it has not
    mergeable_state: str = "unknown"  # clean / dirty / blocked / unstable / unknown


@dataclass
class SbComment:
    id: int
    issue_number: int
    author: str
    body: str
    created_at: str = ""
    updated_at: str = ""
    association: str = "MEMBER"  # GitHub's author_association: MEMBER, NONE (a passer-by), ...


@dataclass
class SbReview:
    """A review of pull request ``pull``; ``state`` APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED."""

    id: int
    pull: int
    author: str
    state: str
    commit_id: str
    submitted_at: str = ""
    body: str = ""


@dataclass
class SbWorkflowRun:
    id: int
    name: str  # workflow name: pull, trunk, lint, binary-builds
    head_sha: str
    head_branch: str
    event: str = "push"
    status: str = "completed"
    conclusion: str | None = "success"
    check_suite_id: int = 0
    created_at: str = ""
    run_attempt: int = 1
    path: str = ""  # the workflow file; "" means .github/workflows/<name>.yml
    display_title: str = ""  # "" means the head commit's subject, as for a push


@dataclass
class SbCheckRun:
    """A job. ``run_id`` is the workflow run it belongs to (its check suite is the run's)."""

    id: int
    name: str  # e.g. "linux-jammy-py3.11 / test (default, 1, 3, linux.2xlarge)"
    head_sha: str
    run_id: int
    status: str = "completed"
    conclusion: str | None = "success"
    started_at: str = ""
    completed_at: str | None = None


@dataclass
class SbRepo:
    full_name: str  # owner/name
    default_branch: str = "main"
    milestones: list[SbMilestone] = field(default_factory=list)
    issues: list[SbIssue] = field(default_factory=list)
    pulls: list[SbPull] = field(default_factory=list)
    comments: list[SbComment] = field(default_factory=list)
    branches: dict[str, str] = field(default_factory=dict)  # name -> head sha
    tags: dict[str, str] = field(default_factory=dict)  # name -> commit sha
    branch_history: dict[str, list[str]] = field(default_factory=dict)  # branch -> shas newest first (bounded)
    workflow_runs: list[SbWorkflowRun] = field(default_factory=list)
    check_runs: list[SbCheckRun] = field(default_factory=list)
    reviews: list[SbReview] = field(default_factory=list)
    required_checks: dict[str, list[str]] = field(default_factory=dict)  # protected branch -> required check names
    files: dict[str, dict[str, str]] = field(default_factory=dict)  # ref -> path -> text (the contents API)


@dataclass
class SbWheel:
    """A file of the wheel index. ``channel`` is "test" (RC) or "stable"; ``variant`` e.g. "cu130" or ""."""

    channel: str
    package: str
    filename: str
    size: int
    sha256: str
    variant: str = ""
    yanked: str | None = None  # PEP 592: None when not yanked, else the reason ("" when none is given)
    metadata_version: str = ""  # the Version its METADATA states, when it is not the filename's (a bad build)


@dataclass
class SbPyPIRelease:
    package: str
    version: str
    filenames: list[str] = field(default_factory=list)
    upload_time: str = ""


@dataclass
class World:
    """Everything the sandbox serves, plus the paths of the git repositories it wrote."""

    seed: int
    version: str  # the release being run, e.g. "2.5.0"
    repository: str  # the core repository, owner/name
    release_branch: str
    milestone_number: int
    tracker_issue: int
    repos: dict[str, SbRepo] = field(default_factory=dict)
    wheels: list[SbWheel] = field(default_factory=list)
    pypi: list[SbPyPIRelease] = field(default_factory=list)
    clone_path: str = ""  # the working clone the cockpit reads
    remote_path: str = ""  # its bare "origin"
    ci_repositories: dict[str, str] = field(default_factory=dict)  # owner/name -> intended verdict
    packages: list[str] = field(default_factory=list)
    platforms: list[str] = field(default_factory=list)  # the plain index's platforms (none: variants only)
    variants: dict[str, list[str]] = field(default_factory=dict)  # accelerator sub-index -> its platforms
    python_tags: list[str] = field(default_factory=list)
    truth: dict = field(default_factory=dict)  # what the builder planted, for the tests (see world.py)
    all_green: bool = False  # built with every blocking gate green (see world.build_world)
    schedule: dict = field(default_factory=dict)  # a patch release's [schedule] for the config (world_patch)
    clock: str = ""  # a patch world's "now" (ISO); "" for the wall clock
    evidence_config: dict = field(default_factory=dict)  # the [evidence] table for the config (world_evidence)
    libraries: list[dict] = field(default_factory=list)  # the domain libraries released with the core (world_libraries)
    release_day: dict = field(default_factory=dict)  # release workflows and their runs (world_release_day)
