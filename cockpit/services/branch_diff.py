"""The branch diff: is every closed milestone item really in the release branch, and what else differs.

Pure: it reads two already-loaded ranges (trunk = ``cut..main``, branch = ``cut..release``) once
each, asks ``patch_ids`` once for the union of commits that need it, and asks ``before_cut`` once
for merged PRs that have no trunk commit after the cut. See ``branch_loader`` for the git side.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from cockpit.domain.commits import (
    BranchDiffReport,
    CommitRecord,
    Evidence,
    EvidenceKind,
    ItemDiff,
    RCDelta,
    Verdict,
)
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import ConfigError
from cockpit.gates import gate_title
from cockpit.profile import load_profile
from cockpit.services import refs
from cockpit.services.branch_index import (
    BranchIndex,
    TrunkIndex,
    evidence_for_sha,
    index_branch,
    index_trunk,
    unique,
)
from cockpit.services.reverts import reverts_owed

# Release-branch subjects that are not picks: the profile's markers ("[RELEASE-ONLY CHANGES] ...",
# "[RELEASE ONLY CHANGES] ...", "[RELEASE 2.8] Release only changes", version bumps, pin updates).
DEFAULT_RELEASE_ONLY = load_profile().strings("release_only.markers")
_REFERENCE_KINDS = (EvidenceKind.PR_NUMBER, EvidenceKind.PR_URL, EvidenceKind.CHERRY_PICK_TRAILER)


def compile_patterns(patterns: Sequence[str]) -> list[re.Pattern[str]]:
    """Compile the release-only subject patterns; a bad one is a config error naming it."""
    compiled = []
    for p in patterns:
        try:
            compiled.append(re.compile(p))
        except re.error as exc:
            raise ConfigError(f"git.release_only_patterns: {p!r} is not a valid regular expression ({exc})") from None
    return compiled


@dataclass
class _Subject:
    """A milestone item reduced to what the branch must contain: trunk commits and PR numbers."""

    item: MilestoneItem
    trunk_shas: list[str]
    prs: list[int]
    direct: list[Evidence]  # evidence not tied to a trunk commit (release-branch fixes of an issue)


def _subject(item: MilestoneItem, trunk: TrunkIndex, branch: BranchIndex, repository: str) -> _Subject:
    if item.kind is ItemKind.PULL:
        return _Subject(
            item, list(trunk.by_pr.get(item.number, ())), [item.number], list(branch.by_pr.get(item.number, ()))
        )
    shas = list(trunk.fixes(item.number, repository))
    for n in item.linked_prs:
        shas.extend(s for s in trunk.by_pr.get(n, ()) if s not in shas)
    prs = sorted({n for s in shas for n in trunk.prs_of.get(s, ())} | set(item.linked_prs))
    direct = [
        Evidence(EvidenceKind.PR_NUMBER, sha, f"fixes #{item.number} on the release branch")
        for sha in branch.fixes(item.number, repository)
    ]
    for n in item.linked_prs:
        direct.extend(branch.by_pr.get(n, ()))
    return _Subject(item, shas, prs, direct)


def _earlier_keys(s: _Subject) -> list[int]:
    """Numbers to look for before the cut: the PRs, and a closed issue's own number ("Fixes #N")."""
    return s.prs + [s.item.number] if s.item.kind is ItemKind.ISSUE else s.prs


# GitHub's reasons for closing an issue that promise no fix to look for in the branch
_NO_FIX_EXPECTED = {"not_planned": "closed as not planned", "duplicate": "closed as a duplicate"}


def before_cut_candidates(items: Sequence[MilestoneItem], skip_labels: Sequence[str]) -> list[int]:
    """Every number ``analyze_branch`` may ask ``before_cut`` about, known before any history is read:
    the closed items that need history, and the PRs linked to such issues. The loader searches main
    before the cut for all of them while it reads the ranges after the cut, then answers from that."""
    skip = {s.lower() for s in skip_labels}
    numbers: set[int] = set()
    for item in items:
        if _open_verdict(item, skip) is None:
            numbers.add(item.number)
            if item.kind is ItemKind.ISSUE:
                numbers.update(item.linked_prs)
    return sorted(numbers)


def _open_verdict(item: MilestoneItem, skip: set[str]) -> ItemDiff | None:
    """Verdicts that need no history: skipped, open, closed without merge."""
    diff = partial(ItemDiff, number=item.number, title=item.title, html_url=item.html_url)
    skipped = skip & {label.lower() for label in item.labels}
    if skipped:
        return diff(verdict=Verdict.SKIPPED, note="labelled " + ", ".join(sorted(skipped)))
    if item.state is ItemState.OPEN:
        verdict = Verdict.NOT_MERGED if item.kind is ItemKind.PULL else Verdict.OPEN_ISSUE
        return diff(verdict=verdict, note="still open")
    if item.state is ItemState.CLOSED_UNMERGED and item.kind is ItemKind.PULL:
        return diff(verdict=Verdict.NOT_MERGED, note="closed without merge")
    if item.kind is ItemKind.ISSUE and item.state_reason in _NO_FIX_EXPECTED:
        return diff(verdict=Verdict.SKIPPED, note=_NO_FIX_EXPECTED[item.state_reason])
    return None


