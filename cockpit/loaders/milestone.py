"""Milestone pane: the milestone and all its items, in one paged list call shared with the other panes."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from cockpit.domain.github import Milestone, MilestoneItem
from cockpit.domain.reports import MilestoneReport
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend

_LOCKS_GUARD = threading.Lock()


def _fetch_lock(backend: "CockpitBackend") -> threading.Lock:
    with _LOCKS_GUARD:
        lock = backend.cached("milestone_fetch_lock")
        if lock is None:
            lock = threading.Lock()
            backend.remember(milestone_fetch_lock=lock)
        return lock


def fetch_milestone(backend: "CockpitBackend", *, reuse_within: float = 0.0) -> tuple[Milestone, list[MilestoneItem]]:
    """The milestone (by number or title, open or closed) and its items; cached for the other panes.

    Panes load at the same time: a caller that waited for another's fetch of the list takes its
    result instead of asking GitHub again, and so does one whose cached copy is younger than
    ``reuse_within`` seconds. Otherwise the list is read again (304s when nothing changed).
    """
    ref = backend.config.release.milestone
    if ref is None:
        raise ConfigError(f"{backend.config.path}: key 'release.milestone' is not set: expected a milestone number or title")
    asked = time.monotonic()
    with _fetch_lock(backend):
        last = backend.cached("milestone_fetched")
        if last is not None:
            fetched_at, milestone, items = last
            if fetched_at >= asked or time.monotonic() - fetched_at <= reuse_within:
                return milestone, items
        milestone = backend.github.milestone(backend.repository, ref)
        items = backend.github.milestone_items(backend.repository, milestone.number)
        backend.remember(milestone_items=items, milestone_fetched=(time.monotonic(), milestone, items))
    return milestone, items


def load_milestone(backend: "CockpitBackend") -> MilestoneReport:
    from cockpit.services.milestone import summarize_milestone

    milestone, items = fetch_milestone(backend)
    return summarize_milestone(milestone, items, skip_labels=backend.config.skip_labels)
