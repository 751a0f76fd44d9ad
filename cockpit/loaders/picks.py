"""Cherry-pick pane: the tracker's comments, the release PRs in one list call, the trunk PRs named.

Trunk PRs that are in the milestone come from the milestone's item list (shared with the milestone
pane; it carries merged state and body); only the others are read one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem, PullRequest, PullState
from cockpit.domain.reports import PicksReport
from cockpit.errors import CockpitError, ConfigError

# A milestone list younger than this (read by the milestone pane) is reused as is.
MILESTONE_REUSE_S = 60.0
_PULL_STATE = {ItemState.OPEN: PullState.OPEN, ItemState.MERGED: PullState.MERGED,
               ItemState.CLOSED_UNMERGED: PullState.CLOSED_UNMERGED}

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def load_picks(backend: "CockpitBackend") -> PicksReport:
    from cockpit.loaders.branch import find_cut
    from cockpit.services.pick_parser import parse_requests
    from cockpit.services.picks import (
        needed_pull_numbers,
        picks_report,
        pr_numbers_in_subjects,
    )

    rel, gh, repo = backend.config.release, backend.github, backend.repository
    if rel.tracker_issue is None:
        raise ConfigError(f"{backend.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number")
    tracker = gh.issue(repo, rel.tracker_issue)
    requests = parse_requests(gh.issue_comments(repo, rel.tracker_issue), repository=repo)
    release_pulls = {p.number: p for p in gh.pulls(repo, base=rel.branch)}
    pulls = dict(release_pulls)
    needed = needed_pull_numbers(requests, repo) - pulls.keys()
    if needed and rel.milestone is not None:
        pulls.update((n, pr) for n, pr in _milestone_pulls(backend).items() if n in needed)
    for number in sorted(needed - pulls.keys()):
        try:
            pulls[number] = gh.pull(repo, number)
        except CockpitError:
            continue  # a deleted or mistyped PR: the analysis flags the request instead
    branch = backend.cached("branch_report")
    reverted = {r.reverted_pr for r in branch.diff.reverts_to_propagate if r.reverted_pr} if branch else set()
    cut = branch.diff.cut if branch else find_cut(backend)
    branch_log = backend.git.log(f"{cut}..{rel.branch}") if cut else []
    return picks_report(
        requests,
        tracker_issue=rel.tracker_issue,
        tracker_title=tracker.title,
        pulls=pulls,
        release_branch=rel.branch,
        repository=repo,
        reverted_trunk_prs=reverted,
        # only PRs based on the release branch: a pick's subject also names its trunk PR
        branch_pr_numbers=pr_numbers_in_subjects(c.subject for c in branch_log) & release_pulls.keys(),
        now=backend.clock(),
        stale_days=backend.config.stale_days,
    )


def _milestone_pulls(backend: "CockpitBackend") -> dict[int, PullRequest]:
    """The milestone's pull requests as ``PullRequest``s (base unknown: only trunk PRs use them)."""
    from cockpit.loaders.milestone import fetch_milestone

    try:
        _, items = fetch_milestone(backend, reuse_within=MILESTONE_REUSE_S)
    except CockpitError:
        return {}  # the milestone pane shows that error; here the PRs are read one by one instead
    return {i.number: _as_pull(i) for i in items if i.kind is ItemKind.PULL and i.state in _PULL_STATE}


def _as_pull(item: MilestoneItem) -> PullRequest:
    return PullRequest(item.number, item.title, _PULL_STATE[item.state], "", "", item.html_url,
                       author=item.author, body=item.body)
