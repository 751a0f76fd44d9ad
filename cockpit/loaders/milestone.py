"""Milestone pane: the milestone and all its items, in one paged list call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.github import Milestone, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def fetch_milestone(backend: "CockpitBackend") -> tuple[Milestone, list[MilestoneItem]]:
    """The milestone (by number or title, open or closed) and its items; cached for the branch diff."""
    ref = backend.config.release.milestone
    if ref is None:
        raise ConfigError(f"{backend.config.path}: key 'release.milestone' is not set: expected a milestone number or title")
    milestone = backend.github.milestone(backend.repository, ref)
    items = backend.github.milestone_items(backend.repository, milestone.number)
    backend.remember(milestone_items=items)
    return milestone, items


def load_milestone(backend: "CockpitBackend") -> MilestoneReport:
    from cockpit.services.milestone import summarize_milestone

    milestone, items = fetch_milestone(backend)
    return summarize_milestone(milestone, items, skip_labels=backend.config.skip_labels)
