"""The plan of a history shaped like PyTorch's, at any size: who lands what, which picks, and the truth.

``plan_scale`` is pure data (no git); ``scale_history`` writes it with one ``git fast-import``
stream. Main is linear like PyTorch's (the merge bot rebases): ``trunk_commits`` commits, the last
``after_cut`` of them after the cut. Messages have the merge bot's shape (``Title (#N)``, a PR body
of realistic length, ghstack lists, ``cc`` lines, ``Pull Request resolved: <url>``, ``Approved
by:``). About ``milestone_prs`` closed milestone PRs are picked in every shape the release branch
shows: ``-x`` picks, ``Title (#N) (#M)`` picks, bulk picks listing bullets ``* Title (#N)``,
re-titled picks only a patch id finds, picks that landed modified, picks reverted on the branch,
PRs reverted on main (picked or not, the revert taken or not), reverts of commits from before the
cut, PRs that landed before the cut, missing ones, and numbers that are prefixes of picked ones.
"""

from __future__ import annotations

import random

from cockpit.sandbox.scale_branch import plan_branch
from cockpit.sandbox.scale_model import Numbers, ScalePlan, Trunk
from cockpit.sandbox.world_names import MODULES, OBJECTS, REVIEWERS, SENTENCES, STEMS, TARGETS, title_for

# Shares of the merged milestone PRs, by how the release branch holds them (the rest landed before the cut).
POST_SHARES = (
    ("x_pick", 0.33),
    ("pr_plain", 0.08),
    ("pr_trailer", 0.07),
    ("bulk", 0.12),
    ("retitled", 0.05),
    ("conflict", 0.03),
    ("missing", 0.10),
    ("main_reverted", 0.02),
    ("branch_reverted", 0.02),
    ("picked_revert_owed", 0.02),
    ("picked_revert_taken", 0.01),
)
VERDICT = {
    "x_pick": "landed",
    "pr_plain": "landed",
    "pr_trailer": "landed",
    "bulk": "landed",
    "retitled": "landed",
    "conflict": "landed_modified",
    "missing": "missing",
    "main_reverted": "needs_review",
    "branch_reverted": "needs_review",
    "picked_revert_owed": "landed",
    "picked_revert_taken": "landed",
    "before_cut": "landed_before_cut",
}
FILLER_FILES = 2048


def _body(rng: random.Random, paragraphs: list[str], prs: list[int], fixes_pool: list[int]) -> list[str]:
    """A PR body as the merge bot copies it: summary paragraphs, sometimes a ghstack list, tests, cc."""
    lines = []
    if prs and rng.random() < 0.15:
        stack = rng.sample(prs[-200:], min(3, len(prs)))
        lines += [
            "Stack from [ghstack](https://github.com/ezyang/ghstack) (oldest at bottom):",
            *[f"* #{n}" for n in stack],
            "* __->__ (this PR)",
            "",
        ]
    lines += [p for _ in range(rng.choice((1, 2, 2, 3, 4, 6, 9))) for p in (rng.choice(paragraphs), "")]
    if prs and rng.random() < 0.08:
        lines += [f"Follow up to #{rng.choice(prs[-500:])}.", ""]
    if rng.random() < 0.05:
        lines += [f"Fixes #{rng.choice(fixes_pool)}", ""]
    if rng.random() < 0.3:
        lines += ["Test Plan:", f"python test/test_{rng.choice(STEMS)}.py -k {rng.choice(TARGETS).split()[0]}", ""]
    if rng.random() < 0.2:
        lines += ["cc " + " ".join(f"@{r}" for r in rng.sample(REVIEWERS, 3)), ""]
    return lines


def _shortened(lines: list[str], limit: int) -> list[str]:
    """The body's first lines up to about ``limit`` bytes (a short message, as many projects write)."""
    kept, size = [], 0
    for line in lines:
        if size + len(line) > limit:
            kept.append(line[: max(0, limit - size)].rstrip())
            break
        kept.append(line)
        size += len(line) + 1
    return [*kept, ""]


