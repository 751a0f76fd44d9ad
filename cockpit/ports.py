"""The typed seams between the layers: what loaders and actions need from the outside world.

Each port lists only the methods the cockpit calls, with the adapter's signature; the real
adapters (``cockpit.adapters``) satisfy them structurally, and so do the fakes in the tests. Every
method raises the project's own ``CockpitError`` subclasses, never a library's error. Nothing here
is imported at run time by the first screen: the domain types are named for the type checker only.

``Ports`` is what one loader or action is given: the config, these adapters (built on first use),
the session state, the clock and the results the panes share. ``cockpit.bootstrap`` (the
composition root) is the only place that builds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cockpit.domain.artifacts import PLAIN
from cockpit.release_ports import ReleaseWorkflowsPort

if TYPE_CHECKING:
    from cockpit.config import Config
    from cockpit.domain.artifacts import IndexFile
    from cockpit.domain.checklist import ChecklistStep, Dispatch, Signoff
    from cockpit.domain.ci import CheckRun, WorkflowRun
    from cockpit.domain.commits import CommitRecord
    from cockpit.domain.evidence import RepoFile
    from cockpit.domain.github import IssueComment, Milestone, MilestoneItem, PullRequest, RateLimit
    from cockpit.domain.merging import CommitStatus, Review
    from cockpit.domain.picks import ReadingConfirmation
    from cockpit.domain.staging import StagingListing
    from cockpit.loaders.shared import SharedResults
    from cockpit.services.pick_predict import PickLab
    from cockpit.state.read_only import ReadOnlyReason


class GitHubPort(Protocol):
    """The GitHub API as the loaders and actions use it (``cockpit.adapters.github.GitHubClient``)."""

    @property
    def request_count(self) -> int:
        """Requests sent by this client so far, from every thread."""
        ...

    @property
    def rate_limit(self) -> RateLimit | None:
        """The budget from the latest response's headers; None before the first response."""
        ...

    def thread_request_counts(self) -> tuple[int, int]:
        """(requests sent, of which answered 304 Not Modified) by the calling thread."""
        ...

    def milestone(self, repo: str, number_or_title: int | str) -> Milestone: ...

    def milestone_items(self, repo: str, number: int) -> list[MilestoneItem]: ...

    def issue(self, repo: str, number: int) -> MilestoneItem: ...

    def issues(
        self,
        repo: str,
        *,
        labels: str | None = None,
        state: str = "all",
        newest_first: bool = True,
        limit: int | None = None,
    ) -> list[MilestoneItem]: ...

    def issue_comments(self, repo: str, number: int) -> list[IssueComment]: ...

    def pull(self, repo: str, number: int) -> PullRequest: ...

    def pulls(self, repo: str, *, base: str | None = None, state: str = "all") -> list[PullRequest]: ...

    def check_runs(self, repo: str, ref: str) -> list[CheckRun]: ...

    def workflow_runs(
        self,
        repo: str,
        *,
        branch: str | None = None,
        head_sha: str | None = None,
        event: str | None = None,
        limit: int = 300,
    ) -> list[WorkflowRun]: ...

    def branch_commits(self, repo: str, branch: str, limit: int) -> list[str]: ...

    def search_issues(self, repo: str, query: str, *, limit: int = 300) -> list[MilestoneItem]: ...

    def workflow_file_runs(
        self, repo: str, workflow: str, *, branch: str | None = None, limit: int = 100
    ) -> list[WorkflowRun]: ...

    def run_jobs(self, repo: str, run_id: int) -> list[CheckRun]: ...

    def repo_file(self, repo: str, path: str, ref: str) -> RepoFile | None: ...

    def repository_exists(self, repo: str) -> bool: ...

    def create_comment(self, repo: str, number: int, body: str) -> IssueComment: ...

    def comment(self, repo: str, comment_id: int) -> IssueComment: ...

    def edit_comment(self, repo: str, comment_id: int, body: str) -> IssueComment: ...

    def delete_comment(self, repo: str, comment_id: int) -> None: ...

    def authenticated_user(self) -> str: ...

    def set_milestone(self, repo: str, number: int, milestone_number: int | None) -> None: ...

    def remove_label(self, repo: str, number: int, label: str) -> None: ...

    def rerun_failed_jobs(self, repo: str, run_id: int) -> None: ...

    def create_issue(self, repo: str, title: str, body: str, *, labels: tuple[str, ...] = ()) -> MilestoneItem: ...

    def edit_issue_body(self, repo: str, number: int, body: str) -> MilestoneItem: ...

    def pull_reviews(self, repo: str, number: int) -> list[Review]: ...

    def commit_statuses(self, repo: str, sha: str) -> list[CommitStatus]: ...

    def required_checks(self, repo: str, branch: str) -> tuple[str, ...] | None: ...

    def merge_pull(self, repo: str, number: int, *, sha: str, method: str) -> str: ...

    def create_pull(self, repo: str, *, title: str, body: str, head: str, base: str) -> PullRequest: ...


