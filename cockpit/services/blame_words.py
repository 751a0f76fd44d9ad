"""The CI blame and the size jumps in words, for the detail views, the gate's details and the report."""

from __future__ import annotations

from collections.abc import Sequence

from cockpit.domain.blame import BlamedCommit, CIBlame, SizeJump
from cockpit.services.rc_sizes import megabytes, short_tag

SHOWN = 6  # commits listed in a detail; the count says the rest


def commit_lines(commits: Sequence[BlamedCommit], *, indent: str = "  ") -> list[str]:
    """One line per commit (its origins, how many paths), and a line per path named like a failing job."""
    lines = []
    for c in commits[:SHOWN]:
        origin = f" (from {', '.join(c.picked_from)})" if c.picked_from else ""
        touched = ", ".join(c.paths[:2]) + (f" +{len(c.paths) - 2}" if len(c.paths) > 2 else "")
        lines.append(f"{indent}{c.sha[:12]} {c.subject}{origin}" + (f" · {touched}" if touched else ""))
        lines += [f"{indent}  ~ {hit}" for hit in c.hits[:3]]
    if len(commits) > SHOWN:
        lines.append(f"{indent}... and {len(commits) - SHOWN} more")
    return lines


def blame_lines(blame: CIBlame) -> list[str]:
    """The detail of a red build: which commits lie between green and red, and what they touched."""
    if blame.trouble:
        return [f"Blame: the commits {blame.good[:12]}..{blame.bad[:12]} could not be read: {blame.trouble}"]
    if len(blame.commits) == 1:  # the summary names it already: its paths and hints only
        c = blame.commits[0]
        touched = ", ".join(c.paths[:3]) + (f" +{len(c.paths) - 3}" if len(c.paths) > 3 else "")
        return [
            f"Blame: {blame.summary}",
            *([f"  it changed {touched}"] if touched else []),
            *(f"  ~ {h}" for h in c.hits[:3]),
        ]
    return [f"Blame: {blame.summary}", *commit_lines(blame.commits)]


def jump_lines(jump: SizeJump) -> list[str]:
    """A wheel's size jump with the commits between its two builds."""
    head = (
        f"{jump.variant}: {jump.filename} grew {megabytes(jump.before_bytes)} -> {megabytes(jump.after_bytes)} MB "
        f"from {short_tag(jump.before)} to {short_tag(jump.after)}"
    )
    if jump.trouble:
        return [head, f"  the commits between could not be read: {jump.trouble}"]
    net = f" ({jump.netted} reverts and reverted commits netted out)" if jump.netted else ""
    count = len(jump.commits)
    said = "one commit" if count == 1 else f"{count} commits"
    return [f"{head}; {said} between{net}:", *commit_lines(jump.commits)]
