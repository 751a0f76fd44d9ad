"""The real backend of a session: the UI's ``Backend`` and the loaders' and actions' ``Ports``.

``CockpitBackend`` is given its adapters, each in a ``Lazy``, by the composition root
(``cockpit.bootstrap.build_backend``); it builds none itself. Each ``load_*`` delegates to its
module in ``cockpit/loaders/``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from cockpit.config import Config
from cockpit.lazy import Lazy

if TYPE_CHECKING:  # imported by the loads and actions, after the first paint
    from cockpit.actions.registry import ActionRegistry
    from cockpit.adapters.github_actions import GitHubActions
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
        RepoReport,
        StorageGateReport,
    )
    from cockpit.domain.triage import TriageReport
    from cockpit.domain.workflows import RunWatch
    from cockpit.loaders.repos import RepoPorts
    from cockpit.loaders.shared import Shared, SharedResults
    from cockpit.ports import GitHubPort, GitPort, PyPIPort, StagingPort, StepRunnerPort, WheelIndexPort
    from cockpit.services.dispatch_form import StartForm
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
        staging: Lazy[StagingPort] | None = None,
        release_workflows: Lazy[GitHubActions] | None = None,
        state: StateStore,
        who: str | Callable[[], str],
        clock: Callable[[], datetime] = utc_now,
        library_git: Callable[[RepoConfig], GitPort],
    ) -> None:
        self.config = config
        self.read_only = read_only
        self.state = state
        self.clock = clock
        self._github = github
        self._git = git
        self._wheel_index = wheel_index
        self._pypi = pypi
        self._staging = staging
        self._release_workflows = release_workflows
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
    def staging(self) -> StagingPort | None:
        return self._staging.get() if self._staging is not None else None

    @property
    def release_workflows(self) -> GitHubActions:
        """GitHub Actions as release day drives it: start, watch, re-run, cancel, approve (actions.dispatching)."""
        if self._release_workflows is None:
            from cockpit.errors import ActionRefused

            raise ActionRefused("this session has no GitHub Actions client: release workflows cannot be started here")
        return self._release_workflows.get()

    def workflow_start_form(self, step_id: str) -> StartForm:
        """The start form of the release workflow that performs checklist step ``step_id`` (reads GitHub)."""
        from cockpit.actions.release_workflows import start_form

        return start_form(self, self._workflow_step(step_id))

    def latest_workflow_run(self, step_id: str) -> tuple[str, int] | None:
        """(repository, run id) of the latest run of step ``step_id``'s workflow, or None (reads GitHub)."""
        from cockpit.actions.release_workflows import latest_run

        return latest_run(self, self._workflow_step(step_id))

    def forget_reused(self, panes: Iterable[str] | None = None) -> None:
        """Reuse nothing read before now of what ``panes`` show (every pane's when None: an explicit refresh); after
        an action the panes it changed name it (``cockpit.ui.action_effects``). What each pane shares: the milestone
        (milestone, branch diff), the branch diff, the evidence, build matrix, workflow runs and promotion gates
        (checklist)."""
        shared = self.shared
        every = {
            "milestone": (shared.milestone,),
            "branch": (shared.milestone, shared.branch_diff),
            "checklist": (shared.evidence, shared.build_matrix, shared.workflow_runs),
        }
        names = set(every) if panes is None else set(panes)
        for reused in {id(r): r for name in names for r in every.get(name, ())}.values():
            reused.forget()
        if "checklist" in names:
            with self._actions_lock:
                self._promotion = Lazy(_shared_gates)

    def watch_run(self, repository: str, run_id: int) -> RunWatch:
        """Run ``run_id`` of ``repository`` as a watch shows it (reads GitHub)."""
        from cockpit.actions.dispatching import watch

        return watch(self.release_workflows, repository, run_id)

    def _workflow_step(self, step_id: str) -> ChecklistStep:
        step = next((s for s in self.checklist_steps() if s.id == step_id), None)
        if step is None or step.workflow is None:
            from cockpit.errors import ActionRefused

            raise ActionRefused(f"no checklist step '{step_id}' is performed by a release workflow")
        return step

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

                opener = self._library_git
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
        live = {**gates, **evidence, **self.promotion_gates(), **self.workflow_gates()}
        team = self.shared.team_status
        signoffs = with_team_signoffs(self.state.signoffs(), team)  # the team's, from the tracker
        report = checklist_report(self.checklist_steps(), signoffs, {**live, **self.phase_gates(live)})
        report = replace(report, team_problems=team.problems) if team is not None and team.problems else report
        self.shared.checklist = report  # the step actions refuse a step it shows blocked
        return report

    def workflow_gates(self) -> dict[str, Gate]:
        """The gates of the steps a release workflow performs, from its runs and the dispatch journal; read
        again once the refresh interval (``[github] refresh_interval``) has passed, as the promotion gates."""
        from cockpit.loaders.workflow_steps import workflow_gates

        if self.config.evidence.release_workflows is None:
            return {}
        return self.shared.workflow_runs.get(lambda: workflow_gates(self), reuse_within=self.config.github.refresh_s)

    def promotion_gates(self) -> dict[str, Gate]:
        """The gates of the steps after the final RC (RC tag builds, final tag, staging, promotion).

        The checklist reloads each time a pane's gate changes: this evidence is read again only once the
        refresh interval (``[github] refresh_interval``) has passed, or at once after a checklist action.
        """
        from cockpit.loaders.promotion import promotion_gates

        # a checklist action just run (the RC tag pushed) or a release workflow started, re-run or approved from
        # the checklist (staging run again) is seen at once; other panes' actions change none of it
        acted = sum(entry.action.startswith(("checklist.", "workflow.")) for entry in self.state.audit_log())
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