class GitPort(Protocol):
    """The local clone (``cockpit.adapters.git.GitRepo``): history for the services, refs, and the
    few writes the actions make (refused in a read-only session)."""

    def log(
        self,
        rev_range: str | list[str],
        *,
        grep: list[str] | None = None,
        fixed_strings: bool = False,
        extended: bool = False,
    ) -> list[CommitRecord]: ...

    def patch_ids(self, shas: Iterable[str]) -> dict[str, str]: ...

    def rev_parse(self, ref: str) -> str | None: ...

    def file_at(self, commit: str, path: str, *, limit: int = 65536) -> str | None:
        """A file's text in a commit (a domain library's core pin); None when it has no such file."""
        ...

    def merge_base(self, a: str, b: str) -> str | None: ...

    def is_ancestor(self, a: str, b: str) -> bool: ...

    def is_shallow(self) -> bool: ...

    def scratch_merges(self) -> AbstractContextManager[PickLab]:
        """In-memory cherry-picks in a temporary object directory (nothing of the clone written)."""
        ...

    def tags(self) -> dict[str, str]: ...

    def remote_tags(self, remote: str) -> dict[str, str]: ...

    def tags_containing(self, commit: str) -> list[str]: ...

    def tag_dates(self) -> dict[str, datetime]: ...

    def current_user(self) -> str: ...

    def create_branch(self, name: str, start: str) -> None: ...

    def delete_branch(self, name: str) -> None: ...

    def cherry_pick(self, shas: Sequence[str], *, branch: str) -> str: ...

    def tag(self, name: str, ref: str, message: str) -> None: ...

    def push(self, remote: str, refspec: str) -> None: ...

    def push_pick(self, commit: str, onto: str, *, remote: str, branch: str) -> str: ...


class WheelIndexPort(Protocol):
    """The PEP 503 wheel index (``cockpit.adapters.storage.WheelIndex``)."""

    def project_files(self, package: str, *, channel: str = "test", variant: str = PLAIN) -> list[IndexFile]: ...

    def with_sizes(self, files: Iterable[IndexFile]) -> list[IndexFile]: ...

    def with_metadata(self, files: Iterable[IndexFile]) -> list[IndexFile]: ...


class PyPIPort(Protocol):
    """PyPI's JSON API (``cockpit.adapters.storage.PyPIClient``)."""

    def versions(self, package: str) -> list[str]: ...

    def release_files(self, package: str, version: str) -> list[str] | None: ...


class StagingPort(Protocol):
    """The private PyPI staging prefix on S3 (``cockpit.adapters.s3_staging.S3Staging``): listing only.

    ``listing`` raises ``StorageError`` (``StagingUnreadable``, with its ``trouble``) when the prefix
    cannot be read: no boto3, no AWS credentials, access denied, no such bucket, unreachable.
    """

    def listing(self, url: str) -> StagingListing: ...


class StepRunnerPort(Protocol):
    """Runs a checklist step's programs in the clone (``cockpit.adapters.shell.StepCommandRunner``)."""

    def run(self, programs: Sequence[Sequence[str]], on_line: Callable[[str], None]) -> str:
        """Run each program in turn, each output line to ``on_line``; a one-line result."""
        ...


