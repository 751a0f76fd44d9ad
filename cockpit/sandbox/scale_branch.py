"""The release branch of the PyTorch-shaped history (``scale_plan``): one pick per planted shape, in time order."""

from __future__ import annotations

import random

from cockpit.sandbox.scale_model import HOUR, Numbers, Pick, ScalePlan, trunk_time
from cockpit.sandbox.world_names import OBJECTS, TARGETS

SINGLE = {
    "x_pick": "x_pick",
    "issue_fix_picked": "x_pick",
    "picked_revert_owed": "x_pick",
    "picked_revert_taken": "x_pick",
    "branch_reverted": "x_pick",
    "conflict": "conflict",
    "pr_plain": "pr_plain",
    "pr_trailer": "pr_trailer",
    "retitled": "retitled",
}


def plan_branch(
    rng: random.Random,
    plan: ScalePlan,
    nums: Numbers,
    roles: dict[int, str],
    extra_picks: list[int],
    reauthored: list[int],
) -> None:
    """Fill ``plan.branch``: picks of every planted shape, reverts on both sides, release-only commits."""
    cut_time = trunk_time(plan.cut)

    def after(i: int, lo: int = 2, hi: int = 30) -> int:
        return trunk_time(i) + rng.randint(lo, hi) * HOUR

    branch = [
        Pick("bump", cut_time + HOUR, release_pr=nums.free_near(plan.cut)),
        Pick("pin", cut_time + 20 * HOUR, release_pr=nums.free_near(plan.cut + 100)),
    ]
    bulk: list[int] = []
    for i, role in sorted(roles.items()):
        shape = SINGLE.get(role)
        if shape:
            number = nums.free_near(i) if shape in ("pr_plain", "pr_trailer") else None
            branch.append(Pick(shape, after(i), [i], number))
            if role == "branch_reverted":
                branch.append(
                    Pick("revert_branch", branch[-1].time + 2 * HOUR + HOUR * rng.randint(0, 48), undoes=branch[-1])
                )
        elif role == "bulk":
            bulk.append(i)
            if len(bulk) == 3 + len(branch) % 3:
                branch.append(Pick("bulk", after(bulk[-1]), bulk, nums.free_near(bulk[-1])))
                bulk = []
        elif role in ("revert_of_picked_revert_taken", "pre_taken"):
            branch.append(Pick("x_pick", after(i, 31, 60), [i]))  # after the pick of what it reverts
    if bulk:
        branch.append(Pick("bulk", after(bulk[-1]), bulk, nums.free_near(bulk[-1])))
    branch += [Pick("x_pick", after(i), [i]) for i in extra_picks]
    branch += [Pick("reauthored", after(i), [i]) for i in reauthored]
    span = len(plan.trunk) - 1 - plan.cut
    for k in range(max(3, len(plan.items) // 200)):
        at = plan.cut + 1 + (k + 1) * span // (k + 2)
        branch.append(
            Pick(
                "branch_fix",
                after(at),
                release_pr=nums.free_near(at),
                title=f"Fix {rng.choice(OBJECTS)} {rng.choice(TARGETS)} on the release branch",
            )
        )
    branch.sort(key=lambda p: p.time)
    plan.branch = branch
