"""The one interface the UI and the CLI talk to: loaders that return reports, and the actions.

``cockpit.bootstrap.build_backend`` (the composition root) builds the real one from a config;
tests build fakes that satisfy the same protocol, whole. Every ``load_*`` blocks (git, network):
the UI calls them from worker threads only. Each raises ``CockpitError`` subclasses, never library
errors.

The UI imports nothing from ``cockpit.actions``: it reads an action's title and danger, asks for
its dry run and runs it through ``Backend.actions`` (``ActionCatalog`` below; the real one is
``cockpit.actions.registry.ActionRegistry``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cockpit.config import Config
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
    from cockpit.ports import SessionState
    from cockpit.services.dispatch_form import StartForm


class ActionInfo(Protocol):
    """What the UI shows of a registered action (``cockpit.actions.registry.Action``)."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def danger(self) -> str:
        """``safe``, ``mutating`` or ``irreversible``."""
        ...

    @property
    def pane(self) -> str: ...


class ActionOutcome(Protocol):
    """How running an action went: ``ok``, and a one-line message for the release manager."""

    @property
    def ok(self) -> bool: ...

    @property
    def message(self) -> str: ...


class ActionCatalog(Protocol):
    """The session's actions, and the only way the UI runs one (by id, on a target)."""

    @property
    def read_only(self) -> bool:
        """Whether every action but the safe ones is refused."""
        ...

    @property
    def read_only_reason(self) -> str:
        """ "read-only session", with why when the session meant to write (a lock held elsewhere)."""
        ...

    def all(self) -> Sequence[ActionInfo]:
        """Every registered action, in registration order."""
        ...

    def for_pane(self, pane: str) -> Sequence[ActionInfo]:
        """The actions of one pane, in registration order."""
        ...

    def dry_run(self, action_id: str, target: Any) -> str:
        """The exact command or request the action would make, without making it."""
        ...

    def refusal(self, action_id: str, target: Any) -> str | None:
        """Why the action cannot run now on ``target`` (read-only, not applicable), or None."""
        ...

    def interrupted(self) -> list[str]:
        """The actions started and never finished by an earlier session, each told once (a line each)."""
        ...

    def run(
        self,
        action_id: str,
        target: Any,
        *,
        confirmed: bool,
        typed: str | None = None,
        expected_typed: str | None = None,
    ) -> ActionOutcome:
        """Run it if allowed (confirmed; irreversible ones with the version typed back); never raises
        ``CockpitError``: a refusal or failure is an outcome that is not ``ok``."""
        ...


class Backend(Protocol):
    """The release as the UI sees it: the config, the session state, the actions, the reports."""

    @property
    def config(self) -> Config: ...

    @property
    def read_only(self) -> bool: ...

    @property
    def state(self) -> SessionState: ...

    @property
    def actions(self) -> ActionCatalog: ...

    def load_milestone(self) -> MilestoneReport: ...

    def load_picks(self) -> PicksReport: ...

    def load_ci(self) -> CIReport: ...

    def load_branch_diff(self) -> BranchReport: ...

    def load_storage(self) -> StorageGateReport: ...

    def load_repositories(self, ci: CIReport | None = None) -> tuple[RepoReport, ...]:
        """Each domain library's gates and reports; none for a single-repository release."""
        ...

    def load_triage(self) -> TriageReport:
        """A patch release's triage candidates with the answers kept in the state file."""
        ...

    def load_checklist(self, gates: dict[str, Gate]) -> ChecklistReport:
        """Checklist steps joined with sign-offs (from state) and the given live gates by name."""
        ...

    def go_no_go(self, gates: dict[str, Gate], checklist: ChecklistReport) -> GoNoGo: ...

    def workflow_start_form(self, step_id: str) -> StartForm:
        """The start form of the workflow that performs checklist step ``step_id`` (reads GitHub: a worker)."""
        ...

    def latest_workflow_run(self, step_id: str) -> tuple[str, int] | None:
        """(repository, run id) of that workflow's latest run, or None (reads GitHub: a worker)."""
        ...

    def forget_reused(self, panes: Iterable[str] | None = None) -> None:
        """Reuse nothing read before now of what ``panes`` show (None: every pane's, an explicit refresh ``r``,
        ``R``); after an action, the panes it changed."""
        ...

    def watch_run(self, repository: str, run_id: int) -> RunWatch:
        """A run with its jobs, failed jobs' log tails and pending approvals (reads GitHub: a worker)."""
        ...

    def rate_limit_text(self) -> str:
        """e.g. "GitHub 4,873/5,000 · 41 requests" (never blocks)."""
        ...
