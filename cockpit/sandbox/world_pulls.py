"""The core repository's pull requests onto the release branch, and the milestone's PRs that never merged.

A merged release PR stands behind every release-branch commit made through one; ``open_release_pr``
opens one with no commit on the branch (under review, aimed at the wrong base, or rejected) for the
tracker's requests to name; ``unmerged_pulls`` files the milestone's open and closed-unmerged PRs.
"""

from __future__ import annotations

from cockpit.sandbox.model import SbPull, SbRepo
from cockpit.sandbox.world_milestones import MILESTONE, NEXT_MILESTONE, CoreFacts
from cockpit.sandbox.world_names import (
    CONTRIBUTORS,
    CORE,
    DAY,
    HOUR,
    PICKBOT,
    RELEASE_MANAGERS,
    T_CUT,
    T_END,
    fake_sha,
    iso,
)
from cockpit.sandbox.world_plan import HistoryPlan


def release_prs(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> None:
    """A merged release-branch PR for every release-branch commit made through one."""
    branch = plan.branch_name
    for commit in plan.branch:
        if commit.release_pr is None:
            continue
        picked = [plan.trunk[i] for i in commit.picks]
        subject = commit.message.split("\n", 1)[0]
        title = f"[{branch}] {picked[0].title}" if len(picked) == 1 else subject.rsplit(" (#", 1)[0]
        by_bot = commit.committer == PICKBOT
        author = PICKBOT.login if by_bot else (picked[0].author.login if len(picked) == 1 else commit.committer.login)
        head = (
            f"cherry-pick-{picked[0].pr}-by-{PICKBOT.login}"
            if by_bot
            else f"{author}/{commit.role}-{commit.release_pr}"
        )
        opened = commit.time - 20 * HOUR
        repo.pulls.append(
            SbPull(
                commit.release_pr,
                title,
                author,
                branch,
                head,
                "closed",
                True,
                commit.message.split("\n", 2)[-1].strip(),
                ["release notes: releng"] if not picked else [],
                [],
                None,
                iso(opened),
                iso(commit.time),
                iso(commit.time),
                iso(commit.time),
                commit.sha,
                fake_sha("head", CORE, commit.release_pr),
            )
        )
        key = (
            commit.role
            if not picked or commit.role == "bulk"
            else next(r for r, i in plan.roles.items() if i == commit.picks[0])
        )
        facts.release_prs[key] = commit.release_pr


def open_release_pr(
    plan: HistoryPlan,
    repo: SbRepo,
    role: str,
    *,
    base: str | None = None,
    state: str = "open",
    author: str = "",
    title: str = "",
) -> int:
    """A release PR with no commit on the branch (under review, aimed wrong, or rejected).

    ``role`` names the trunk commit it picks; for a PR that is not on main, give ``title``.
    """
    trunk = plan.by_role(role) if role in plan.roles else None
    index = trunk.index if trunk else len(plan.trunk) - 5
    when = (trunk.time if trunk else T_END - 4 * DAY) + 8 * HOUR
    number = plan.numbers.after(index)
    title = f"[{plan.branch_name}] {trunk.title if trunk else title}"
    closed = iso(when + 3 * DAY) if state == "closed" else None
    repo.pulls.append(
        SbPull(
            number,
            title,
            author or (trunk.author.login if trunk else CONTRIBUTORS[4].login),
            base or plan.branch_name,
            f"cherry-pick-{trunk.pr if trunk else number}-by-{PICKBOT.login}",
            state,
            False,
            "Cherry pick of the trunk fix onto the release branch.",
            [],
            [],
            None,
            iso(when),
            closed or iso(when + HOUR),
            closed,
            None,
            None,
            fake_sha("head", CORE, number),
        )
    )
    return number


def unmerged_pulls(
    plan: HistoryPlan, repo: SbRepo, facts: CoreFacts, extra_closed: int, all_green: bool = False
) -> None:
    """Milestone PRs that never merged: open ones, closed ones, and a number prefix of a picked PR.

    ``all_green``: the open ones were moved to the next milestone.
    """
    collision = plan.numbers.take(plan.trunk_pr("pick_x1") // 10)
    specs = [
        (plan.numbers.after(len(plan.trunk) - 20), "open", "trunk_open", "Fix cudnn version check for 9.3"),
        (plan.numbers.after(len(plan.trunk) - 12), "open", "open_pr", "Support cp313t in the wheel smoke test"),
        (collision, "closed", "closed_collision", "Add legacy serialization fallback"),
        *[
            (
                plan.numbers.after(plan.cut + 5 + k),
                "closed",
                f"closed_{k}",
                f"Try a faster path for {['gelu', 'cumsum', 'topk'][k % 3]}",
            )
            for k in range(1 + extra_closed)
        ],
    ]
    for number, state, role, title in specs:
        author = CONTRIBUTORS[number % len(CONTRIBUTORS)].login
        when = T_END - 6 * DAY if state == "open" else T_CUT - 20 * DAY
        moved = all_green and state == "open"
        repo.pulls.append(
            SbPull(
                number,
                title,
                author,
                "main",
                f"{author}/{role}",
                state,
                False,
                f"{title}.\n\ncc @{RELEASE_MANAGERS[0].login}",
                ["module: cuda" if state == "open" else "Stale"],
                [],
                NEXT_MILESTONE if moved else MILESTONE,
                iso(when),
                iso(when + 2 * DAY),
                iso(when + 2 * DAY) if state == "closed" else None,
                None,
                None,
                fake_sha("head", CORE, number),
            )
        )
        if not moved:
            facts.verdicts[str(number)], facts.evidence[str(number)] = "not_merged", []
        facts.issues[role] = number
