"""The composition root: the only place that builds adapters, for the app and the CLI alike.

``build_backend`` gives the UI (and ``cockpit report``/``check``) a ``Backend``; ``github_client``
and ``git_repo`` give the other CLI commands the one adapter they need, configured the same way.
"""

from __future__ import annotations

import getpass
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.config import Config
from cockpit.errors import CockpitError, GitError
from cockpit.lazy import Lazy

if TYPE_CHECKING:  # imported by the loads and actions, after the first paint
    from cockpit.actions.registry import ActionRegistry
    from cockpit.adapters.git import GitRepo
    from cockpit.adapters.github import GitHubClient
    from cockpit.config import GitHubConfig
    from cockpit.config.repos import RepoConfig
    from cockpit.domain.checklist import ChecklistStep
    from cockpit.domain.evidence import EvidenceReport
    from cockpit.domain.gates import Gate
    from cockpit.domain.reports import (
        BranchReport,
        ChecklistReport,
        CIReport,
        GoNoGo,
        MilestoneReport,
        PicksReport,
        StorageGateReport,
    )
    from cockpit.domain.repos import RepoReport
    from cockpit.domain.triage import TriageReport
    from cockpit.loaders.repos import RepoPorts
    from cockpit.loaders.shared import Shared, SharedResults
    from cockpit.ports import GitHubPort, GitPort, PyPIPort, StepRunnerPort, WheelIndexPort
    from cockpit.state.store import StateStore


