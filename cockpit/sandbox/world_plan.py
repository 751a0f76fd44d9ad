"""The plan of the core repository's history as data: roles, trunk and release-branch commits.

``world_history.plan_history`` fills a ``HistoryPlan``; ``world_commits.write_history`` writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cockpit.sandbox.world_names import Person

# Trunk commits after the cut, in the order they land on main (fill roles are spread among them).
POST_ROLES = (
    "main_bump",
    "pick_x1",
    "filler_reverted",
    "pick_pr_plain",
    "bulk_1",
    "issue_fix_picked",
    "pick_x2",
    "pick_conflict",
    "pick_reverted",
    "pick_noref",
    "bulk_2",
    "missing_1",
    "revert_pre_taken",
    "pick_x3",
    "pick_pr_trailer",
    "revert_filler",
    "bulk_3",
    "missing_2",
    "issue_fix_missing",
    "pick_x4",
    "revert_picked",
    "revert_pre_owed",
    "missing_3",
    "missing_4",
    "missing_5",
)
PRE_ROLES = (
    "before_cut_1",
    "pre_reverted_owed",
    "issue_fix_precut",
    "before_cut_2",
    "pre_reverted_taken",
    "before_cut_3",
)
REVERTS = {
    "revert_picked": "pick_reverted",
    "revert_pre_owed": "pre_reverted_owed",
    "revert_pre_taken": "pre_reverted_taken",
    "revert_filler": "filler_reverted",
}
X_PICKS = ("pick_x1", "pick_x2", "pick_x3", "pick_x4", "pick_reverted", "issue_fix_picked")
ISSUE_FIXES = ("issue_fix_picked", "issue_fix_missing", "issue_fix_precut")


@dataclass(slots=True)
class TrunkCommit:
    """A commit of main. ``pr`` is None for the bot's reverts (they have no PR of their own)."""

    index: int
    time: int
    author: Person
    approver: str
    title: str
    pr: int | None
    paragraph: str
    changes: list[tuple[str, str | None]]  # path -> content key (None: delete)
    role: str = ""
    extra: list[str] = field(default_factory=list)  # lines like "Fixes #N"
    reverts: int | None = None  # index of the reverted trunk commit
    sha: str = ""

    @property
    def subject(self) -> str:
        return f"{self.title} (#{self.pr})" if self.pr is not None else self.title


@dataclass(slots=True)
class BranchCommit:
    """A commit of the release branch: a pick of trunk commits (``picks``, trunk indices) or release-only."""

    role: str  # x_pick, pr_plain, pr_trailer, bulk, conflict, noref, revert_pick, version_bump, pin, branch_fix
    time: int
    committer: Person
    picks: list[int] = field(default_factory=list)
    release_pr: int | None = None
    changes: list[tuple[str, str | None]] = field(default_factory=list)
    message: str = ""
    sha: str = ""


class NumberLine:
    """Issue and PR numbers of one repository: one space, increasing with time."""

    def __init__(self, trunk_numbers: list[int]) -> None:
        self._trunk = trunk_numbers
        self.used = set(trunk_numbers)

    def after(self, index: int) -> int:
        """The first free number after the PR of trunk commit ``index`` (i.e. opened around then)."""
        n = self._trunk[max(0, min(index, len(self._trunk) - 1))] + 1
        while n in self.used:
            n += 1
        self.used.add(n)
        return n

    def take(self, number: int) -> int:
        if number in self.used:
            raise ValueError(f"number #{number} is already used")
        self.used.add(number)
        return number


@dataclass
class HistoryPlan:
    version: str
    trunk: list[TrunkCommit]
    branch: list[BranchCommit]
    cut: int  # index of the cut commit on main
    roles: dict[str, int]  # role -> trunk index
    issues: dict[str, int]  # issue-fix role -> the issue number its message fixes
    numbers: NumberLine
    contents: dict[str, str]  # content key -> file text
    rc_after: tuple[int, int] = (0, 0)  # branch positions tagged rc1 and rc2
    fill_picks: list[str] = field(default_factory=list)
    fill_missing: list[str] = field(default_factory=list)
    fill_before_cut: list[str] = field(default_factory=list)

    @property
    def branch_name(self) -> str:
        major, minor = self.version.split(".")[:2]
        return f"release/{major}.{minor}"

    def by_role(self, role: str) -> TrunkCommit:
        return self.trunk[self.roles[role]]

    def trunk_pr(self, role: str) -> int:
        """The PR of the trunk commit playing ``role`` (every commit with a role came from a PR)."""
        pr = self.by_role(role).pr
        assert pr is not None, role
        return pr
