"""The domain libraries of the release, each judged on its own milestone, tracker, clone and packages.

Each library is loaded through a single-repository view of the ports (``RepoPorts``): the same
loaders as the core's panes, its own clone and its own shared results, the session's GitHub client
and wheel index. So a library's milestone list is read once for its milestone, branch-diff and
cherry-pick gates, and a cold load costs per library what the core costs, never once per pane.
Libraries load in a small thread pool (``PARALLEL``: the branch diffs are git-bound); a library
whose clone is missing gets its branch gate UNKNOWN with the reason, and the rest is still judged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING, Any

from cockpit.domain.gates import Gate, GateSpec, GateStatus
from cockpit.domain.panes import PANES
from cockpit.domain.repos import REPO_GATES, RepoReport, for_repo, of_repository, repo_gate_name, split_gate_name
from cockpit.errors import CockpitError
from cockpit.gates import gate_title, on_pane
from cockpit.lazy import Lazy

if TYPE_CHECKING:
    from cockpit.config import Config
    from cockpit.config.repos import RepoConfig
    from cockpit.domain.checklist import ChecklistStep
    from cockpit.domain.reports import CIReport, StorageGateReport
    from cockpit.loaders.shared import SharedResults
    from cockpit.ports import (
        GitHubPort,
        GitPort,
        Ports,
        PyPIPort,
        ReleaseWorkflowsPort,
        SessionState,
        StagingPort,
        StepRunnerPort,
        WheelIndexPort,
    )

PARALLEL = 2
"""Libraries loaded at once: each branch diff keeps a core busy with git."""


class RepoPorts:
    """``Ports`` for one domain library: its config view and clone, the session's other adapters.

    Read-only by construction: a library's loads record nothing in the session state (the RC sizes
    kept there are the core's), and no action runs through these ports.
    """

    def __init__(self, base: Ports, repo: RepoConfig, git: Callable[[], GitPort]) -> None:
        from cockpit.loaders.shared import SharedResults

        self.base, self.repo = base, repo
        self._config = base.config.for_repo(repo.name)
        self._git: Lazy[GitPort] = Lazy(git)
        # the build matrix (Python builds, variants) is the release's, where the core's [storage] says: one read
        self._shared = SharedResults(build_matrix=base.shared.build_matrix)

    @property
    def config(self) -> Config:
        return self._config

    @property
    def read_only(self) -> bool:
        return True

    @property
    def repository(self) -> str:
        return self.repo.repository

    @property
    def who(self) -> str:
        return self.base.who

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.base.clock

    @property
    def github(self) -> GitHubPort:
        return self.base.github

    @property
    def git(self) -> GitPort:
        return self._git.get()

    @property
    def wheel_index(self) -> WheelIndexPort | None:
        return self.base.wheel_index

    @property
    def pypi(self) -> PyPIPort | None:
        return self.base.pypi

    @property
    def staging(self) -> StagingPort | None:
        return self.base.staging

    @property
    def step_runner(self) -> StepRunnerPort:
        return self.base.step_runner

    @property
    def release_workflows(self) -> ReleaseWorkflowsPort:
        return self.base.release_workflows

    @property
    def state(self) -> SessionState:
        return self.base.state

    @property
    def shared(self) -> SharedResults:
        return self._shared

    def checklist_steps(self) -> Sequence[ChecklistStep]:
        return self.base.checklist_steps()


def _unknown(gate: str, repo: str, summary: str) -> Gate:
    return for_repo(Gate(gate, gate_title(gate), GateStatus.UNKNOWN, summary), repo)


def _answered(report: str, repo: RepoConfig) -> list[GateSpec]:
    """The gates a library answers from its pane's ``report`` (``milestone``, ``branch_diff`` ...)."""
    specs = [spec for facts in PANES if facts.report == report for spec in on_pane(facts.id)]
    return [s for s in specs if s.library and s.library(packages=bool(repo.packages), core_pins=bool(repo.core_pins))]


def _not_set(ports: RepoPorts, key: str, expected: str) -> str:
    index = [r.name for r in ports.base.config.repos].index(ports.repo.name)
    return f"not judged: key 'repo[{index}] ({ports.repo.name}).{key}' is not set: expected {expected}"