EVIDENCE_REUSE_S = 30.0
"""The checklist is re-evaluated whenever a pane reports: its evidence is read again at most this often."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def _shared_results() -> SharedResults:
    from cockpit.loaders.shared import SharedResults

    return SharedResults()


def _shared_gates() -> Shared[dict[str, Gate]]:
    from cockpit.loaders.shared import Shared

    return Shared()


class CockpitBackend:
    """The real ``Backend`` (``cockpit/backend.py``) and the loaders' and actions' ``Ports``
    (``cockpit/ports.py``): adapters in, reports out.

    Each adapter is held in a ``Lazy`` and built when first read, in the thread reading it (a pane's
    load, usually). Each ``load_*`` delegates to its module in ``cockpit/loaders/``. Loads run in
    worker threads, possibly several at once; what one pane reuses from another (the milestone
    items, the branch diff, the PyPI gate) is in ``shared``, typed, each under its own lock.
    """

    def __init__(
        self,
        config: Config,
        *,
        read_only: bool,
        github: Lazy[GitHubPort],
        git: Lazy[GitPort],
        wheel_index: Lazy[WheelIndexPort] | None,
        pypi: Lazy[PyPIPort] | None,
        step_runner: Lazy[StepRunnerPort],
        state: StateStore,
        who: str | Callable[[], str],
        clock: Callable[[], datetime] = utc_now,
        library_git: Callable[[RepoConfig], GitPort] | None = None,
    ) -> None:
        self.config = config
        self.read_only = read_only
        self.state = state
        self.clock = clock
        self._github = github
        self._git = git
        self._wheel_index = wheel_index
        self._pypi = pypi
        self._step_runner = step_runner
        self._shared = Lazy(_shared_results)
        self._promotion: Lazy[Shared[dict[str, Gate]]] = Lazy(_shared_gates)
        self._promotion_acted = 0
        self._who = who
        self._actions: ActionRegistry | None = None
        self._actions_lock = threading.Lock()
        self._library_git = library_git
        self._libraries: tuple[RepoPorts, ...] | None = None
        self._libraries_lock = threading.Lock()

    @property
    def github(self) -> GitHubPort:
        return self._github.get()

    @property
    def git(self) -> GitPort:
        return self._git.get()

    @property
    def wheel_index(self) -> WheelIndexPort | None:
        return self._wheel_index.get() if self._wheel_index is not None else None

    @property
    def pypi(self) -> PyPIPort | None:
        return self._pypi.get() if self._pypi is not None else None

    @property
    def step_runner(self) -> StepRunnerPort:
        return self._step_runner.get()

    @property
    def shared(self) -> SharedResults:
        return self._shared.get()

    @property
    def actions(self) -> ActionRegistry:
        """Every action, registered on first use (their modules are not needed for the first screen)."""
        with self._actions_lock:
            if self._actions is None:
                from cockpit.actions.catalog import register_actions
                from cockpit.actions.registry import ActionRegistry

                registry = ActionRegistry(self.state, read_only=self.read_only, who=lambda: self.who, clock=self.clock)
                register_actions(registry, self)
                self._actions = registry
            return self._actions

    @property
    def who(self) -> str:
        """Who signs and acts: git ``user.name`` of the clone, else the login name (asked once)."""
        if callable(self._who):
            self._who = self._who()
        return self._who

    @property
    def repository(self) -> str:
        return self.config.release.repository

    def load_milestone(self) -> MilestoneReport:
        from cockpit.loaders.milestone import load_milestone

        return load_milestone(self)

    def load_branch_diff(self) -> BranchReport:
        from cockpit.loaders.branch import load_branch_diff

        return load_branch_diff(self)

    def load_picks(self) -> PicksReport:
        from cockpit.loaders.picks import load_picks

        return load_picks(self)

    def load_ci(self) -> CIReport:
        from cockpit.loaders.ci import load_ci

        return load_ci(self)

    def load_triage(self) -> TriageReport:
        from cockpit.loaders.triage import load_triage

        return load_triage(self)

    def load_storage(self) -> StorageGateReport:
        from cockpit.loaders.storage import load_storage

        return load_storage(self)

    def libraries(self) -> tuple[RepoPorts, ...]:
        """The ports of each domain library of ``[[repo]]``, kept for the session so that their
        shared results (milestone list, branch diff) serve every later load."""
        with self._libraries_lock:
            if self._libraries is None:
                from cockpit.loaders.repos import RepoPorts

                opener = self._library_git or (lambda repo: library_clone(self.config, repo, read_only=True))
                self._libraries = tuple(RepoPorts(self, repo, partial(opener, repo)) for repo in self.config.repos)
            return self._libraries

    def load_repositories(self, ci: CIReport | None = None) -> tuple[RepoReport, ...]:
        """Each domain library's gates and reports (none for a single-repository release); ``ci``: the
        release's CI report, whose verdicts of a library's repository make its CI gate."""
        from cockpit.loaders.repos import load_repos

        return load_repos(self.libraries(), ci)

    def checklist_steps(self) -> Sequence[ChecklistStep]:
        """The template's steps that apply to this release (the patch phases only to a patch release)."""
        from cockpit.services.checklist import load_template, steps_for_release
        from cockpit.services.evidence_steps import evidence_steps
        from cockpit.services.schedule import release_is_patch

        steps = load_template(self.config.checklist_template)
        steps = evidence_steps(steps, self.config.evidence.configured)
        return steps_for_release(steps, patch=release_is_patch(self.config.release))

    def load_checklist(self, gates: dict[str, Gate]) -> ChecklistReport:
        """The checklist joined with ``gates``, the evidence steps' gates (read in this worker, reused for
        ``EVIDENCE_REUSE_S``), the promotion gates and, for a patch release with a ``[schedule]``, its phase gates
        as of the clock; the team's sign-offs from the status comment (as the last read of the tracker found it)
        show beside this session's own, and what that read found wrong in the comment."""
        from dataclasses import replace

        from cockpit.services.checklist import checklist_report
        from cockpit.services.status_read import with_team_signoffs

        evidence = {g.name: g for g in self.load_evidence().gates}
        live = {**gates, **evidence, **self.promotion_gates()}
        team = self.shared.team_status
        signoffs = with_team_signoffs(self.state.signoffs(), team)  # the team's, from the tracker
        report = checklist_report(self.checklist_steps(), signoffs, {**live, **self.phase_gates(live)})
        return replace(report, team_problems=team.problems) if team is not None and team.problems else report

    def promotion_gates(self) -> dict[str, Gate]:
        """The gates of the steps after the final RC (RC tag builds, final tag, staging, promotion).

        The checklist reloads each time a pane's gate changes: this evidence is read again only once the
        refresh interval (``[github] refresh_interval``) has passed, or at once after a checklist action.
        """
        from cockpit.loaders.promotion import promotion_gates

        # a checklist action just run (the RC tag pushed) is seen at once; other panes' actions change none of it
        acted = sum(entry.action.startswith("checklist.") for entry in self.state.audit_log())
        with self._actions_lock:
            if acted != self._promotion_acted:
                self._promotion, self._promotion_acted = Lazy(_shared_gates), acted
            shared = self._promotion
        return shared.get().get(lambda: promotion_gates(self), reuse_within=self.config.github.refresh_s)

    def load_evidence(self) -> EvidenceReport:
        """The evidence steps' gates; nothing is read when no ``[evidence]`` step is configured."""
        from cockpit.domain.evidence import EvidenceReport
        from cockpit.loaders.evidence import load_evidence

        if not self.config.evidence.configured:
            return EvidenceReport(())
        return self.shared.evidence.get(lambda: load_evidence(self), reuse_within=EVIDENCE_REUSE_S)

    def phase_gates(self, gates: dict[str, Gate]) -> dict[str, Gate]:
        """Each patch phase's gate from the schedule and today; none unless this is a patch release with a schedule."""
        from cockpit.services.phase_gates import phase_gates
        from cockpit.services.schedule import release_is_patch

        schedule = self.config.schedule
        if schedule is None or not release_is_patch(self.config.release):
            return {}
        return phase_gates(schedule, self.clock(), gates)

    def go_no_go(self, gates: dict[str, Gate], checklist: ChecklistReport) -> GoNoGo:
        from cockpit.services.overview import BLOCKING, go_no_go

        if not self.config.repos:
            return go_no_go(gates, checklist)
        from cockpit.domain.repos import library_gates

        libraries = tuple(
            gate
            for repo in self.config.repos
            for gate in library_gates(repo.name, packages=bool(repo.packages), core_pins=bool(repo.core_pins))
        )
        return go_no_go(gates, checklist, BLOCKING + libraries)

    def rate_limit_text(self) -> str:
        if not self._github.built:
            return "GitHub · not contacted yet"
        github = self._github.get()
        limit, count = github.rate_limit, github.request_count
        if limit is None:
            return f"GitHub · {count} requests"
        return f"GitHub {limit.remaining:,}/{limit.limit:,} · {count} requests"


