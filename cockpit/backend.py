"""The one interface the UI and the CLI talk to: loaders that return reports, and the actions.

``cockpit.bootstrap.build_backend`` (the composition root) builds the real one from a config;
tests build fakes that satisfy the same protocol. Every ``load_*`` blocks (git, network): the UI
calls them from worker threads only. Each raises ``CockpitError`` subclasses, never library errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cockpit.actions.registry import ActionRegistry
    from cockpit.config import Config
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
    from cockpit.state.store import StateStore


class Backend(Protocol):
    config: "Config"
    read_only: bool
    state: "StateStore"
    actions: "ActionRegistry"

    def load_milestone(self) -> "MilestoneReport": ...

    def load_picks(self) -> "PicksReport": ...

    def load_ci(self) -> "CIReport": ...

    def load_branch_diff(self) -> "BranchReport": ...

    def load_storage(self) -> "StorageGateReport": ...

    def load_checklist(self, gates: "dict[str, Gate]") -> "ChecklistReport":
        """Checklist steps joined with sign-offs (from state) and the given live gates by name."""
        ...

    def go_no_go(self, gates: "dict[str, Gate]", checklist: "ChecklistReport") -> "GoNoGo": ...

    def rate_limit_text(self) -> str:
        """e.g. "GitHub 4,873/5,000 · 41 requests" (never blocks)."""
        ...
