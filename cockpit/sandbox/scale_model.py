"""The PyTorch-shaped history at any size as data: main's commits, the release branch's picks, and
the numbers of PRs and issues (``scale_plan`` fills it, ``scale_branch`` plans the branch,
``scale_history`` writes it)."""

from __future__ import annotations

from dataclasses import dataclass, field

MINUTE, HOUR = 60, 3600
T_FIRST = 1_700_000_000  # the first commit of main; one lands every ten minutes


def trunk_time(i: int) -> int:
    """When trunk commit ``i`` lands on main."""
    return T_FIRST + 10 * MINUTE * i


@dataclass(slots=True)
class Pick:
    """A release-branch commit: ``shape`` says how it names the trunk commits it carries (``picks``)."""

    shape: str  # a scale_branch.SINGLE value, bulk, revert_branch, reauthored, branch_fix, bump, pin
    time: int
    picks: list[int] = field(default_factory=list)
    release_pr: int | None = None
    undoes: Pick | None = None  # the earlier pick a revert on the branch undoes
    title: str = ""
    sha: str = ""


@dataclass(slots=True)
class Trunk:
    """A commit of main. ``file``: the path it adds (milestone PRs) or rewrites (filler)."""

    index: int
    pr: int | None
    title: str
    body: str
    file: str
    role: str = ""  # a scale_plan.POST_SHARES kind, before_cut, issue fix, revert, or "" for filler
    reverts: int | None = None  # trunk index of the commit it reverts
    delete: bool = False  # a revert of a PR's commit deletes the file the PR added
    sha: str = ""

    @property
    def subject(self) -> str:
        return f"{self.title} (#{self.pr})" if self.pr is not None else self.title


@dataclass
class ScalePlan:
    """The whole history: main, the release branch, the cut, the milestone's items and their verdicts."""

    trunk: list[Trunk]
    branch: list[Pick]
    cut: int
    items: list[dict]  # milestone items: number, kind (pull/issue), title, state, labels, state_reason
    verdicts: dict[int, str]


class Numbers:
    """PR numbers rise with main (``base + 1.25 i``); the integers between are issues and release PRs."""

    def __init__(self, n: int) -> None:
        self.base = max(100, n // 8)
        self.prs = [self.base + (5 * i) // 4 for i in range(n)]
        self.index_of = {p: i for i, p in enumerate(self.prs)}
        self.used = set(self.prs)
        self._next = 10

    def free(self) -> int:
        """The lowest number no PR or issue has yet."""
        while self._next in self.used:
            self._next += 1
        self.used.add(self._next)
        return self._next

    def free_near(self, i: int) -> int:
        """The first free number after trunk PR ``i``'s (opened around then)."""
        n = self.prs[i] + 1
        while n in self.used:
            n += 1
        self.used.add(n)
        return n