def current_user(git: Lazy[GitPort] | None = None) -> str:
    """git ``user.name`` of the clone, else the login name: who signs a checklist step."""
    if git is not None:
        try:
            name = git.get().current_user()
            if name:
                return name
        except CockpitError:
            pass
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def build_backend(
    config: Config,
    *,
    read_only: bool = False,
    token: str | None = None,
    clock: Callable[[], datetime] = utc_now,
    take_over: bool = False,
) -> CockpitBackend:
    """The backend for ``config``, each adapter built when first used (see ``Lazy``).

    ``token`` None means: resolve it as configured, when GitHub is first contacted.

    The state file is opened first: when it cannot be written (held by another session, corrupt,
    newer schema) the whole session is read-only, adapters included. ``take_over`` takes the lock of
    a session the release manager confirmed is gone (see ``StateLock.acquire``).
    """
    from cockpit.state.store import StateStore

    _check_clone(config)
    state = StateStore(config.resolved_state_path, read_only=read_only, take_over=take_over and not read_only)
    read_only = read_only or state.read_only
    gh, st = config.github, config.storage
    clone = config.git.clone

    def github() -> GitHubPort:
        return github_client(gh, read_only=read_only, token=token)

    def git() -> GitPort:
        return git_repo(clone, read_only=read_only)

    def wheel_index(url: str) -> Callable[[], WheelIndexPort]:
        def build() -> WheelIndexPort:
            from cockpit.adapters.storage import WheelIndex

            return WheelIndex(url, timeout=gh.timeout_s)

        return build

    def pypi(url: str) -> Callable[[], PyPIPort]:
        def build() -> PyPIPort:
            from cockpit.adapters.storage import PyPIClient

            return PyPIClient(url, timeout=gh.timeout_s)

        return build

    def step_runner() -> StepRunnerPort:
        from cockpit.adapters.shell import StepCommandRunner

        return StepCommandRunner(clone, read_only=read_only)

    repo = Lazy(git)
    return CockpitBackend(
        config,
        read_only=read_only,
        github=Lazy(github),
        git=repo,
        wheel_index=Lazy(wheel_index(st.index_url)) if st.index_url else None,
        pypi=Lazy(pypi(st.pypi_url)) if st.pypi_url else None,
        step_runner=Lazy(step_runner),
        state=state,
        who=lambda: current_user(repo),
        clock=clock,
        library_git=lambda library: library_clone(config, library, read_only=read_only),
    )


def github_client(gh: GitHubConfig, *, read_only: bool, token: str | None = None) -> GitHubClient:
    """The one way to build a GitHub client, for the app and every CLI command alike.

    ``token`` None resolves it as configured (``[github] auth``: environment, keyring, ``gh``), at this
    call; ``auth = "none"`` sends no token. Retries, timeouts and the rate-limit wait come from config.
    """
    from cockpit.adapters.credentials import resolve_token
    from cockpit.adapters.github import GitHubClient

    if token is None and gh.auth != "none":
        token = resolve_token(gh.api_url).token
    return GitHubClient(
        gh.api_url,
        token,
        timeout=gh.timeout_s,
        retries=gh.retries,
        max_rate_limit_wait=gh.max_rate_limit_wait_s,
        read_only=read_only,
    )


def git_repo(clone: Path, *, read_only: bool) -> GitRepo:
    """The one way to open a local clone, for the app and every CLI command alike (``read_only``:
    every git command that would write is refused)."""
    from cockpit.adapters.git import GitRepo

    return GitRepo(clone, read_only=read_only)


def _check_clone(config: Config) -> None:
    """Fail at start, in one line, when the clone cannot be a git repository (cheap: no git run)."""
    clone, where = config.git.clone, f"{config.path}: key 'git.clone'"
    expected = f"expected a local clone of {config.release.repository}"
    if not clone.is_dir():
        raise GitError(f"{where}: {clone} is not a folder: {expected}")
    if not (clone / ".git").exists() and not (clone / "HEAD").is_file():
        raise GitError(f"{where}: {clone} is not a git repository: {expected}")


def library_clone(config: Config, repo: RepoConfig, *, read_only: bool) -> GitRepo:
    """A domain library's clone; a GitError naming its ``[[repo]]`` key when it is not a git repository."""
    index = [r.name for r in config.repos].index(repo.name)
    where = f"{config.path}: key 'repo[{index}] ({repo.name}).clone'"
    expected = f"expected a local clone of {repo.repository}"
    if not repo.clone.is_dir():
        raise GitError(f"{where}: {repo.clone} is not a folder: {expected}")
    if not (repo.clone / ".git").exists() and not (repo.clone / "HEAD").is_file():
        raise GitError(f"{where}: {repo.clone} is not a git repository: {expected}")
    return git_repo(repo.clone, read_only=read_only)