def analyze_branch(
    *,
    trunk: Sequence[CommitRecord],
    branch: Sequence[CommitRecord],
    items: Sequence[MilestoneItem],
    repository: str,
    patch_ids: Callable[[Iterable[str]], dict[str, str]],
    before_cut: Callable[[list[int]], dict[int, CommitRecord]],
    contains_before_cut: Callable[[str], bool] = lambda sha: False,
    in_cut: Callable[[list[str]], set[str]] | None = None,
    skip_labels: Sequence[str] = ("release-feature-request",),
    release_only_patterns: Sequence[str] = DEFAULT_RELEASE_ONLY,
) -> BranchDiffReport:
    """Judge every milestone item against the branch, find owed reverts and branch-only fixes."""
    patterns = compile_patterns(release_only_patterns)
    t = index_trunk(trunk, repository)
    b = index_branch(branch, repository)
    skip = {s.lower() for s in skip_labels}

    decided: dict[int, ItemDiff] = {}
    subjects: list[_Subject] = []
    for item in items:
        early = _open_verdict(item, skip)
        if early is not None:
            decided[item.number] = early
        else:
            subjects.append(_subject(item, t, b, repository))

    unlinked = [c for c in branch if len(c.parents) <= 1 and not b.linked_to(c, t)]
    pids, patch_picks = _patch_evidence(subjects, unlinked, trunk, t, b, patch_ids)
    picked_by_patch = {sha for picks in patch_picks.values() for sha in picks}

    def evidence_for(sha: str) -> list[Evidence]:
        return evidence_for_sha(sha, t, b, patch_picks)

    # The ancestry checks of the reverts owed run while the search before the cut is still going.
    owed = reverts_owed(
        t, b, evidence_for=evidence_for, contains_before_cut=contains_before_cut, repository=repository, in_cut=in_cut
    )
    absent = sorted({n for s in subjects if not s.trunk_shas for n in _earlier_keys(s)})
    earlier = before_cut(absent) if absent else {}

    for s in subjects:
        decided[s.item.number] = _judge(s, evidence_for, earlier, pids, t, b.undone)

    return BranchDiffReport(
        items=tuple(decided[i.number] for i in items),
        reverts_to_propagate=owed,
        missing_in_main=_missing_in_main(unlinked, picked_by_patch, b, t, patterns),
        release_only_patterns=tuple(release_only_patterns),
    )