def plan_scale(
    rng: random.Random, trunk_commits: int, after_cut: int, milestone_prs: int, body_bytes: int = 0
) -> ScalePlan:
    """Decide every commit, pick and planted verdict (deterministic for ``rng``); ``body_bytes`` > 0
    cuts each PR body to about that many bytes (0: the merge bot's realistic length)."""
    n, m = trunk_commits, milestone_prs
    cut = n - after_cut - 1
    if after_cut < 13 * m // 10 + 60 or cut - n // 3 < 3 * m // 10 + 30:
        raise ValueError(f"{m} milestone PRs do not fit in {n} commits with {after_cut} after the cut")
    nums = Numbers(n)
    fixes_pool = [nums.free() for _ in range(50)]  # issues filler commits fix (none in the milestone)
    paragraphs = [" ".join(rng.sample(SENTENCES, rng.randint(2, 5))) for _ in range(400)]
    plan = ScalePlan([], [], cut, [], {})
    roles: dict[int, str] = {}
    post = list(range(cut + 1, n))
    rng.shuffle(post)
    for kind, share in POST_SHARES:
        for _ in range(max(2, round(m * share))):
            roles[post.pop()] = kind
    pre = list(range(n // 3, cut))
    rng.shuffle(pre)
    for _ in range(max(2, m - sum(1 for _ in roles))):
        roles[pre.pop()] = "before_cut"
    issue_roles = {"issue_fix_picked": post, "issue_fix_missing": post, "issue_fix_precut": pre}
    for role, pool in issue_roles.items():
        for _ in range(max(2, m // 60)):
            roles[pool.pop()] = role
    reverts = {post.pop(): kind for kind in ("pre_taken", "pre_owed", "pre_owed")}  # of commits before the cut
    feature = [post.pop() for _ in range(max(1, m // 200))]
    extra_picks = [post.pop() for _ in range(m // 10)]  # picks of PRs outside the milestone
    reauthored = [post.pop() for _ in range(max(2, m // 200))]  # ... re-authored: only their title and patch tell
    for i in feature + extra_picks + reauthored:
        roles[i] = "outside"
    _plan_trunk(rng, plan, nums, roles, reverts, paragraphs, fixes_pool, pre, body_bytes)
    _plan_items(rng, plan, nums, roles, feature)
    plan_branch(rng, plan, nums, roles, extra_picks, reauthored)
    return plan


def _plan_trunk(
    rng,
    plan: ScalePlan,
    nums: Numbers,
    roles: dict[int, str],
    reverts: dict[int, str],
    paragraphs,
    fixes_pool,
    pre_free: list[int],
    body_bytes: int = 0,
) -> None:
    n = len(nums.prs)
    filler_reverts = dict.fromkeys(rng.sample(range(plan.cut + 20, n), max(2, (n - plan.cut) // 100)))
    revert_of = {}  # revert index -> (target index, delete)
    later = sorted(i for i, r in roles.items() if r in ("main_reverted", "picked_revert_owed", "picked_revert_taken"))
    free_post = sorted(set(range(plan.cut + 1, n)) - roles.keys() - reverts.keys() - filler_reverts.keys())
    for target in later:
        spot = next((j for j in free_post if j > target + 3), None)
        if spot is None:
            raise ValueError("no room on main after the cut for the planted reverts")
        free_post.remove(spot)
        revert_of[spot] = (target, True)
        roles[spot] = "revert_of_" + roles[target]
    for i, kind in reverts.items():
        target = pre_free.pop()
        revert_of[i] = (target, False)
        roles[i], roles[target] = kind, "pre_reverted"
    for i in filler_reverts:
        if i in revert_of or i in roles:
            continue
        free = next((j for j in range(i - 1, plan.cut, -1) if j not in roles and j not in revert_of), None)
        if free is not None:
            revert_of[i] = (free, False)
            roles[i] = "revert_filler"
    titles: set[str] = set()
    for i in range(n):
        role = roles.get(i, "")
        if role == "pre_reverted":
            role = ""
        pr = nums.prs[i]
        title = title_for(rng) if i else "Initial import of torchlet"
        if title in titles:  # titles stay unique, so a revert quoting one names one commit
            title = f"{title} in {MODULES[i % len(MODULES)]}/{STEMS[i // len(MODULES) % len(STEMS)]}_{i}"
        titles.add(title)
        if role and not role.startswith(("revert", "pre_")):
            file = f"torchlet/{MODULES[pr % len(MODULES)]}/fixes/{pr % 97}/pr_{pr}.py"
        else:
            k = rng.randrange(FILLER_FILES)  # a fixed set of files in small folders keeps every tree small
            file = f"torchlet/{MODULES[k % len(MODULES)]}/{STEMS[k // len(MODULES) % len(STEMS)]}/part_{k}.py"
        lines = _body(rng, paragraphs, nums.prs[max(0, i - 600) : i], fixes_pool)
        if body_bytes:
            lines = _shortened(lines, body_bytes)
        commit = Trunk(i, pr, title, "", file, role)
        if i in revert_of:
            target, delete = revert_of[i]
            commit.pr, commit.reverts, commit.delete = None, target, delete
            commit.file = plan.trunk[target].file
        elif role.startswith("issue_fix"):
            lines += ["Fixes #{issue}", ""]  # the issue's number is decided with the milestone
        if commit.reverts is None:
            lines += [
                f"Pull Request resolved: https://github.com/acme/torchlet/pull/{pr}",
                f"Approved by: https://github.com/{rng.choice(REVIEWERS)}",
            ]
        commit.body = "\n".join(lines)
        plan.trunk.append(commit)


def _plan_items(rng, plan: ScalePlan, nums: Numbers, roles: dict[int, str], feature: list[int]) -> None:
    """The milestone: every planted PR and issue, plus open, unmerged and skipped ones, and prefix traps."""

    def add(number, kind, title, state, verdict, labels=(), reason=""):
        plan.items.append(
            {
                "number": number,
                "kind": kind,
                "title": title,
                "state": state,
                "labels": list(labels),
                "state_reason": reason,
            }
        )
        plan.verdicts[number] = verdict

    for i, role in sorted(roles.items()):
        c = plan.trunk[i]
        if role in VERDICT:
            add(c.pr, "pull", c.title, "merged", VERDICT[role])
        elif role.startswith("issue_fix"):
            issue = nums.free_near(i)
            c.body = c.body.replace("Fixes #{issue}", f"Fixes #{issue}")
            verdict = {"issue_fix_picked": "landed", "issue_fix_missing": "missing"}.get(role, "landed_before_cut")
            title = f"{rng.choice(OBJECTS).capitalize()} {rng.choice(TARGETS)} is broken"
            add(issue, "issue", title, "closed", verdict)
    for i in feature:
        add(nums.prs[i], "pull", plan.trunk[i].title, "merged", "skipped", labels=("release-feature-request",))
    k = max(2, len(plan.items) // 40)
    for _ in range(k):
        add(nums.free(), "pull", f"[WIP] {title_for(rng)}", "open", "not_merged")
        add(nums.free(), "pull", title_for(rng), "closed_unmerged", "not_merged")
        add(nums.free(), "issue", f"{rng.choice(TARGETS)} regression", "open", "open_issue")
        add(nums.free(), "issue", f"{rng.choice(TARGETS)} feature idea", "closed", "skipped", reason="not_planned")
    _prefix_traps(plan, nums, roles, add)


def _prefix_traps(plan: ScalePlan, nums: Numbers, roles: dict[int, str], add) -> None:
    """Milestone numbers that are prefixes of picked PRs (``#1234`` vs ``#12345``): an early PR that
    landed before the cut, and a closed issue nothing fixes."""
    picked = sorted(pr for i, r in roles.items() if r == "x_pick" and (pr := plan.trunk[i].pr) is not None)
    early, unfixed = 0, 0
    for p in picked:
        short = p // 10
        j = nums.index_of.get(short)
        if j is not None and early < 4 and j < plan.cut and j not in roles and j > 0:
            roles[j] = "before_cut"
            plan.trunk[j].file = f"torchlet/{MODULES[short % len(MODULES)]}/fixes/{short % 97}/pr_{short}.py"
            add(short, "pull", plan.trunk[j].title, "merged", "landed_before_cut")
            early += 1
        elif j is None and short not in nums.used and unfixed < 4:
            nums.used.add(short)
            add(short, "issue", f"Crash in {TARGETS[short % len(TARGETS)]}", "closed", "needs_review")
            unfixed += 1
