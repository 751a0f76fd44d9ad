"""Cherry-pick pane: the tracker's comments, the release PRs in one list call, the trunk PRs named.

Trunk PRs that are in the milestone come from the milestone's item list (shared with the milestone
pane; it carries merged state and body); only the others are read one by one. The trunk PRs
reverted on main come from the branch diff (computed once for both panes), so the gate is the
same whichever pane loads first. Whatever could not be read is said, never taken as clean: a PR
that failed to load marks its request, history that failed marks the whole gate, UNKNOWN.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.github import ItemKind, ItemState, MilestoneItem, PullRequest, PullState
from cockpit.domain.reports import PicksReport
from cockpit.errors import CockpitError, ConfigError, GitError
from cockpit.loaders.patch_rules import patch_rules

_PULL_STATE = {
    ItemState.OPEN: PullState.OPEN,
    ItemState.MERGED: PullState.MERGED,
    ItemState.CLOSED_UNMERGED: PullState.CLOSED_UNMERGED,
}

if TYPE_CHECKING:
    from datetime import date

    from cockpit.domain.commits import BranchDiffReport
    from cockpit.domain.picks import PRRef
    from cockpit.ports import Ports
    from cockpit.services.phase_picks import PhaseCutoff


def load_picks(backend: Ports) -> PicksReport:
    from cockpit.loaders.status_comment import remember_team_status
    from cockpit.services.pick_parser import parse_requests
    from cockpit.services.pick_readings import confirmations_for
    from cockpit.services.picks import (
        mentioned_pull_numbers,
        needed_library_pulls,
        needed_pull_numbers,
        picks_report,
        pr_numbers_in_subjects,
    )
    from cockpit.services.schedule import release_is_patch

    rel, gh, repo = backend.config.release, backend.github, backend.repository
    if rel.tracker_issue is None:
        raise ConfigError(
            f"{backend.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number"
        )
    tracker = gh.issue(repo, rel.tracker_issue)
    comments = gh.issue_comments(repo, rel.tracker_issue)
    comments = remember_team_status(backend, comments)  # the status comment is no pick request
    requests = parse_requests(comments, repository=repo, release=rel.version)
    release_pulls = {p.number: p for p in gh.pulls(repo, base=rel.branch)}
    pulls: dict[PRRef | int, PullRequest] = dict(release_pulls.items())
    needed = needed_pull_numbers(requests, repo) - release_pulls.keys()
    milestone_read = rel.milestone is not None
    if needed and milestone_read:
        in_milestone = _milestone_pulls(backend)
        milestone_read = in_milestone is not None
        by_base = mentioned_pull_numbers(requests, repo)  # their base decides their role: read them one by one
        pulls.update((n, pr) for n, pr in (in_milestone or {}).items() if n in needed and n not in by_base)
    unreadable: dict[int | PRRef, str] = {}
    for number in sorted(n for n in needed if n not in pulls):
        try:
            pulls[number] = gh.pull(repo, number)
        except CockpitError as exc:  # a deleted or mistyped PR, or GitHub failing: the request says which
            unreadable[number] = str(exc)
    libraries = {r.repository.casefold(): r for r in backend.config.repos}
    for ref in sorted(needed_library_pulls(requests, libraries), key=lambda r: (r.repository, r.number)):
        try:  # a domain library's PR asked for in the core's tracker: its state and base from its repository
            pulls[ref] = gh.pull(libraries[ref.repository.casefold()].repository, ref.number)
        except CockpitError as exc:
            unreadable[ref] = str(exc)
    unread: list[str] = []
    diff, why = _branch_diff(backend, with_milestone=milestone_read)
    if why:
        unread.append(f"which trunk PRs were reverted on main is not known: {why}")
    reverted = {r.reverted_pr for r in diff.reverts_to_propagate if r.reverted_pr} if diff else set()
    branch_prs: set[int] = set()
    if diff is not None:
        try:
            from cockpit.loaders.branch import release_branch

            log = backend.git.log(f"{diff.cut}..{release_branch(backend).sha}")
            # only PRs based on the release branch: a pick's subject also names its trunk PR
            branch_prs = pr_numbers_in_subjects(c.subject for c in log) & release_pulls.keys()
        except GitError as exc:
            unread.append(f"merges into {rel.branch} without a request are not known: {exc}")
    rules = patch_rules(backend, requests, unread)
    cutoff = None
    if not release_is_patch(rel):  # a patch release has its own deadline (``patch_rules``)
        cutoff = _phase_cutoff(backend.config.phase_cutoff, tracker.body, rel.tracker_issue, unread)
    report = picks_report(
        requests,
        tracker_issue=rel.tracker_issue,
        tracker_title=tracker.title,
        pulls=pulls,
        release_branch=rel.branch,
        repository=repo,
        reverted_trunk_prs=reverted,
        branch_pr_numbers=branch_prs,
        unreadable_pulls=unreadable,
        unread=unread,
        now=backend.clock(),
        stale_days=backend.config.stale_days,
        patch_rules=rules,
        phase_cutoff=cutoff,
        library_branches={r.repository: r.release.branch for r in backend.config.repos},
        trunk_branch=rel.main,
        confirmations=confirmations_for(backend.state.pick_readings(), repo),
    )
    report = _titled_as_a_tracker(report, backend.config.tracker_titles, rel.version)
    if diff is not None and diff.predictions:
        from dataclasses import replace

        report = replace(report, predictions=diff.predictions)
    backend.shared.picks = report  # the validation issue lists the accepted picks
    return report


def _phase_cutoff(configured: date | None, body: str, number: int, unread: list[str]) -> PhaseCutoff:
    """A minor release's phase 1 cut-off: the configured day, else the one the tracker names; a date
    the tracker writes unreadably is said (the requests after it cannot be judged)."""
    from cockpit.services import phase_picks

    if configured is not None:
        return phase_picks.configured(configured)
    cutoff = phase_picks.cutoff_in_tracker(body, number)
    if cutoff.problem:
        unread.append(f"{cutoff.problem}; or set [release] phase_cutoff")
    return cutoff


def _titled_as_a_tracker(report: PicksReport, forms: tuple[str, ...], version: str) -> PicksReport:
    """``report`` with a detail on its gate when the tracker's title is none of ``[release] tracker_titles``
    for this version (a tracker number from another release?); the verdict is the requests' alone."""
    from dataclasses import replace

    from cockpit.services.title_forms import described, matches_form

    if not forms or matches_form(report.tracker_title, forms, version):
        return report
    note = (
        f"#{report.tracker_issue} is titled {report.tracker_title!r}, not {described(forms, version)}: this release's?"
    )
    return replace(report, gate=replace(report.gate, details=(*report.gate.details, note)))


