"""Will each missing pick apply onto the release branch, and in what order: git's merge, asked in memory.

For every missing milestone PR and every revert the branch owes, the pick of its commits (oldest
first) onto the release head is merged by git itself through a ``PickLab`` (the adapter's
``ScratchMerges``: ``git merge-tree`` in a temporary object directory). A pick that conflicts
alone is tried again after the other missing picks that touch the same paths and landed on main
before it: one of them first, then two, then three, each order confirmed by merging it. Picks
are grouped by the paths they share, so the release manager sees which picks travel together.

The merges are asked in rounds (one batch per round, whatever the number of picks), and a merge
already made (the same commit onto the same tree) is never asked twice. The lab is called from
two threads (the changed paths are read while the first round merges).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from cockpit.domain.commits import BranchDiffReport, CommitRecord, PickPrediction, Verdict


class MergeResult(Protocol):
    """One in-memory pick: clean or not, the tree it gives, the paths left conflicted."""

    @property
    def clean(self) -> bool: ...

    @property
    def tree(self) -> str: ...

    @property
    def conflicts(self) -> tuple[str, ...]: ...


class PickLab(Protocol):
    """In-memory cherry-picks (``cockpit.adapters.git_scratch.ScratchMerges``)."""

    def tree_of(self, rev: str) -> str: ...

    def changed_paths(self, shas: Iterable[str]) -> dict[str, frozenset[str]]: ...

    def picks(self, steps: Sequence[tuple[str, str, str]]) -> Sequence[MergeResult]: ...


@dataclass(frozen=True)
class PickPlan:
    """One pick to predict: its key, its commits oldest first with their parents, and its age on
    main (a lower ``age`` landed earlier). A parent is None when git cannot pick the commit alone."""

    key: str
    commits: tuple[str, ...]
    parents: tuple[str | None, ...]
    age: int


@dataclass(frozen=True)
class _Run:
    clean: bool
    tree: str
    conflicts: tuple[str, ...] = ()
    empty: bool = False


MAX_BEFORE = 3  # the longest order tried before a conflicting pick
MAX_CANDIDATES = 6  # the overlapping picks considered for those orders


def plans_for(report: BranchDiffReport, trunk: Sequence[CommitRecord]) -> list[PickPlan]:
    """One plan per missing PR (its trunk commits, oldest first) and per revert owed.

    ``trunk`` is main after the cut, newest first, as the branch diff read it.
    """
    age = {c.sha: len(trunk) - n for n, c in enumerate(trunk)}
    parent = {c.sha: (c.parents[0] if len(c.parents) == 1 else None) for c in trunk}
    plans = []
    for item in report.items:
        if item.verdict is Verdict.MISSING and item.commits:
            shas = tuple(reversed(item.commits))
            plans.append(PickPlan(f"#{item.number}", shas, tuple(parent.get(s) for s in shas), age.get(shas[0], 0)))
    for r in report.reverts_to_propagate:
        plans.append(PickPlan(r.revert_sha, (r.revert_sha,), (parent.get(r.revert_sha),), age.get(r.revert_sha, 0)))
    return plans


class _Merges:
    """Sequences of picks merged round by round, every (tree, commit) merge asked once."""

    def __init__(self, lab: PickLab, parents: Mapping[str, str]) -> None:
        self.lab, self.parents = lab, parents
        self.memo: dict[tuple[str, str], MergeResult] = {}

    def run(self, start: str, sequences: Sequence[Sequence[str]]) -> list[_Run]:
        trees = [start] * len(sequences)
        steps = [0] * len(sequences)
        done: dict[int, _Run] = {n: _Run(True, start) for n, seq in enumerate(sequences) if not seq}
        while len(done) < len(sequences):
            active = [n for n in range(len(sequences)) if n not in done]
            ask = {(trees[n], sequences[n][steps[n]]) for n in active} - self.memo.keys()
            wanted = sorted(ask)
            outcomes = self.lab.picks([(tree, sha, self.parents[sha]) for tree, sha in wanted])
            self.memo.update(zip(wanted, outcomes, strict=True))
            for n in active:
                onto, sha = trees[n], sequences[n][steps[n]]
                got = self.memo[(onto, sha)]
                if not got.clean:
                    done[n] = _Run(False, got.tree, tuple(got.conflicts))
                elif got.tree == onto:
                    done[n] = _Run(False, got.tree, empty=True)
                else:
                    trees[n], steps[n] = got.tree, steps[n] + 1
                    if steps[n] == len(sequences[n]):
                        done[n] = _Run(True, got.tree)
        return [done[n] for n in range(len(sequences))]


def _groups(plans: Sequence[PickPlan], paths: Mapping[str, frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """Each pick's companions: the picks linked to it by shared paths, directly or through others."""
    root = {p.key: p.key for p in plans}

    def find(k: str) -> str:
        while root[k] != k:
            root[k] = root[root[k]]
            k = root[k]
        return k

    owner: dict[str, str] = {}
    for p in plans:
        for path in paths[p.key]:
            if path in owner:
                root[find(p.key)] = find(owner[path])
            else:
                owner[path] = p.key
    members: dict[str, list[PickPlan]] = {}
    for p in plans:
        members.setdefault(find(p.key), []).append(p)
    return {
        p.key: tuple(q.key for q in sorted(members[find(p.key)], key=lambda q: q.age) if q.key != p.key) for p in plans
    }


