"""A patch release's request rules need the labels of the issues the requests link.

Requests: one paged list of issues per qualifying label (newest first, at most ``LIST_LIMIT`` rows
each), never one request per linked issue; a linked issue older than every listed one (so a
bounded list could not reach it) is read on its own. So the cost is at most
``len(qualifying_labels) * LIST_LIMIT / 100`` pages plus the rare old issue, and nothing at all
when no request lacks a CI link or a release is not a patch release.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.domain.picks import PickRequest
    from cockpit.ports import Ports
    from cockpit.services.patch_picks import PatchRules

LIST_LIMIT = 1000


def patch_rules(backend: Ports, requests: Sequence[PickRequest], unread: list[str]) -> PatchRules | None:
    """The rules of a patch release with a ``[schedule]``; None for any other release. What could not
    be read is added to ``unread`` (the issues' labels: then only requests linking nothing are flagged)."""
    from cockpit.services.patch_picks import PatchRules, issues_to_check, not_yet_seen
    from cockpit.services.schedule import release_is_patch

    config = backend.config
    schedule = config.schedule
    if schedule is None or not release_is_patch(config.release):
        return None
    wanted = issues_to_check(requests, backend.repository)
    if not wanted:
        return PatchRules(schedule.cherry_pick_deadline, frozenset(), schedule.qualifying_labels)
    qualifying: set[int] = set()
    seen: set[int] = set()
    oldest: int | None = None
    try:
        for label in schedule.qualifying_labels:
            items = backend.github.issues(backend.repository, labels=label, state="all", limit=LIST_LIMIT)
            qualifying.update(i.number for i in items)
            seen.update(i.number for i in items)
            if len(items) >= LIST_LIMIT:
                low = min(i.number for i in items)
                oldest = low if oldest is None else max(oldest, low)
        labels = {label.casefold() for label in schedule.qualifying_labels}
        for number in sorted(not_yet_seen(wanted, seen, oldest)):
            item = backend.github.issue(backend.repository, number)
            if labels & {label.casefold() for label in item.labels}:
                qualifying.add(number)
    except CockpitError as exc:
        unread.append(f"which linked issues carry {', '.join(schedule.qualifying_labels)} is not known: {exc}")
        return PatchRules(schedule.cherry_pick_deadline, None, schedule.qualifying_labels)
    return PatchRules(schedule.cherry_pick_deadline, frozenset(qualifying), schedule.qualifying_labels)
