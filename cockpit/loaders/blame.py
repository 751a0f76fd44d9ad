"""The commits to blame for a red build and for a wheel's size jump, read from the clone (issue 29 section 3).

Git only, and only for what is red or grew: one ``git log good..bad`` and one ``diff-tree`` batch
per blame (the changed paths, read in the scratch object directory of the pick predictions, so
a read-only session may ask too). A range the clone cannot read (not fetched yet) is that blame's
``trouble``, never the pane's failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cockpit.domain.blame import CIBlame, SizeJump
from cockpit.domain.ci import RepoCIVerdict
from cockpit.domain.commits import CommitRecord
from cockpit.domain.gates import GateStatus
from cockpit.errors import GitError

if TYPE_CHECKING:
    from cockpit.ports import Ports

MAX_COMMITS = 200  # a range longer than this is listed by its newest commits


def _read(backend: Ports, good: str, bad: str) -> tuple[list[CommitRecord], dict[str, frozenset[str]]]:
    commits = backend.git.log(f"{good}..{bad}")[:MAX_COMMITS]
    if not commits:
        return [], {}
    with backend.git.scratch_merges() as lab:
        return commits, lab.changed_paths(c.sha for c in commits)


def ci_blames(backend: Ports, branches: Sequence[RepoCIVerdict], rc_builds: Sequence[RepoCIVerdict]) -> list[CIBlame]:
    """A blame for each red release branch of the core (since its last green commit) and each red RC
    build (since the previous RC tag)."""
    from cockpit.loaders.branch import rc_tags
    from cockpit.services.ci_blame import ci_blame

    asked: list[tuple[RepoCIVerdict, str, str, str]] = []
    for v in branches:
        if v.status is GateStatus.RED and v.repository == backend.repository and v.head_sha and v.last_green_sha:
            asked.append((v, v.last_green_sha, v.head_sha, "the last green commit"))
    red_tags = [v for v in rc_builds if v.status is GateStatus.RED and v.repository == backend.repository]
    if red_tags:
        try:
            tags = rc_tags(backend)
        except (GitError, OSError):
            tags = []
        for v in red_tags:
            if v.ref in tags and tags.index(v.ref) > 0:
                asked.append((v, tags[tags.index(v.ref) - 1], v.ref, "the previous RC"))
    out = []
    for v, good, bad, good_is in asked:
        failed = tuple(dict.fromkeys(j.name for j in v.failed))
        try:
            commits, paths = _read(backend, good, bad)
        except GitError as exc:
            out.append(CIBlame(v.repository, v.ref, good, bad, failed, trouble=f"{exc.message}: fetch the branch"))
            continue
        out.append(ci_blame(v.repository, v.ref, good, bad, failed, commits, paths, good_is=good_is))
    return out


def size_jumps(
    backend: Ports, rc_sizes: Mapping[str, Mapping[str, int]], release: tuple[str, Mapping[str, int]]
) -> list[SizeJump]:
    """Each wheel that jumped between two consecutive builds (the previous release, then each recorded
    RC), with the commits between their tags, reverts netted out."""
    from cockpit.services.ci_blame import jumps_between_builds, size_jump
    from cockpit.services.variant_sizes import history_of

    st = backend.config.storage
    found = jumps_between_builds(history_of(rc_sizes, release), jump_ratio=st.size_jump_ratio, jump_mb=st.size_jump_mb)
    out = []
    read: dict[tuple[str, str], tuple[list[CommitRecord], dict[str, frozenset[str]]]] = {}
    for variant, filename, before, after in found:
        span = (before[0], after[0])
        try:
            if span not in read:
                read[span] = _read(backend, *span)
        except GitError as exc:
            out.append(SizeJump(variant, filename, *span, before[1], after[1], trouble=exc.message))
            continue
        commits, paths = read[span]
        out.append(size_jump(variant, filename, before, after, commits, paths, backend.repository))
    return out
