"""Indexes of the two history ranges the branch diff reads: trunk after the cut, and the release branch.

Each range is walked once; everything later is a dictionary lookup, so the diff stays close to the
cost of reading the ranges even at 100k trunk commits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cockpit.domain.commits import CommitRecord, Evidence, EvidenceKind
from cockpit.services import refs

_DETAIL = {
    EvidenceKind.PR_NUMBER: "names #{n}",
    EvidenceKind.PR_URL: "links pull/{n}",
    EvidenceKind.BULK_PICK: "bulk pick lists #{n}",
}


def resolve_sha(sha: str, *known: Mapping[str, object]) -> str:
    """The full sha ``sha`` abbreviates among the ``known`` commits, else ``sha`` itself."""
    if len(sha) >= 40:
        return sha
    for table in known:
        for full in table:
            if full.startswith(sha):
                return full
    return sha


def _fixes_index(commits: Sequence[CommitRecord], repository: str) -> dict[int, list[str]]:
    """Issue -> the commits (in order) whose message says they fix it."""
    index: dict[int, list[str]] = defaultdict(list)
    found = refs.fixed_issues_each([c.message for c in commits], repository)
    for position in sorted(found):
        for n in found[position]:
            index[n].append(commits[position].sha)
    return index


@dataclass
class TrunkIndex:
    """Trunk commits after the cut, by sha and by the PR they landed."""

    by_sha: dict[str, CommitRecord] = field(default_factory=dict)
    by_pr: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    prs_of: dict[str, set[int]] = field(default_factory=dict)
    reverts: list[tuple[CommitRecord, str]] = field(default_factory=list)  # (revert, full target sha)
    reverted: set[str] = field(default_factory=set)  # targets of those reverts
    _fixes: dict[int, list[str]] | None = None

    def fixes(self, issue: int, repository: str) -> list[str]:
        """Trunk commits whose message says they fix ``issue`` (indexed on first use)."""
        if self._fixes is None:
            self._fixes = _fixes_index(list(self.by_sha.values()), repository)
        return self._fixes.get(issue, [])


def index_trunk(trunk: Sequence[CommitRecord], repository: str) -> TrunkIndex:
    """Index trunk commits by PR (resolved URL line and trailing ``(#N)``) and collect reverts."""
    index = TrunkIndex()
    targets: list[tuple[CommitRecord, str]] = []
    for commit in trunk:
        index.by_sha[commit.sha] = commit
        prs = refs.trunk_prs(commit, repository)
        if prs:
            index.prs_of[commit.sha] = prs
            for n in prs:
                index.by_pr[n].append(commit.sha)
        target = refs.revert_target(commit)
        if target:
            targets.append((commit, target))
    index.reverts = [(c, resolve_sha(t, index.by_sha)) for c, t in targets]
    index.reverted = {t for _, t in index.reverts}
    return index


@dataclass
class BranchIndex:
    """Release-branch commits and the references each carries."""

    commits: Sequence[CommitRecord]
    refs: dict[str, refs.BranchRefs]
    by_pr: dict[int, list[Evidence]]
    by_trailer: dict[str, list[str]]
    undone: set[str] = field(default_factory=set)  # branch commits a later branch commit reverts
    _fixes: dict[int, list[str]] | None = None

    def fixes(self, issue: int, repository: str) -> list[str]:
        """Release-branch commits whose message says they fix ``issue`` (indexed on first use)."""
        if self._fixes is None:
            self._fixes = _fixes_index(self.commits, repository)
        return self._fixes.get(issue, [])

    def linked_to(self, commit: CommitRecord, trunk: TrunkIndex) -> bool:
        """Whether ``commit`` names a trunk commit (by PR, URL, trailer): a pick by reference."""
        found = self.refs[commit.sha]
        return any(n in trunk.by_pr for n in found.prs) or any(s in trunk.by_sha for s in found.picked_from)


def index_branch(branch: Sequence[CommitRecord], repository: str) -> BranchIndex:
    """Index release-branch commits by every PR they name and every trunk sha they were picked from."""
    found: dict[str, refs.BranchRefs] = {}
    by_pr: dict[int, list[Evidence]] = defaultdict(list)
    by_trailer: dict[str, list[str]] = defaultdict(list)
    for commit in branch:
        r = refs.branch_refs(commit, repository)
        found[commit.sha] = r
        for n, kinds in r.kinds.items():
            by_pr[n].extend(Evidence(kind, commit.sha, _DETAIL[kind].format(n=n)) for kind in kinds)
        for sha in r.picked_from:
            by_trailer[sha].append(commit.sha)
    index = BranchIndex(branch, found, by_pr, by_trailer)
    targets = [r.reverts for r in found.values() if r.reverts]
    index.undone = {resolve_sha(t, found) for t in targets} & found.keys()
    return index


def evidence_for_sha(
    sha: str, trunk: TrunkIndex, branch: BranchIndex, patch_picks: Mapping[str, list[str]]
) -> list[Evidence]:
    """Every sign that trunk commit ``sha`` is in the branch: trailers, its PR's references, patch ids."""
    out = [
        Evidence(EvidenceKind.CHERRY_PICK_TRAILER, b, f"cherry picked from {sha[:12]}")
        for b in branch.by_trailer.get(sha, ())
    ]
    for n in sorted(trunk.prs_of.get(sha, ())):
        out.extend(branch.by_pr.get(n, ()))
    out.extend(Evidence(EvidenceKind.PATCH_ID, b, f"same patch as {sha[:12]}") for b in patch_picks.get(sha, ()))
    return out


def unique(evidence: Iterable[Evidence]) -> tuple[Evidence, ...]:
    """Evidence without repeats of the same (kind, commit), first one kept."""
    seen: dict[tuple[EvidenceKind, str], Evidence] = {}
    for e in evidence:
        seen.setdefault((e.kind, e.commit), e)
    return tuple(seen.values())