def _branch_diff(backend: Ports, *, with_milestone: bool) -> tuple[BranchDiffReport | None, str]:
    """The branch diff the picks need (reverts owed, the cut), or None and why it could not be had.

    It is the branch pane's own diff (shared, so the work is done once); when the milestone cannot
    be read, the history alone answers, as the reverts need no milestone.
    """
    from cockpit.loaders.branch import analyze, shared_branch_diff
    from cockpit.loaders.milestone import MILESTONE_REUSE_S

    if with_milestone:
        try:
            return shared_branch_diff(backend, reuse_within=MILESTONE_REUSE_S).diff, ""
        except GitError as exc:
            return None, str(exc)
        except CockpitError:
            pass  # the milestone could not be read (the branch pane says so): the history alone answers
    try:
        return analyze(backend, (), with_rc_delta=False), ""
    except CockpitError as exc:
        return None, str(exc)


def _milestone_pulls(backend: Ports) -> dict[int, PullRequest] | None:
    """The milestone's pull requests as ``PullRequest``s (base unknown: only trunk PRs use them);
    None when the milestone cannot be read."""
    from cockpit.loaders.milestone import MILESTONE_REUSE_S, fetch_milestone

    try:
        _, items = fetch_milestone(backend, reuse_within=MILESTONE_REUSE_S)
    except CockpitError:
        return None  # the milestone pane shows that error; here the PRs are read one by one instead
    return {i.number: _as_pull(i) for i in items if i.kind is ItemKind.PULL and i.state in _PULL_STATE}


def _as_pull(item: MilestoneItem) -> PullRequest:
    return PullRequest(
        item.number, item.title, _PULL_STATE[item.state], "", "", item.html_url, author=item.author, body=item.body
    )
