"""The core repository on the fictional GitHub: pull requests, the milestone's items and verdicts.

``core_repo`` turns a written ``HistoryPlan`` into an ``SbRepo`` and records, in ``truth``, the
verdict and the evidence the branch diff must find for every milestone item (see ``world.py``).
It stages the merged trunk PRs and the refs itself; the milestones and verdicts come from
``world_milestones``, the release-branch and unmerged PRs from ``world_pulls``, the issues from
``world_issues``.
"""

from __future__ import annotations

from cockpit.domain.commits import Verdict
from cockpit.sandbox.model import SbPull, SbRepo
from cockpit.sandbox.world_issues import milestone_issues, skipped_items
from cockpit.sandbox.world_milestones import MILESTONE, NEXT_MILESTONE, CoreFacts, evidence, milestone_roles, milestones
from cockpit.sandbox.world_names import CORE, DAY, HOUR, PR_LABELS, fake_sha, iso
from cockpit.sandbox.world_plan import HistoryPlan
from cockpit.sandbox.world_pulls import release_prs, unmerged_pulls


def core_repo(
    plan: HistoryPlan, *, open_issues: int = 0, closed_unmerged: int = 0, all_green: bool = False
) -> tuple[SbRepo, CoreFacts]:
    """The core repository with its pulls, milestones, issues and release PRs (no comments yet).

    ``all_green``: the release manager moved everything unfinished to the next milestone: PRs
    missing from the branch, the pick that landed modified, open items and issues needing review.
    """
    repo = SbRepo(CORE)
    facts = CoreFacts()
    repo.milestones = milestones(plan)
    in_milestone = milestone_roles(plan)
    moved = (
        {r for r, v in in_milestone.items() if v in (Verdict.MISSING, Verdict.LANDED_MODIFIED)} if all_green else set()
    )
    in_milestone = {r: v for r, v in in_milestone.items() if r not in moved}
    for commit in plan.trunk:
        if commit.pr is None:
            continue
        login = commit.author.login
        labels = ["Merged", "ciflow/trunk", PR_LABELS[2 + commit.index % (len(PR_LABELS) - 2)]]
        body = commit.paragraph + "".join(f"\n\n{line}" for line in commit.extra)
        repo.pulls.append(
            SbPull(
                commit.pr,
                commit.title,
                login,
                "main",
                f"gh/{login}/{commit.index}/head",
                "closed",
                True,
                body,
                labels,
                [],
                MILESTONE if commit.role in in_milestone else NEXT_MILESTONE if commit.role in moved else None,
                iso(commit.time - 2 * DAY - commit.index % 7 * HOUR),
                iso(commit.time),
                iso(commit.time),
                iso(commit.time),
                commit.sha,
                fake_sha("head", CORE, commit.pr),
            )
        )
    for role, verdict in in_milestone.items():
        number = plan.by_role(role).pr
        facts.verdicts[str(number)] = verdict
        facts.evidence[str(number)] = evidence(plan, role)
    release_prs(plan, repo, facts)
    milestone_issues(plan, repo, facts, open_issues, all_green)
    unmerged_pulls(plan, repo, facts, closed_unmerged, all_green)
    skipped_items(plan, repo, facts)
    _refs(plan, repo)
    return repo, facts


def _refs(plan: HistoryPlan, repo: SbRepo) -> None:
    branch = plan.branch_name
    repo.branches = {
        "main": plan.trunk[-1].sha,
        branch: plan.branch[-1].sha,
        f"orig/{branch}": plan.trunk[plan.cut].sha,
    }
    repo.branch_history = {
        branch: [c.sha for c in reversed(plan.branch[-10:])],
        "main": [c.sha for c in reversed(plan.trunk[-10:])],
    }
