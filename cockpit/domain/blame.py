"""Which commits turned a build red, and which grew a wheel: the commits between a good build and a bad
one, each with what it came from and what it touched (issue 29 section 3)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BlamedCommit:
    """A commit between the good build and the bad one. ``picked_from``: the PRs (``#N``) and trunk
    commits its message names; ``paths``: what it changed; ``hits``: its paths that share a word with
    a failing job's name (``torchlet/distributed/c10d.py ~ test (distributed, 1, 2)``)."""

    sha: str
    subject: str
    picked_from: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    hits: tuple[str, ...] = ()


@dataclass(frozen=True)
class CIBlame:
    """A red build of ``ref`` against the last green one: ``good`` and ``bad`` are commits or RC tags."""

    repository: str
    ref: str
    good: str
    bad: str
    failed_jobs: tuple[str, ...] = ()
    commits: tuple[BlamedCommit, ...] = ()
    summary: str = ""
    trouble: str = ""  # why the commits could not be listed (the clone lacks them, say)


@dataclass(frozen=True)
class SizeJump:
    """One wheel of ``variant`` that grew beyond the threshold from build ``before`` to build ``after``,
    with the commits between the two (reverts and the commits they revert netted out)."""

    variant: str
    filename: str
    before: str
    after: str
    before_bytes: int
    after_bytes: int
    commits: tuple[BlamedCommit, ...] = ()
    netted: int = 0  # commits left out: reverts and what they reverted, both in the range
    trouble: str = ""
