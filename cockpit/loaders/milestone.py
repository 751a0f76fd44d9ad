"""Milestone pane: the milestone and all its items, in one paged list call shared with the other panes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.github import Milestone, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.ports import Ports

MILESTONE_REUSE_S = 60.0
"""A milestone list younger than this is reused by the panes derived from it (picks, branch diff)."""


def fetch_milestone(backend: Ports, *, reuse_within: float = 0.0) -> tuple[Milestone, list[MilestoneItem]]:
    """The milestone (by number or title, open or closed) and its items; shared with the other panes.

    Panes load at the same time: a caller that waited for another's fetch of the list takes its
    result (or its failure) instead of asking GitHub again, and so does one whose copy is younger
    than ``reuse_within`` seconds, unless a later read failed: then the list is stale and is read
    again (304s when nothing changed), so a pane derived from it fails and shows STALE too.
    """
    ref = backend.config.release.milestone
    if ref is None:
        raise ConfigError(
            f"{backend.config.path}: key 'release.milestone' is not set: expected a milestone number or title"
        )

    def read() -> tuple[Milestone, list[MilestoneItem]]:
        milestone = backend.github.milestone(backend.repository, ref)
        return milestone, backend.github.milestone_items(backend.repository, milestone.number)

    return backend.shared.milestone.get(read, reuse_within=reuse_within)


def load_milestone(backend: Ports) -> MilestoneReport:
    from cockpit.services.milestone import summarize_milestone

    milestone, items = fetch_milestone(backend)
    return summarize_milestone(milestone, items, skip_labels=backend.config.skip_labels)