def load_repo(ports: RepoPorts, ci: CIReport | None = None) -> RepoReport:
    """One library's gates (``milestone_empty[vision]`` ...) and reports; a load that fails makes its
    gate UNKNOWN with the reason, never the others. ``ci``: the release's CI report, whose branch
    heads of this library's repository make its CI gate."""
    from cockpit.loaders.branch import load_branch_diff
    from cockpit.loaders.milestone import load_milestone
    from cockpit.loaders.picks import load_picks
    from cockpit.loaders.storage import load_storage

    repo, rel = ports.repo, ports.repo.release
    sent_before = ports.github.thread_request_counts()[0]
    reports: dict[str, Any] = {}
    errors: dict[str, str] = {}
    gates: list[Gate] = []
    panes: list[tuple[str, Callable[[RepoPorts], Any]]] = []
    if rel.milestone is None:
        reason = _not_set(ports, "milestone", "a milestone number or title")
        gates += [
            _unknown(s.name, repo.name, reason) for s in _answered("milestone", repo) + _answered("branch_diff", repo)
        ]
    else:
        panes += [("milestone", load_milestone), ("branch_diff", load_branch_diff)]
    if rel.tracker_issue is None:
        reason = _not_set(ports, "tracker_issue", "the tracker issue number")
        gates += [_unknown(s.name, repo.name, reason) for s in _answered("picks", repo)]
    else:
        panes.append(("picks", load_picks))
    if repo.packages:
        panes.append(("storage", load_storage))
    for pane, loader in panes:
        try:
            report = loader(ports)
        except CockpitError as exc:
            errors[pane] = str(exc)
            gates += [_unknown(s.name, repo.name, f"could not load: {exc}") for s in _answered(pane, repo)]
            continue
        reports[pane] = of_repository(report, repo.repository)
        gates += [for_repo(s.read(report), repo.name) for s in _answered(pane, repo) if s.read]
    if ci is not None:
        from cockpit.services.repo_gates import library_ci_gate

        gates.append(library_ci_gate(ci, repo.name, repo.repository))
    if repo.core_pins or repo.packages:
        gates.append(coherence(ports, reports.get("storage")))
    gates.sort(key=lambda g: REPO_GATES.index(split_gate_name(g.name)[0]))
    return RepoReport(
        name=repo.name,
        repository=repo.repository,
        version=rel.version,
        branch=rel.branch,
        gates=tuple(gates),
        errors=errors,
        requests=ports.github.thread_request_counts()[0] - sent_before,
        **reports,
    )


def coherence(ports: RepoPorts, storage: StorageGateReport | None) -> Gate:
    """``versions_coherent[name]``: the core version the library's release branch pins (each of its
    ``core_pins`` read from git on its clone) and its packages' versions in the RC index."""
    from cockpit.loaders.branch import release_branch
    from cockpit.services.coherence import coherence_gate, wheel_versions

    base, repo = ports.base.config, ports.repo
    core_package = base.storage.packages[0] if base.storage.packages else base.release.repository.split("/")[1]
    pins: list[tuple[str, str | None]] = []
    unread: list[str] = []
    if repo.core_pins:
        try:
            head = release_branch(ports).sha
            pins = [(path, ports.git.file_at(head, path)) for path in repo.core_pins]
        except CockpitError as exc:
            unread.append(f"the core pin on {repo.release.branch} could not be read: {exc}")
    found = wheel_versions(f.filename for f in storage.report.found) if storage is not None else {}
    wanted = {p.lower().replace("_", "-") for p in repo.packages}
    return coherence_gate(
        library=repo.name,
        core_package=core_package,
        core_version=base.release.version,
        pins=pins,
        version=repo.release.version,
        index_versions={p: v for p, v in found.items() if p in wanted},
        unread=unread,
    )


def load_repos(
    libraries: Sequence[RepoPorts], ci: CIReport | None = None, *, parallel: int = PARALLEL
) -> tuple[RepoReport, ...]:
    """Every library's report, in config order, ``parallel`` at a time."""
    if not libraries:
        return ()
    with ThreadPoolExecutor(max_workers=max(1, min(parallel, len(libraries))), thread_name_prefix="repo") as pool:
        return tuple(pool.map(lambda ports: load_repo(ports, ci), libraries))


__all__ = ["PARALLEL", "RepoPorts", "load_repo", "load_repos", "repo_gate_name"]
