"""Tie the git port to the branch-diff engine: resolve the refs (``clone_refs``), read each range once, analyze.

The port is anything with ``GitRepo``'s method names (the real adapter, or a fake in tests), so
this module stays free of GitPython. The number of git calls does not grow with history size:
a few ref lookups, two ``log`` calls, one patch-id batch, one ``log --grep`` for PRs merged before
the cut, one ``log`` for the RC delta, and one ``log T1 T2 ^cut`` for the reverts of pre-cut commits
(``is_ancestor`` when there is one; plus two in a shallow clone, to refuse a history that stops before the cut),
started as soon as main after the cut is read.

The search before the cut reads as many commits as everything else together, and it does not
depend on them: it starts first, in a thread, for every number the analysis may ask about
(``before_cut_candidates``), while the ranges after the cut are read and analyzed beside it; the
analysis then takes its answer. The ranges and the RC delta are read side by side too. The port's
methods are therefore called from several threads (the real adapter runs one git process per call).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from typing import Literal, Protocol

from cockpit.domain.commits import BranchDiffReport, CommitRecord
from cockpit.domain.github import MilestoneItem
from cockpit.errors import GitError
from cockpit.services import refs
from cockpit.services.branch_diff import DEFAULT_RELEASE_ONLY, analyze_branch, before_cut_candidates, rc_delta
from cockpit.services.branch_index import resolve_sha
from cockpit.services.clone_refs import release_refs
from cockpit.services.pick_predict import PickLab, plans_for, predict_picks


class GitPort(Protocol):
    """The part of ``cockpit.adapters.git.GitRepo`` the branch diff needs."""

    def log(
        self,
        rev_range: str | list[str],
        *,
        grep: list[str] | None = None,
        fixed_strings: bool = False,
        extended: bool = False,
    ) -> list[CommitRecord]: ...

    def patch_ids(self, shas: Iterable[str]) -> dict[str, str]: ...

    def rev_parse(self, ref: str) -> str | None: ...

    def merge_base(self, a: str, b: str) -> str | None: ...

    def is_ancestor(self, a: str, b: str) -> bool: ...

    def is_shallow(self) -> bool: ...

    def scratch_merges(self) -> AbstractContextManager[PickLab]:
        """In-memory cherry-picks (asked only with ``predict``)."""
        ...


def before_cut_pattern(numbers: Sequence[int], repository: str) -> str:
    """ONE extended regex for ``#N``, ``/<repository>/pull/N`` or ``/<repository>/issues/N`` of any
    of ``numbers``: git tries each ``--grep`` on every commit, so a pattern per number made the
    lookup cost grow with the milestone (a minute for 300 numbers over 85k commits)."""
    home = repository.replace(".", "[.]")  # owner/name hold only [A-Za-z0-9_.-]
    alternatives = "|".join(str(n) for n in sorted(set(numbers)))
    return f"(#|/{home}/pull/|/{home}/issues/)({alternatives})([^0-9]|$)"


def search_before_cut(repo: GitPort, cut: str, repository: str, numbers: Sequence[int]) -> dict[int, CommitRecord]:
    """Answer "which of these PRs landed, or which of these issues were fixed, on main before the
    cut?" with ONE ``git log --grep``. Issues and PRs share one number space, so one answer keyed
    by number serves both; the grep is loose and each hit is re-checked exactly. Each number maps
    to the newest commit naming it, so the answer for a subset is this answer cut down."""
    wanted = set(numbers)
    found: dict[int, CommitRecord] = {}
    for commit in repo.log(cut, grep=[before_cut_pattern(numbers, repository)], extended=True):
        hits = (refs.trunk_prs(commit, repository) | refs.fixed_issues(commit.message, repository)) & wanted
        for n in hits:
            found.setdefault(n, commit)  # newest first: the latest landing wins
    return found


def _answer_from(search: Future[dict[int, CommitRecord]] | None) -> Callable[[list[int]], dict[int, CommitRecord]]:
    """``analyze_branch``'s ``before_cut``: the running search's answer, cut down to the numbers asked."""

    def lookup(numbers: list[int]) -> dict[int, CommitRecord]:
        found = search.result() if search is not None else {}
        return {n: found[n] for n in numbers if n in found}

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
    predict: bool | Literal["if_possible"] = False,
) -> BranchDiffReport:
    """The branch diff of ``branch`` against ``main`` for the milestone ``items``.

    ``rc_base``/``rc_head`` (e.g. two RC tags) add the delta between them. ``predict`` adds what
    ``git cherry-pick -x`` of each missing pick and revert owed would do (``pick_predict``; git's
    merge in memory, nothing of the clone written); a git failure there fails the load, unless
    ``predict="if_possible"``: then the diff stands and ``prediction_trouble`` says why. Raises GitError with one
    actionable line for a missing ref, a shallow clone lacking the cut, or a failing git command.
    """
    with _collector_paused():
        return _load(
            repo,
            main=main,
            branch=branch,
            items=items,
            repository=repository,
            cut_override=cut_override,
            remote=remote,
            skip_labels=skip_labels,
            release_only_patterns=release_only_patterns,
            rc_base=rc_base,
            rc_head=rc_head,
            predict=predict,
        )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while the history is read: the load makes a few hundred
    thousand objects that all stay alive, so every collection it triggers scans them in vain (it
    was a third of the Python time on a 20k-commit range). Nothing here makes cycles; the collector
    runs again at the end, unless something else had paused it before."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load(
    repo: GitPort,
    *,
    main: str,
    branch: str,
    items: Sequence[MilestoneItem],
    repository: str,
    cut_override: str,
    remote: str,
    skip_labels: Sequence[str],
    release_only_patterns: Sequence[str],
    rc_base: str,
    rc_head: str,
    predict: bool | Literal["if_possible"],
) -> BranchDiffReport:
    start = release_refs(repo, main=main, branch=branch, remote=remote, cut_override=cut_override)
    main_sha, branch_sha, cut = start.main.sha, start.branch.sha, start.cut
    if repo.is_shallow() and not (repo.is_ancestor(cut, main_sha) and repo.is_ancestor(cut, branch_sha)):
        raise GitError(
            f"the clone is shallow and lacks the history from the cut to {main} and {branch}: "
            f"run 'git fetch --unshallow {remote}'"
        )
    delta_range = _rc_range(repo, rc_base, rc_head, remote)
    candidates = before_cut_candidates(items, skip_labels)
    with ThreadPoolExecutor(max_workers=3, thread_name_prefix="branch-diff") as pool:
        search = pool.submit(search_before_cut, repo, cut, repository, candidates) if candidates else None
        branch_log = pool.submit(repo.log, f"{cut}..{branch_sha}")
        delta_log = pool.submit(repo.log, delta_range) if delta_range else None
        trunk = repo.log(f"{cut}..{main_sha}")
        early = _walk_early(pool, repo, trunk, cut)
        report = analyze_branch(
            trunk=trunk,
            branch=branch_log.result(),
            items=items,
            repository=repository,
            patch_ids=repo.patch_ids,
            before_cut=_answer_from(search),
            contains_before_cut=lambda sha: repo.is_ancestor(sha, cut),
            in_cut=lambda targets: _answer_in_cut(early, repo, targets, cut),
            skip_labels=skip_labels,
            release_only_patterns=release_only_patterns,
        )
        delta = rc_delta(delta_log.result(), rc_base, rc_head, repository) if delta_log else None
    report = replace(report, cut=cut, branch=branch, main=main, rc_delta=delta)
    if not predict:
        return report
    try:
        return with_predictions(repo, report, trunk, branch_sha)
    except GitError as exc:
        if predict != "if_possible":
            raise
        return replace(report, prediction_trouble=exc.message)


def in_the_cut(repo: GitPort, targets: list[str], cut: str) -> set[str]:
    """Which of ``targets`` the cut holds, in ONE walk of the history (``git log T1 T2 ^cut`` lists what
    the cut lacks): in a clone without a commit-graph each ``is_ancestor`` walked it for most of a second.
    A target git does not know fails that walk: then each is asked alone (an unknown one is not held)."""
    try:
        lacking = [c.sha for c in repo.log([*targets, f"^{cut}"])]
    except GitError:
        return {t for t in targets if repo.is_ancestor(t, cut)}
    return {t for t in targets if not any(sha.startswith(t.lower()) for sha in lacking)}


def _walk_early(
    pool: ThreadPoolExecutor, repo: GitPort, trunk: Sequence[CommitRecord], cut: str
) -> tuple[frozenset[str], Future[set[str]] | None]:
    """Start the walk of ``in_the_cut`` as soon as main after the cut is read, for every revert target
    outside that range (the analysis asks about some of them at its end)."""
    known = {c.sha: c for c in trunk}
    targets = sorted({t for c in trunk if (t := refs.revert_target(c)) and resolve_sha(t, known) not in known})
    if len(targets) < 2:
        return frozenset(), None
    return frozenset(targets), pool.submit(in_the_cut, repo, targets, cut)


def _answer_in_cut(
    early: tuple[frozenset[str], Future[set[str]] | None], repo: GitPort, targets: list[str], cut: str
) -> set[str]:
    asked, walk = early
    if walk is not None and asked.issuperset(targets):
        return walk.result() & set(targets)
    if len(targets) == 1:
        return set(targets) if repo.is_ancestor(targets[0], cut) else set()
    return in_the_cut(repo, targets, cut)


def with_predictions(
    repo: GitPort, report: BranchDiffReport, trunk: Sequence[CommitRecord], head: str
) -> BranchDiffReport:
    """``report`` with a prediction for each missing pick and revert owed, oldest on main first."""
    plans = sorted(plans_for(report, trunk), key=lambda p: p.age)
    if not plans:
        return report
    with repo.scratch_merges() as lab:
        found = predict_picks(plans, head, lab)
    return replace(report, predictions=tuple(found[p.key] for p in plans))


def _rc_range(repo: GitPort, rc_base: str, rc_head: str, remote: str) -> str:
    """``<base sha>..<head sha>`` of the two RC refs, "" when not asked; a missing tag is a GitError."""
    if not (rc_base and rc_head):
        return ""
    base_sha = repo.rev_parse(rc_base)
    head_sha = repo.rev_parse(rc_head)
    if not base_sha or not head_sha:
        lacking = rc_base if not base_sha else rc_head
        raise GitError(f"no tag or ref '{lacking}' in the clone: fetch tags with 'git fetch --tags {remote}'")
    return f"{base_sha}..{head_sha}"
