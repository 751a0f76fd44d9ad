"""The pane table: every pane of the cockpit declared once, with its key digit, its title and how
its class is found (each pane module is imported when first needed: a pane module costs the first
paint). The tabs, the number keys, the help, the palette and the mounting all read this table.

Each pane's id, title and key digit are declared once, in ``cockpit.domain.panes`` (the headless
report reads them there too); this table adds how the UI finds each pane's class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from textual.binding import Binding

from cockpit.domain.panes import PANES as PANE_FACTS
from cockpit.domain.panes import pane_facts

if TYPE_CHECKING:
    from cockpit.ui.panes.base import Pane

PaneFactory = Callable[[], "type[Pane]"]
"""Gives a pane's class, importing its module on first call."""

PANE_KEYS: dict[str, str] = {facts.id: facts.key for facts in PANE_FACTS}
"""The key that shows each pane (its digit, written first in its tab title), from ``domain/panes.py``."""


class PaneSpec(NamedTuple):
    """One row of the pane table: the pane's name, its tab title ("<key> <label>") and its class's factory."""

    name: str
    title: str
    factory: PaneFactory

    @property
    def key(self) -> str:
        """The key that shows the pane."""
        return PANE_KEYS[self.name]

    @property
    def label(self) -> str:
        """The title without its key: "Cherry-picks"."""
        return self.title.split(" ", 1)[1]

    def binding(self) -> Binding:
        """The number key that shows the pane (shown in the help and the palette, not the key line)."""
        return Binding(
            self.key,
            f"show_pane('{self.name}')",
            self.label,
            show=False,
            id=f"app.pane.{self.name}",
            tooltip=f"Show the {self.label} pane",
        )


def _spec(name: str, factory: PaneFactory) -> PaneSpec:
    return PaneSpec(name, pane_facts(name).tab_title, factory)


def _overview() -> type[Pane]:
    from cockpit.ui.panes.overview import OverviewPane

    return OverviewPane


def _milestone() -> type[Pane]:
    from cockpit.ui.panes.milestone import MilestonePane

    return MilestonePane


def _picks() -> type[Pane]:
    from cockpit.ui.panes.picks import PicksPane

    return PicksPane


def _ci() -> type[Pane]:
    from cockpit.ui.panes.ci import CIPane

    return CIPane


def _branch() -> type[Pane]:
    from cockpit.ui.panes.branch_diff import BranchDiffPane

    return BranchDiffPane


def _checklist() -> type[Pane]:
    from cockpit.ui.panes.checklist import ChecklistPane

    return ChecklistPane


def _triage() -> type[Pane]:
    from cockpit.ui.panes.triage import TriagePane

    return TriagePane


PANES: tuple[PaneSpec, ...] = (
    _spec("overview", _overview),
    _spec("milestone", _milestone),
    _spec("picks", _picks),
    _spec("ci", _ci),
    _spec("branch", _branch),
    _spec("checklist", _checklist),
)
"""The panes of every release, in the order of their tabs."""
PATCH_PANES: tuple[PaneSpec, ...] = (_spec("triage", _triage),)
"""The panes a patch release adds (its version's patch number is not zero)."""
DERIVED_FROM: dict[str, tuple[str, ...]] = {"milestone": ("branch",)}
"""Panes whose report is computed from another pane's data (the picks read PRs one by one instead)."""


def pane_class(name: str) -> type[Pane]:
    """The class of pane ``name``, importing its module on first use."""
    return next(spec.factory for spec in (*PANES, *PATCH_PANES) if spec.name == name)()


def panes_for(version: str) -> tuple[PaneSpec, ...]:
    """The panes of a release: a patch release ("2.5.1") also has the triage pane."""
    patch = version.split(".")[2:3]
    return PANES + PATCH_PANES if patch and patch[0].isdigit() and int(patch[0]) else PANES