def predict_picks(plans: Sequence[PickPlan], head: str, lab: PickLab) -> dict[str, PickPrediction]:
    """A prediction per plan, keyed like the plans: applies alone, conflicts (and after what), empty."""
    out: dict[str, PickPrediction] = {}
    usable = []
    for p in plans:
        if not p.commits or any(parent is None for parent in p.parents):
            out[p.key] = PickPrediction(p.key, False, note="not predicted: a merge commit or one outside main")
        else:
            usable.append(p)
    if not usable:
        return out
    parents = {sha: parent for p in usable for sha, parent in zip(p.commits, p.parents, strict=True) if parent}
    merges = _Merges(lab, parents)
    # The changed paths are needed only after the merges alone: git reads them meanwhile.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="pick-paths") as pool:
        asked = pool.submit(lab.changed_paths, [sha for p in usable for sha in p.commits])
        start = lab.tree_of(head)
        alone = dict(zip((p.key for p in usable), merges.run(start, [p.commits for p in usable]), strict=True))
        changed = asked.result()
    paths = {p.key: frozenset().union(*(changed.get(s, frozenset()) for s in p.commits)) for p in usable}
    groups = _groups(usable, paths)
    after = _orders(usable, alone, paths, groups, merges, start)
    for p in usable:
        run = alone[p.key]
        out[p.key] = PickPrediction(
            p.key,
            run.clean,
            run.conflicts,
            after.get(p.key, ()),
            run.empty,
            groups[p.key],
        )
    return {p.key: out[p.key] for p in plans}


def _orders(
    plans: Sequence[PickPlan],
    alone: Mapping[str, _Run],
    paths: Mapping[str, frozenset[str]],
    groups: Mapping[str, tuple[str, ...]],
    merges: _Merges,
    start: str,
) -> dict[str, tuple[str, ...]]:
    """The shortest order of older overlapping picks after which each conflicting pick applies."""
    by_key = {p.key: p for p in plans}
    tries: dict[str, list[tuple[str, ...]]] = {}
    for p in plans:
        run = alone[p.key]
        if run.clean or run.empty or not groups[p.key]:
            continue
        hot = set(run.conflicts) | paths[p.key]
        older = [by_key[k] for k in groups[p.key] if by_key[k].age < p.age and not alone[k].empty]
        older.sort(key=lambda q: (not (paths[q.key] & hot), -q.age))
        cands = older[:MAX_CANDIDATES]
        tries[p.key] = [
            tuple(q.key for q in sorted(combo, key=lambda q: q.age))
            for size in range(1, min(MAX_BEFORE, len(cands)) + 1)
            for combo in combinations(cands, size)
        ]
    found: dict[str, tuple[str, ...]] = {}
    for size in range(1, MAX_BEFORE + 1):
        asked = [
            (key, order) for key, orders in tries.items() if key not in found for order in orders if len(order) == size
        ]
        if not asked:
            continue
        sequences = [[sha for k in (*order, key) for sha in by_key[k].commits] for key, order in asked]
        for (key, order), run in zip(asked, merges.run(start, sequences), strict=True):
            if run.clean and key not in found:
                found[key] = order
    return found


def suggested_order(keys: Iterable[str], predictions: Sequence[PickPrediction]) -> tuple[list[str], list[str]]:
    """The picks of ``keys`` in the order to post them, and the picks they need that ``keys`` lack.

    ``predictions`` are the report's, oldest on main first. A pick's ``after`` picks always landed
    on main before it, so that order puts each pick after the ones it needs.
    """
    chosen = set(keys)
    rank = {p.key: n for n, p in enumerate(predictions)}
    needed = [k for p in predictions if p.key in chosen for k in p.after if k not in chosen]
    return sorted(chosen, key=lambda k: (rank.get(k, len(rank)), k)), list(dict.fromkeys(needed))
