"""Tie the git port to the branch-diff engine: resolve the refs (``clone_refs``), read each range once, analyze.

The port is anything with ``GitRepo``'s method names (the real adapter, or a fake in tests), so
this module stays free of GitPython. The number of git calls does not grow with history size:
a few ref lookups, two ``log`` calls, one patch-id batch, one ``log --grep`` for PRs merged before
the cut, one ``log`` for the RC delta, and one ``is_ancestor`` per revert of a pre-cut commit
(plus two in a shallow clone, to refuse a history that stops before the cut).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Protocol

from cockpit.domain.commits import BranchDiffReport, CommitRecord
from cockpit.domain.github import MilestoneItem
from cockpit.errors import GitError
from cockpit.services import refs
from cockpit.services.branch_diff import DEFAULT_RELEASE_ONLY, analyze_branch, rc_delta
from cockpit.services.clone_refs import release_refs


class GitPort(Protocol):
    """The part of ``cockpit.adapters.git.GitRepo`` the branch diff needs."""

    def log(self, rev_range: str | list[str], *, grep: list[str] | None = None, fixed_strings: bool = False,
            extended: bool = False) -> list[CommitRecord]: ...

    def patch_ids(self, shas: Iterable[str]) -> dict[str, str]: ...

    def rev_parse(self, ref: str) -> str | None: ...

    def merge_base(self, a: str, b: str) -> str | None: ...

    def is_ancestor(self, a: str, b: str) -> bool: ...

    def is_shallow(self) -> bool: ...


def before_cut_pattern(numbers: Sequence[int], repository: str) -> str:
    """ONE extended regex for ``#N``, ``/<repository>/pull/N`` or ``/<repository>/issues/N`` of any
    of ``numbers``: git tries each ``--grep`` on every commit, so a pattern per number made the
    lookup cost grow with the milestone (a minute for 300 numbers over 85k commits)."""
    home = repository.replace(".", "[.]")  # owner/name hold only [A-Za-z0-9_.-]
    alternatives = "|".join(str(n) for n in sorted(set(numbers)))
    return f"(#|/{home}/pull/|/{home}/issues/)({alternatives})([^0-9]|$)"


def _before_cut_lookup(repo: GitPort, cut: str, repository: str) -> Callable[[list[int]], dict[int, CommitRecord]]:
    """Answer "which of these PRs landed, or which of these issues were fixed, on main before the
    cut?" with ONE ``git log --grep``. Issues and PRs share one number space, so one answer keyed
    by number serves both; the grep is loose and each hit is re-checked exactly."""

    def lookup(numbers: list[int]) -> dict[int, CommitRecord]:
        wanted = set(numbers)
        found: dict[int, CommitRecord] = {}
        for commit in repo.log(cut, grep=[before_cut_pattern(numbers, repository)], extended=True):
            hits = (refs.trunk_prs(commit, repository) | refs.fixed_issues(commit.message, repository)) & wanted
            for n in hits:
                found.setdefault(n, commit)  # newest first: the latest landing wins
        return found

    return lookup


def load_branch_diff(
    repo: GitPort,
    *,
    main: str,
    branch: str,
    items: Sequence[MilestoneItem],
    repository: str,
    cut_override: str = "",
    remote: str = "origin",
    skip_labels: Sequence[str] = ("release-feature-request",),
    release_only_patterns: Sequence[str] = DEFAULT_RELEASE_ONLY,
    rc_base: str = "",
    rc_head: str = "",
) -> BranchDiffReport:
    """The branch diff of ``branch`` against ``main`` for the milestone ``items``.

    ``rc_base``/``rc_head`` (e.g. two RC tags) add the delta between them. Raises GitError with one
    actionable line for a missing ref, a shallow clone lacking the cut, or a failing git command.
    """
    start = release_refs(repo, main=main, branch=branch, remote=remote, cut_override=cut_override)
    main_sha, branch_sha, cut = start.main.sha, start.branch.sha, start.cut
    if repo.is_shallow() and not (repo.is_ancestor(cut, main_sha) and repo.is_ancestor(cut, branch_sha)):
        raise GitError(f"the clone is shallow and lacks the history from the cut to {main} and {branch}: run 'git fetch --unshallow {remote}'")
    trunk = repo.log(f"{cut}..{main_sha}")
    picks = repo.log(f"{cut}..{branch_sha}")
    report = analyze_branch(
        trunk=trunk,
        branch=picks,
        items=items,
        repository=repository,
        patch_ids=repo.patch_ids,
        before_cut=_before_cut_lookup(repo, cut, repository),
        contains_before_cut=lambda sha: repo.is_ancestor(sha, cut),
        skip_labels=skip_labels,
        release_only_patterns=release_only_patterns,
    )
    delta = None
    if rc_base and rc_head:
        base_sha = repo.rev_parse(rc_base)
        head_sha = repo.rev_parse(rc_head)
        if not base_sha or not head_sha:
            lacking = rc_base if not base_sha else rc_head
            raise GitError(f"no tag or ref '{lacking}' in the clone: fetch tags with 'git fetch --tags {remote}'")
        delta = rc_delta(repo.log(f"{base_sha}..{head_sha}"), rc_base, rc_head, repository)
    return replace(report, cut=cut, branch=branch, main=main, rc_delta=delta)
