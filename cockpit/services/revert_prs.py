"""Missing reverts become pull requests: what the release team's runbook does by hand, planned as data.

The runbook is pytorch/test-infra ``.claude/skills/release-cherry-pick-missing-reverts/SKILL.md``
(at 61a77570f): for each revert on main whose reverted commit is in ``release/X.Y``, confirm that
with ``git merge-base --is-ancestor`` (the RC-tag heuristic of ``tools/analytics/github_analyze.py``,
tags ``^v[0-9]+.[0-9]+.[0-9]+-rc[0-9]+$`` holding the reverted commit, also fires for RC tags of
another release line), branch ``cherry-pick-revert-<PR>-<X.Y>`` on the fork from the release
branch, ``git cherry-pick -x`` the revert, stop on a conflict ("needs manual cherry-pick"), open
one PR per revert against the release branch (never push to it, never ``--base main``), and
optionally nominate each on the tracker (category ``cherry-pick revert``). Pure: the git and
GitHub answers come in as arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cockpit.domain.commits import EvidenceKind, PickPrediction, RevertOwed
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.revert_prs import RevertPR, RevertPRBatch, RevertPROutcome
from cockpit.services.markdown import md_text

# github_analyze.py: re.compile(r"^v[0-9]+\.[0-9]+\.[0-9]+-rc[0-9]+$") (pytorch/test-infra tools/analytics)
RC_TAG = re.compile(r"^v([0-9]+)\.([0-9]+)\.[0-9]+-rc[0-9]+$")
CATEGORY = "cherry-pick revert"  # the runbook's Step 4 category


def branch_name(revert: RevertOwed, major_minor: str) -> str:
    """``cherry-pick-revert-<PR>-<X.Y>`` (the runbook's name); the reverted commit's short SHA without a PR."""
    who = str(revert.reverted_pr) if revert.reverted_pr else revert.reverted_sha[:10]
    return f"cherry-pick-revert-{who}-{major_minor}"


def pr_title(revert: RevertOwed, release_branch: str) -> str:
    """``[release/X.Y] Revert "<title> (#PR)"``, as the runbook titles them."""
    return f"[{release_branch}] {revert.revert_subject}"


def pr_body(revert: RevertOwed, release_branch: str, repository: str, rc_tags: Sequence[str]) -> str:
    """What the PR does and why, in the runbook's words (Step 3, "PR body")."""
    pr = f" (#{revert.reverted_pr})" if revert.reverted_pr else ""
    shipped = f", shipped in {', '.join(md_text(t) for t in rc_tags)}" if rc_tags else ""
    return (
        f"Cherry-pick of the main-branch revert {revert.revert_sha} onto {release_branch}.\n\n"
        f"The reverted commit {revert.reverted_sha}{pr} is in {release_branch}{shipped}, but the revert "
        f"({md_text(revert.revert_subject)}) only landed on main. This cherry-picks the revert so "
        f"{release_branch} matches main.\n\n"
        f"Found by the release cockpit's branch diff of {md_text(repository)} (reverts the release branch owes). "
        f"Cherry-pick (-x): (cherry picked from commit {revert.revert_sha}).\n"
    )


def request_comment(plan: RevertPR, repository: str) -> str:
    """The tracker's request form for one PR (the runbook's Step 4), category ``cherry-pick revert``."""
    trunk = f"https://github.com/{repository}/pull/{plan.reverted_pr}" if plan.reverted_pr else ""
    return (
        "Link to landed trunk PR (if applicable):\n"
        f"* {trunk}\n\n"
        "Link to release branch PR:\n"
        f"* {plan.pull_url}\n\n"
        "Criteria Category:\n"
        f"* {CATEGORY}\n"
    )


def rc_lines(tags: Sequence[str], major_minor: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The RC tags among ``tags``, and those of another release line than ``major_minor``."""
    rcs = tuple(sorted(t for t in tags if RC_TAG.match(t)))
    other = tuple(t for t in rcs if ".".join(RC_TAG.match(t).groups()) != major_minor)  # type: ignore[union-attr]
    return rcs, other


def carrier(revert: RevertOwed, on_branch: Callable[[str], bool]) -> str | None:
    """The release-branch ancestor that holds the reverted change: the reverted commit itself (cut
    before it, or merged), else the pick of it the branch diff found; None when neither is on the branch."""
    if on_branch(revert.reverted_sha):
        return revert.reverted_sha
    picks = (e.commit for e in revert.how if e.kind is not EvidenceKind.BEFORE_CUT)
    return next((sha for sha in picks if on_branch(sha)), None)


def plan_revert_prs(
    owed: Sequence[RevertOwed],
    *,
    predictions: Sequence[PickPrediction],
    on_branch: Callable[[str], bool],
    tags_of: Callable[[str], Sequence[str]],
    pulls: Sequence[PullRequest],
    release_branch: str,
    major_minor: str,
    repository: str,
    fork: str,
    head: str,
    comment: bool = False,
) -> RevertPRBatch:
    """One plan per revert owed: open, reuse, or why not (not on the branch, conflicts, already there).

    ``on_branch(sha)``: is ``sha`` an ancestor of the release head (the reverted commit, else its pick
    on the branch); ``tags_of(sha)``: the tags holding the reverted commit; ``pulls``: the PRs onto
    the release branch (any state).
    """
    predicted: Mapping[str, PickPrediction] = {p.key: p for p in predictions}
    heads = {p.head_ref: p for p in sorted(pulls, key=lambda p: p.state is not PullState.OPEN)}
    plans = []
    for r in owed:
        branch = branch_name(r, major_minor)
        rcs, other = rc_lines(tags_of(r.reverted_sha), major_minor)
        common: dict[str, Any] = {
            "revert_sha": r.revert_sha,
            "revert_subject": r.revert_subject,
            "reverted_sha": r.reverted_sha,
            "reverted_pr": r.reverted_pr,
            "branch": branch,
            "title": pr_title(r, release_branch),
            "body": pr_body(r, release_branch, repository, [t for t in rcs if t not in other]),
            "rc_tags": rcs,
            "other_lines": other,
        }
        guess = predicted.get(r.revert_sha)
        found = heads.get(branch)
        if found is not None:
            plan = RevertPR(
                **common,
                outcome=RevertPROutcome.REUSE,
                detail=f"PR #{found.number} from {branch} is already there ({found.state.value}): reused",
                pull_number=found.number,
                pull_url=found.html_url,
            )
        elif carrier(r, on_branch) is None:
            lines = f" (its RC tags are of another release line: {', '.join(other)})" if other else ""
            plan = RevertPR(
                **common,
                outcome=RevertPROutcome.NOT_ON_BRANCH,
                detail=f"the reverted commit {r.reverted_sha[:12]} is not in {release_branch}{lines}: "
                "nothing to revert",
            )
        elif guess is not None and guess.empty:
            plan = RevertPR(**common, outcome=RevertPROutcome.EMPTY, detail=f"{release_branch} already has this change")
        elif guess is not None and not guess.applies:
            paths = ", ".join(guess.conflicts) or guess.note or "paths not known"
            plan = RevertPR(
                **common,
                outcome=RevertPROutcome.MANUAL,
                detail=f"needs a manual cherry-pick: conflicts in {paths}",
                conflicts=guess.conflicts,
            )
        else:
            plan = RevertPR(
                **common,
                outcome=RevertPROutcome.OPEN,
                detail=f"push {branch} to {fork}'s fork, open a PR onto {release_branch}",
            )
        plans.append(plan)
    return RevertPRBatch(release_branch, repository, fork, head, tuple(plans), comment)


def preview(batch: RevertPRBatch) -> str:
    """The batch as the one confirmation shows it: one line per revert owed."""
    if not batch.plans:
        return f"{batch.release_branch} owes no revert: nothing to open"
    lines = []
    for p in batch.plans:
        flag = f" [RC tags of another release line: {', '.join(p.other_lines)}]" if p.other_lines else ""
        lines.append(f"{p.revert_sha[:12]} {p.revert_subject[:70]}: {p.detail}{flag}")
    tail = " and post the tracker's request for each" if batch.comment else ""
    head = f"{len(batch.to_open)} PR(s) to open onto {batch.release_branch} from {batch.fork}'s fork{tail}"
    return head + "\n" + "\n".join(lines)