def _patch_evidence(
    subjects: Sequence[_Subject],
    unlinked: Sequence[CommitRecord],
    trunk: Sequence[CommitRecord],
    t: TrunkIndex,
    b: BranchIndex,
    patch_ids: Callable[[Iterable[str]], dict[str, str]],
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Ask ``patch_ids`` ONCE; return the ids and, per trunk commit, the unlinked branch commits with its patch.

    The batch holds the branch commits without a reference to trunk, the items' trunk commits and
    their reference picks (to spot edited picks), trunk revert targets, and trunk commits titled
    like an unlinked branch commit (re-authored picks of PRs outside the milestone).
    """
    wanted: set[str] = {c.sha for c in unlinked}
    for s in subjects:
        wanted.update(s.trunk_shas)
        for sha in s.trunk_shas:
            wanted.update(e.commit for e in evidence_for_sha(sha, t, b, {}) if e.kind in _REFERENCE_KINDS)
    wanted.update(target for _, target in t.reverts if target in t.by_sha)
    titles = {refs.normalized_subject(c.subject) for c in unlinked}
    if titles:
        wanted.update(c.sha for c in trunk if refs.normalized_subject(c.subject) in titles)
    pids = patch_ids(sorted(wanted)) if wanted else {}

    trunk_by_pid: dict[str, list[str]] = defaultdict(list)
    for sha, pid in pids.items():
        if sha in t.by_sha:
            trunk_by_pid[pid].append(sha)
    patch_picks: dict[str, list[str]] = defaultdict(list)
    for c in unlinked:
        for trunk_sha in trunk_by_pid.get(pids.get(c.sha, ""), ()):
            patch_picks[trunk_sha].append(c.sha)
    return pids, patch_picks


def _judge(
    s: _Subject,
    evidence_for: Callable[[str], list[Evidence]],
    earlier: dict[int, CommitRecord],
    pids: dict[str, str],
    t: TrunkIndex,
    undone: set[str],
) -> ItemDiff:
    item = s.item
    diff = partial(ItemDiff, number=item.number, title=item.title, html_url=item.html_url, commits=tuple(s.trunk_shas))
    evidence = unique([e for sha in s.trunk_shas for e in evidence_for(sha)] + s.direct)
    taken_back = [e.commit for e in evidence if e.commit in undone]
    evidence = tuple(e for e in evidence if e.commit not in undone)
    if taken_back and not evidence:
        return diff(
            verdict=Verdict.NEEDS_REVIEW, note=f"picked ({taken_back[0][:12]}), then reverted on the release branch"
        )
    if s.trunk_shas:
        if evidence:
            return diff(verdict=_landed_verdict(s, evidence, pids), evidence=evidence)
        if all(sha in t.reverted for sha in s.trunk_shas):
            return diff(
                verdict=Verdict.NEEDS_REVIEW, note="merged, then reverted on main: nothing to pick unless it relands"
            )
        return diff(verdict=Verdict.MISSING, note=f"on main after the cut ({s.trunk_shas[0][:12]}), not in the branch")
    before = list({earlier[n].sha: earlier[n] for n in _earlier_keys(s) if n in earlier}.values())
    if before:
        return diff(
            verdict=Verdict.LANDED_BEFORE_CUT,
            evidence=tuple(Evidence(EvidenceKind.BEFORE_CUT, c.sha, "on main before the cut") for c in before),
            commits=tuple(c.sha for c in before),
        )
    if evidence:
        return diff(
            verdict=Verdict.LANDED, evidence=evidence, note="no trunk commit after the cut; landed on the branch"
        )
    what = (
        "no commit on main or in the branch says it fixes it"
        if item.kind is ItemKind.ISSUE
        else "merged, but no commit on main or in the branch names it"
    )
    return diff(verdict=Verdict.NEEDS_REVIEW, note=what)


def _landed_verdict(s: _Subject, evidence: tuple[Evidence, ...], pids: dict[str, str]) -> Verdict:
    """LANDED_MODIFIED when every reference pick's patch differs from the trunk commit's."""
    kinds = {e.kind for e in evidence}
    if EvidenceKind.PATCH_ID in kinds or EvidenceKind.BULK_PICK in kinds:
        return Verdict.LANDED
    trunk_pids = {pids[sha] for sha in s.trunk_shas if sha in pids}
    picks = {e.commit for e in evidence if e.kind in _REFERENCE_KINDS}
    if not trunk_pids or not picks:
        return Verdict.LANDED
    return Verdict.LANDED if any(pids.get(p) in trunk_pids for p in picks) else Verdict.LANDED_MODIFIED


def _missing_in_main(
    unlinked: Sequence[CommitRecord],
    picked_by_patch: set[str],
    b: BranchIndex,
    t: TrunkIndex,
    patterns: Sequence[re.Pattern[str]],
) -> tuple[CommitRecord, ...]:
    """Branch commits that are no pick of any kind, no undo of a branch commit, and no housekeeping."""
    undo_targets = {c.sha for c in b.commits} | t.reverted
    out = []
    for c in unlinked:
        if c.sha in picked_by_patch or any(p.search(c.subject) for p in patterns):
            continue
        target = b.refs[c.sha].reverts
        if target and any(s.startswith(target) for s in undo_targets):
            continue
        out.append(c)
    return tuple(out)


def rc_delta(commits: Sequence[CommitRecord], base: str, head: str, repository: str) -> RCDelta:
    """What changed between two refs (RC tags): the commits, and every PR they refer to."""
    prs: set[int] = set()
    for c in commits:
        prs |= refs.all_prs(c, repository)
    return RCDelta(base=base, head=head, commits=tuple(commits), prs=tuple(sorted(prs)))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def branch_gate(report: BranchDiffReport) -> Gate:
    """``branch_diff_clean``: RED for missing items or owed reverts, AMBER for things to look at."""
    by = defaultdict(list)
    for i in report.items:
        by[i.verdict].append(i)
    red = [
        (len(by[Verdict.MISSING]), "missing", "missing"),
        (len(report.reverts_to_propagate), "revert owed", "reverts owed"),
    ]
    amber = [
        (len(by[Verdict.LANDED_MODIFIED]), "landed modified", "landed modified"),
        (len(by[Verdict.NEEDS_REVIEW]), "needs review", "need review"),
        (len(report.missing_in_main), "fix only on the branch", "fixes only on the branch"),
    ]
    parts = [_count(n, one, many) for n, one, many in red + amber if n]
    if any(n for n, _, _ in red):
        status = GateStatus.RED
    elif parts:
        status = GateStatus.AMBER
    else:
        status = GateStatus.GREEN
    landed = sum(len(by[v]) for v in (Verdict.LANDED, Verdict.LANDED_MODIFIED, Verdict.LANDED_BEFORE_CUT))
    summary = ", ".join(parts) if parts else f"clean: {landed} landed"
    details = [
        f"#{i.number} {i.title}: {i.verdict.value}"
        for v in (Verdict.MISSING, Verdict.LANDED_MODIFIED, Verdict.NEEDS_REVIEW)
        for i in by[v]
    ]
    details += [f"revert owed: {r.revert_subject} ({r.revert_sha[:12]})" for r in report.reverts_to_propagate]
    details += [f"only on the branch: {c.subject} ({c.sha[:12]})" for c in report.missing_in_main]
    return Gate(
        name="branch_diff_clean",
        title=gate_title("branch_diff_clean"),
        status=status,
        summary=summary,
        details=tuple(details),
    )
