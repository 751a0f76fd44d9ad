"""Which commit turned it red, which commit grew the wheel: the commits between two builds, in words.

Pure: the commits (``git log good..bad``, newest first) and their changed paths come in as data.
A red branch is blamed on the commits after its last green commit; a red RC build on the commits
since the previous RC tag; a wheel's size jump on the commits between the two builds, where a
revert and the commit it reverts, both in the range, cancel out. Each commit says the picks it
came from (``-x`` trailers, ``(#N)`` subjects) and which of its paths share a word with a failing
job's name: a hint where to look, never a verdict.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence

from cockpit.domain.blame import BlamedCommit, CIBlame, SizeJump
from cockpit.domain.commits import CommitRecord
from cockpit.services import refs

_WORD = re.compile(r"[a-z][a-z0-9]*")
# Words of job names that say how a job runs, not what it tests (PyTorch's build and shard names).
_GENERIC_WORDS = (
    "linux jammy focal noble win windows macos arm64 aarch64 amd64 x86 py3 gcc gcc9 gcc11 clang clang10 clang12 "
    "cuda rocm xpu cpu gpu sm86 build test tests default shard unstable nvidia large xlarge vs2022 nonephemeral "
    "stable binary manywheel wheel pull trunk lint job jobs and the for with"
)
_GENERIC = frozenset(_GENERIC_WORDS.split(" "))
MAX_PATHS = 12  # a commit's paths kept in the report (the count says the rest)


def words(text: str) -> set[str]:
    """The telling words of a job name or a path (lower case, three letters or more, not generic)."""
    return {w for w in _WORD.findall(text.lower()) if len(w) >= 3 and w not in _GENERIC}


def _origins(commit: CommitRecord, repository: str) -> tuple[str, ...]:
    prs = [f"#{n}" for n in sorted(refs.trunk_prs(commit, repository) | set(refs.bulk_pick_prs(commit.body)))]
    return (*prs, *(sha[:12] for sha in refs.picked_from(commit.body)))


def blamed(
    commits: Sequence[CommitRecord],
    paths: Mapping[str, Iterable[str]],
    repository: str,
    failed_jobs: Sequence[str] = (),
) -> tuple[BlamedCommit, ...]:
    """Each commit with its origins, its changed paths and the paths that share a word with a failing job."""
    jobs = [(job, words(job)) for job in failed_jobs]
    out = []
    for c in commits:
        changed = sorted(paths.get(c.sha, ()))
        hits = []
        for path in changed:
            shared = words(path)
            for job, said in jobs:
                common = sorted(shared & said)
                if common:
                    hits.append(f"{path} ~ {job} ({', '.join(common)})")
        out.append(BlamedCommit(c.sha, c.subject, _origins(c, repository), tuple(changed[:MAX_PATHS]), tuple(hits)))
    return tuple(out)


def ci_blame(
    repository: str,
    ref: str,
    good: str,
    bad: str,
    failed_jobs: Sequence[str],
    commits: Sequence[CommitRecord],
    paths: Mapping[str, Iterable[str]],
    *,
    good_is: str = "the last green commit",
) -> CIBlame:
    """The red build ``bad`` of ``ref`` blamed on the commits since ``good``."""
    found = blamed(commits, paths, repository, failed_jobs)
    return CIBlame(repository, ref, good, bad, tuple(failed_jobs), found, _summary(found, good, good_is))


def _summary(found: Sequence[BlamedCommit], good: str, good_is: str) -> str:
    since = f"{good_is} ({good[:12]})"
    if not found:
        return f"no commit lies between {since} and the red one: a flaky job or a change outside the branch?"
    if len(found) == 1:
        c = found[0]
        origin = f", picked from {', '.join(c.picked_from)}" if c.picked_from else ""
        return f"one commit lies between {since} and the red one: {c.sha[:12]} {c.subject}{origin}"
    hinted = [c for c in found if c.hits]
    hint = f"; {len(hinted)} touch paths named like a failing job" if hinted else ""
    return f"{len(found)} commits lie between {since} and the red one{hint}"


def netted(commits: Sequence[CommitRecord]) -> tuple[list[CommitRecord], int]:
    """The commits without the reverts whose reverted commit is in the range too (both go); and how many went."""
    by_prefix = {c.sha: c for c in commits}
    gone: set[str] = set()
    for c in commits:
        target = refs.revert_target(c)
        if not target:
            continue
        match = next((sha for sha in by_prefix if sha.startswith(target.lower())), None)
        if match is not None and match not in gone:
            gone |= {c.sha, match}
    return [c for c in commits if c.sha not in gone], len(gone)


def size_jump(
    variant: str,
    filename: str,
    before: tuple[str, int],
    after: tuple[str, int],
    commits: Sequence[CommitRecord],
    paths: Mapping[str, Iterable[str]],
    repository: str,
) -> SizeJump:
    """A wheel's jump from ``before`` to ``after`` (label, bytes), blamed on the commits between, netted."""
    kept, gone = netted(commits)
    found = blamed(kept, paths, repository)
    return SizeJump(variant, filename, before[0], after[0], before[1], after[1], found, gone)


def jumps_between_builds(
    history: Sequence[tuple[str, Mapping[str, int]]], *, jump_ratio: float, jump_mb: float
) -> list[tuple[str, str, tuple[str, int], tuple[str, int]]]:
    """(variant, filename, (label, bytes) before, (label, bytes) after) for each wheel that grew beyond
    ``jump_ratio`` times or ``jump_mb`` megabytes between two consecutive builds of ``history`` (oldest
    first) holding the same wheel (package, variant, Python tag, platform)."""
    from cockpit.services.variant_sizes import MB, by_key

    found = []
    keyed = [(label, by_key(sizes)) for label, sizes in history]
    for (label_a, a), (label_b, b) in itertools.pairwise(keyed):
        for key, (filename, size) in sorted(b.items()):
            if key not in a:
                continue
            old = a[key][1]
            if old > 0 and (size > old * jump_ratio or size - old > jump_mb * MB):
                found.append((f"{key[0]} {key[1] or '(plain)'}", filename, (label_a, old), (label_b, size)))
    return found