class SessionState(Protocol):
    """The session's state file (``cockpit.state.store.StateStore``) as the UI and the actions use it.

    Every mutator raises ``ReadOnlyError`` in a read-only session.
    """

    @property
    def path(self) -> Path: ...

    @property
    def read_only(self) -> bool: ...

    @property
    def problem(self) -> str | None:
        """Why a session that meant to write cannot (lock held, file unreadable); None when it can."""
        ...

    @property
    def why_read_only(self) -> ReadOnlyReason | None:
        """The main reason the session is read-only, with what to do; None when it writes."""
        ...

    def reload_if_changed(self) -> bool:
        """Read the file again if another session changed it; whether it had."""
        ...

    def close(self) -> None: ...

    def signoffs(self) -> dict[str, Signoff]: ...

    def set_signoff(self, step_id: str, *, done: bool, who: str, note: str = "", when: str | None = None) -> object: ...

    def sign_override(self, step_id: str, *, who: str, note: str, gate_status: str, gate_summary: str) -> object:
        """Sign an automatic step over its red or unknown gate, keeping the gate as it stood and the note."""
        ...

    def set_note(self, step_id: str, note: str) -> None: ...

    def ledger_get(self, key: str) -> int | str | None: ...

    def ledger_put(self, key: str, value: int | str) -> None: ...

    def pref(self, key: str, default: Any = None) -> Any: ...

    def triage_answers(self) -> dict[str, dict[str, bool]]: ...

    def set_triage_answer(self, key: str, question: str, value: bool | None) -> None: ...

    def pick_readings(self) -> dict[str, ReadingConfirmation]: ...

    def confirm_pick_reading(self, key: str, *, reading: str | None, who: str) -> None: ...

    def set_pref(self, key: str, value: Any) -> None: ...

    def rc_sizes(self) -> dict[str, dict[str, int]]: ...

    def record_rc_sizes(self, tag: str, sizes: dict[str, int]) -> bool: ...

    def dispatches(self) -> list[Dispatch]:
        """The dispatch journal: the workflow runs the cockpit started, with their inputs."""
        ...

    def journal_dispatch(self, workflow: str, inputs: dict[str, str], *, dry_run: bool, ref: str, by: str) -> str:
        """Write a dispatch about to be sent (before it is sent); its key."""
        ...

    def complete_dispatch(self, key: str, run_id: int) -> None: ...

    def give_up_dispatch(self, key: str, why: str) -> None: ...


class Ports(Protocol):
    """What a loader or an action is given (``cockpit.cockpit_backend.CockpitBackend`` is the real one).

    Reading an adapter builds it on first use, in the calling (worker) thread.
    """

    @property
    def config(self) -> Config: ...

    @property
    def read_only(self) -> bool: ...

    @property
    def repository(self) -> str:
        """``owner/name`` of the release's core repository."""
        ...

    @property
    def who(self) -> str:
        """Who signs and acts."""
        ...

    @property
    def clock(self) -> Callable[[], datetime]: ...

    @property
    def github(self) -> GitHubPort: ...

    @property
    def git(self) -> GitPort: ...

    @property
    def wheel_index(self) -> WheelIndexPort | None:
        """None when the config names no wheel index."""
        ...

    @property
    def pypi(self) -> PyPIPort | None:
        """None when the config names no PyPI server."""
        ...

    @property
    def staging(self) -> StagingPort | None:
        """None when the config names no S3 staging prefix (``[storage] staging_prefix``)."""
        ...

    @property
    def step_runner(self) -> StepRunnerPort: ...

    @property
    def release_workflows(self) -> ReleaseWorkflowsPort:
        """Raises ``ActionRefused`` when the session has none."""
        ...

    @property
    def state(self) -> SessionState: ...

    @property
    def shared(self) -> SharedResults:
        """The results one load leaves for the other panes and for the actions."""
        ...

    def checklist_steps(self) -> Sequence[ChecklistStep]:
        """The steps of the configured checklist template."""
        ...
