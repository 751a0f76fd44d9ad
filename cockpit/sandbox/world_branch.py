"""The release branch's plan: release-only commits and one pick of every shape, in time order."""

from __future__ import annotations

import random

from cockpit.sandbox.world_names import (
    DAY,
    HOUR,
    PICKBOT,
    RELEASE_MANAGERS,
    T_CUT,
    T_END,
    Person,
)
from cockpit.sandbox.world_plan import REVERTS, X_PICKS, BranchCommit, HistoryPlan

OWED_REVERTS = ("revert_picked", "revert_pre_owed")  # reverts on main whose target the branch carries


def _index_at(plan: HistoryPlan, when: int) -> int:
    """The trunk commit landing around ``when`` (for numbering things opened then)."""
    post = len(plan.trunk) - 1 - plan.cut
    return min(len(plan.trunk) - 1, plan.cut + max(0, (when - T_CUT) * post // (T_END - T_CUT)))


def plan_branch(rng: random.Random, plan: HistoryPlan, files: dict[str, str], *, all_green: bool = False) -> None:
    """The release branch: release-only commits and one pick of every shape, in time order.

    ``all_green``: the release manager's work is done: the branch also takes the reverts it owes
    (``OWED_REVERTS``), and carries no fix made only on the branch (it would wait for main), nor the
    release-only rewording that makes an owed revert conflict (``keep_message``).
    """
    first, second = RELEASE_MANAGERS

    def pick(
        kind: str, roles: list[str], content: str = "v1", committer: Person = first, with_pr: bool = True
    ) -> BranchCommit:
        indices = [plan.roles[r] for r in roles]
        when = max(plan.trunk[i].time for i in indices) + rng.randint(2 * HOUR, 10 * HOUR)
        changes: list[tuple[str, str | None]] = [(files[r], f"{r}:{content}") for r in roles if r in files]
        number = plan.numbers.after(max(indices)) if with_pr else None
        return BranchCommit(kind, when, committer, indices, number, changes)

    def release_only(kind: str, when: int, changes: list[tuple[str, str | None]], committer: Person) -> BranchCommit:
        return BranchCommit(kind, when, committer, [], plan.numbers.after(_index_at(plan, when)), changes)

    branch = [
        release_only("version_bump", T_CUT + 3 * HOUR, [("version.txt", "version:release")], first),
        release_only("pin", T_CUT + DAY, [(".ci/docker/ci_commit_pins/triton.txt", "pin:release")], second),
        *(
            []
            if all_green
            else [
                release_only(
                    "branch_fix", T_CUT + (T_END - T_CUT) * 55 // 100, [(files["branch_fix"], "branch_fix:v1")], first
                ),
                BranchCommit(  # pushed by a release manager, without a PR (none to request on the tracker)
                    "keep_message",
                    T_CUT + (T_END - T_CUT) * 40 // 100,
                    second,
                    [],
                    None,
                    [(files["pre_reverted_owed"], "pre_reverted_owed:branch")],
                ),
            ]
        ),
        pick("pr_plain", ["pick_pr_plain"], committer=second),
        pick("pr_trailer", ["pick_pr_trailer"]),
        pick("bulk", ["bulk_1", "bulk_2", "bulk_3"], committer=second),
        pick("conflict", ["pick_conflict"], content="conflict"),
        pick("noref", ["pick_noref"], committer=second),
        pick("revert_pick", ["revert_pre_taken"], committer=second, with_pr=False),
    ]
    branch[-1].changes = [(files["pre_reverted_taken"], "pre_reverted_taken:v0")]
    for k, role in enumerate(list(X_PICKS) + plan.fill_picks):
        branch.append(pick("x_pick", [role], committer=PICKBOT if k % 2 else first))
    for role in OWED_REVERTS if all_green else ():
        branch.append(pick("revert_pick", [role], committer=second, with_pr=False))
        branch[-1].changes = [(files[REVERTS[role]], f"{REVERTS[role]}:v0")]
    branch.sort(key=lambda c: c.time)
    plan.branch = branch
    plan.rc_after = (len(branch) // 2 - 1, len(branch) - 3)
    picked = next(c for c in branch if plan.roles["pick_reverted"] in c.picks)
    if picked.time >= plan.by_role("revert_picked").time:
        raise RuntimeError("sandbox plan: the reverted pick must land before its revert on main")
