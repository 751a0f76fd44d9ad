"""The composition root: builds the real adapters from a config and hands the UI/CLI a Backend."""

from __future__ import annotations

import getpass
import threading
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable

from cockpit.config import Config
from cockpit.errors import CockpitError, GitError

if TYPE_CHECKING:  # imported by the loads and actions, after the first paint
    from cockpit.adapters.github import GitHubClient
    from cockpit.config import GitHubConfig
    from cockpit.actions.registry import ActionRegistry
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


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class CockpitBackend:
    """The real Backend (see ``cockpit/backend.py``): adapters in, reports out.

    Each ``load_*`` delegates to its module in ``cockpit/loaders/``. Loads run in worker threads,
    possibly several at once; the few results one pane reuses from another (the milestone items,
    the branch report) go through ``remember``/``cached`` under a lock.
    """

    def __init__(self, config: Config, *, read_only: bool, github: Any, git_repo: Any, wheel_index: Any,
                 pypi: Any, state: Any, who: str | Callable[[], str],
                 clock: Callable[[], datetime] = utc_now) -> None:
        """Adapters may be given built, or as ``Deferred`` so that none is built before it is needed."""
        self.config = config
        self.read_only = read_only
        self.github = github
        self.git = git_repo
        self.wheel_index = wheel_index
        self.pypi = pypi
        self.state = state
        self.clock = clock
        self._who = who
        self._lock = threading.Lock()
        self._cache: dict[str, Any] = {}
        self._actions: Any = None
        self._actions_lock = threading.RLock()

    @property
    def actions(self) -> "ActionRegistry":
        """Every action, registered on first use (their modules are not needed for the first screen)."""
        with self._actions_lock:  # reentrant: registering reads ``backend.actions`` again
            if self._actions is None:
                from cockpit.actions.catalog import register_actions
                from cockpit.actions.registry import ActionRegistry

                self._actions = ActionRegistry(self.state, read_only=self.read_only, who=lambda: self.who,
                                               clock=self.clock)
                register_actions(self)
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

    def remember(self, **values: Any) -> None:
        with self._lock:
            self._cache.update(values)

    def cached(self, key: str) -> Any:
        with self._lock:
            return self._cache.get(key)

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

    def load_storage(self) -> StorageGateReport:
        from cockpit.loaders.storage import load_storage

        return load_storage(self)

    def checklist_steps(self):
        from cockpit.services.checklist import load_template

        return load_template(self.config.checklist_template)

    def load_checklist(self, gates: dict[str, Gate]) -> ChecklistReport:
        from cockpit.services.checklist import checklist_report

        return checklist_report(self.checklist_steps(), self.state.signoffs(), gates)

    def go_no_go(self, gates: dict[str, Gate], checklist: ChecklistReport) -> GoNoGo:
        from cockpit.services.overview import go_no_go

        return go_no_go(gates, checklist)

    def rate_limit_text(self) -> str:
        if isinstance(self.github, Deferred) and not self.github.built:
            return "GitHub · not contacted yet"
        limit = self.github.rate_limit
        count = self.github.request_count
        if limit is None:
            return f"GitHub · {count} requests"
        return f"GitHub {limit.remaining:,}/{limit.limit:,} · {count} requests"


class Deferred:
    """An adapter built on first use, in whichever thread uses it first.

    Building the GitHub client imports PyGithub, the git adapter GitPython, the storage adapters
    httpx with its TLS context: together most of a second. Deferred, that cost lands in the pane
    loads' worker threads instead of before the first screen.
    """

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._value: Any = None
        self._lock = threading.Lock()
        self.built = False

    def get(self) -> Any:
        if not self.built:
            with self._lock:
                if not self.built:
                    self._value = self._factory()
                    self.built = True
        return self._value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


def current_user(git_repo: Any = None) -> str:
    """git ``user.name``, else the login name: who signs a checklist step."""
    if git_repo is not None:
        try:
            name = git_repo.current_user()
            if name:
                return name
        except CockpitError:
            pass
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def build_backend(config: Config, *, read_only: bool = False, token: str | None = None,
                  clock: Callable[[], datetime] = utc_now, take_over: bool = False) -> CockpitBackend:
    """The backend for ``config``, its adapters deferred until first used (see ``Deferred``).

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

    def github() -> Any:
        return github_client(gh, read_only=read_only, token=token)

    def git_repo() -> Any:
        from cockpit.adapters.git import GitRepo

        return GitRepo(config.git.clone, read_only=read_only)

    def wheel_index() -> Any:
        from cockpit.adapters.storage import WheelIndex

        return WheelIndex(st.index_url, timeout=gh.timeout_s)

    def pypi() -> Any:
        from cockpit.adapters.storage import PyPIClient

        return PyPIClient(st.pypi_url, timeout=gh.timeout_s)

    repo = Deferred(git_repo)
    return CockpitBackend(config, read_only=read_only, github=Deferred(github), git_repo=repo,
                          wheel_index=Deferred(wheel_index) if st.index_url else None,
                          pypi=Deferred(pypi) if st.pypi_url else None, state=state,
                          who=lambda: current_user(repo), clock=clock)


def github_client(gh: "GitHubConfig", *, read_only: bool, token: str | None = None) -> "GitHubClient":
    """The one way to build a GitHub client, for the app and every CLI command alike.

    ``token`` None resolves it as configured (``[github] auth``: environment, keyring, ``gh``), at this
    call; ``auth = "none"`` sends no token. Retries, timeouts and the rate-limit wait come from config.
    """
    from cockpit.adapters.credentials import resolve_token
    from cockpit.adapters.github import GitHubClient

    if token is None and gh.auth != "none":
        token = resolve_token(gh.api_url).token
    return GitHubClient(gh.api_url, token, timeout=gh.timeout_s, retries=gh.retries,
                        max_rate_limit_wait=gh.max_rate_limit_wait_s, read_only=read_only)


def _check_clone(config: Config) -> None:
    """Fail at start, in one line, when the clone cannot be a git repository (cheap: no git run)."""
    clone = config.git.clone
    if not clone.is_dir():
        raise GitError(f"{config.path}: key 'git.clone': {clone} is not a folder: expected a local clone of {config.release.repository}")
    if not (clone / ".git").exists() and not (clone / "HEAD").is_file():
        raise GitError(f"{config.path}: key 'git.clone': {clone} is not a git repository: expected a local clone of {config.release.repository}")
