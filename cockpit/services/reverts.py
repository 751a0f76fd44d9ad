"""Reverts on main that the release branch must take too (RELEASE.md: a reverted PR's pick is
reverted as well; reverts of commits that were on main before the cut are propagated)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cockpit.domain.commits import CommitRecord, Evidence, EvidenceKind, RevertOwed
from cockpit.services import refs
from cockpit.services.branch_index import BranchIndex, TrunkIndex, resolve_sha


def _title_key(title: str) -> str:
    return refs.normalized_subject(title)


def _branch_undoings(branch: BranchIndex, trunk: TrunkIndex) -> tuple[set[str], set[str]]:
    """What the branch has reverted itself: target shas, and the titles its reverts quote."""
    branch_shas = {c.sha: c for c in branch.commits}
    targets: set[str] = set()
    titles: set[str] = set()
    for commit in branch.commits:
        found = branch.refs[commit.sha]
        if found.reverts:
            targets.add(resolve_sha(found.reverts, branch_shas, trunk.by_sha))
        title = refs.reverted_title(commit.subject)
        if title:
            titles.add(_title_key(title))
    return targets, titles


def _reverted_pr(revert: CommitRecord, target: CommitRecord | None, repository: str) -> int | None:
    if target is not None:
        prs = refs.trunk_prs(target, repository)
        if prs:
            return min(prs)
    title = refs.reverted_title(revert.subject)
    suffix = refs.subject_prs(title) if title else ()
    if suffix:
        return suffix[-1]
    urls = refs.pr_urls(revert.body, repository)
    return min(urls) if urls else None


def reverts_owed(
    trunk: TrunkIndex,
    branch: BranchIndex,
    *,
    evidence_for: Callable[[str], list[Evidence]],
    contains_before_cut: Callable[[str], bool],
    repository: str,
    in_cut: Callable[[list[str]], set[str]] | None = None,
) -> tuple[RevertOwed, ...]:
    """Trunk reverts whose target is in the release branch and which the branch has not taken.

    A target is in the branch when it was picked (``evidence_for`` finds a pick) or when it is
    outside the trunk range and ``contains_before_cut`` says the branch has it; that callable is
    asked only for such targets, after the cheap checks (``in_cut``, when given, answers all of them
    at once: the set of those in the cut). A revert that was itself reverted on main
    (a reland) is not owed. The branch has taken a revert when one of its commits reverts the target
    or its pick, carries a trailer to the revert, or quotes the same reverted title.
    """
    if not trunk.reverts:
        return ()
    undone, undone_titles = _branch_undoings(branch, trunk)
    taken: Mapping[str, list[str]] = branch.by_trailer
    owed: list[RevertOwed] = []
    candidates = []
    for revert, target in trunk.reverts:
        if revert.sha in trunk.reverted or revert.sha in taken or target in undone:
            continue
        title = refs.reverted_title(revert.subject)
        if title and _title_key(title) in undone_titles:
            continue
        candidates.append((revert, target))
    outside = sorted({t for _, t in candidates if t not in trunk.by_sha})
    if in_cut is not None and outside:  # one walk of the history for all of them
        found = in_cut(outside)
        contains_before_cut = found.__contains__
    for revert, target in candidates:
        target_commit = trunk.by_sha.get(target)
        if target_commit is not None:
            how = tuple(evidence_for(target))
            if not how or any(e.commit in undone for e in how):
                continue
        else:
            if not contains_before_cut(target):
                continue
            how = (Evidence(EvidenceKind.BEFORE_CUT, target, "on the branch since the cut"),)
        owed.append(
            RevertOwed(
                revert_sha=revert.sha,
                revert_subject=revert.subject,
                reverted_sha=target,
                reverted_pr=_reverted_pr(revert, target_commit, repository),
                how=how,
            )
        )
    return tuple(owed)
