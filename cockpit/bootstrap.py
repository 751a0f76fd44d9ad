"""The composition root: the only place that builds adapters, for the app and the CLI alike.

``build_backend`` gives the UI (and ``cockpit report``/``check``) a ``Backend`` (the real one is
``cockpit.cockpit_backend.CockpitBackend``, given its adapters here); ``github_client`` and
``git_repo`` give the other CLI commands the one adapter they need, configured the same way.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cockpit.cockpit_backend import CockpitBackend, utc_now
from cockpit.config import Config
from cockpit.errors import CockpitError, GitError
from cockpit.lazy import Lazy

if TYPE_CHECKING:  # imported by the loads and actions, after the first paint
    from cockpit.adapters.git import GitRepo
    from cockpit.adapters.github import GitHubClient
    from cockpit.adapters.github_actions import GitHubActions
    from cockpit.config import GitHubConfig
    from cockpit.config.repos import RepoConfig
    from cockpit.ports import GitHubPort, GitPort, PyPIPort, StagingPort, StepRunnerPort, WheelIndexPort


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

    def staging() -> StagingPort:
        from cockpit.adapters.s3_staging import S3Staging

        return S3Staging(endpoint_url=st.staging_endpoint_url or None)

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
        staging=Lazy(staging) if st.staging_prefix else None,
        release_workflows=Lazy(lambda: github_actions(gh, read_only=read_only, token=token)),
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


def github_actions(gh: GitHubConfig, *, read_only: bool, token: str | None = None) -> GitHubActions:
    """The one way to build the GitHub Actions client (release day's workflows), signed in as
    ``github_client`` is; ``read_only``: every request but GET/HEAD is refused before it is sent."""
    from cockpit.adapters.credentials import resolve_token
    from cockpit.adapters.github_actions import GitHubActions

    if token is None and gh.auth != "none":
        token = resolve_token(gh.api_url).token
    return GitHubActions(gh.api_url, token, read_only=read_only, timeout=gh.timeout_s)
