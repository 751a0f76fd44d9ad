"""The core repository's milestones, and what each item of the release's milestone must be judged.

The release's milestone holds the trunk PRs the release wants (picked, landed before the cut, or
still missing from the branch), issues and PRs that never merged; ``CoreFacts`` collects the
verdict and the evidence the branch diff must find for each (``truth["verdicts"]`` and
``truth["evidence"]``, see ``world.py``) and the numbers the tracker's requests name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cockpit.domain.commits import EvidenceKind as E
from cockpit.domain.commits import Verdict
from cockpit.sandbox.model import SbMilestone
from cockpit.sandbox.world_names import DAY, T_CUT, T_END, iso
from cockpit.sandbox.world_plan import X_PICKS, HistoryPlan

MILESTONE, CLOSED_MILESTONE, NEXT_MILESTONE = 12, 11, 13
PLANNING_MILESTONE = 10  # "v2.5": the feature planning of the minor release, closed at the cut
SKIP_LABEL = "release-feature-request"

PICKED = {E.PR_NUMBER, E.PR_URL, E.CHERRY_PICK_TRAILER, E.PATCH_ID}
EVIDENCE_BY_SHAPE = {
    "x_pick": PICKED,
    "pr_plain": {E.PR_NUMBER, E.PATCH_ID},
    "pr_trailer": PICKED,
    "bulk": {E.BULK_PICK},
    "conflict": {E.PR_NUMBER, E.PR_URL, E.CHERRY_PICK_TRAILER},
    "noref": {E.PATCH_ID},
}


@dataclass
class CoreFacts:
    """What the tracker and the truth need beyond the repository itself."""

    release_prs: dict[str, int] = field(default_factory=dict)  # role -> release-branch PR number
    issues: dict[str, int] = field(default_factory=dict)  # role -> issue number
    verdicts: dict[str, str] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)
    tracker: int = 0


def milestones(plan: HistoryPlan) -> list[SbMilestone]:
    """The core's milestones: the minor's feature planning, the last patch release, this release, the next."""
    return [
        SbMilestone(
            PLANNING_MILESTONE,
            f"v{plan.branch_name.removeprefix('release/')}",
            "closed",
            "Features planned for the minor release (closed at the branch cut)",
            iso(T_CUT),
        ),
        SbMilestone(CLOSED_MILESTONE, "2.4.1", "closed", "Patch release 2.4.1", iso(T_CUT - 30 * DAY)),
        SbMilestone(MILESTONE, plan.version, "open", f"The {plan.version} release", iso(T_END + 14 * DAY)),
        SbMilestone(NEXT_MILESTONE, _next_minor(plan.version), "open", "Next minor release", None),
    ]


def _next_minor(version: str) -> str:
    major, minor = version.split(".")[:2]
    return f"{major}.{int(minor) + 1}.0"


def milestone_roles(plan: HistoryPlan) -> dict[str, str]:
    """Trunk PR role -> the verdict its milestone item earns (landed, landed modified, before the cut, missing)."""
    roles = {
        r: Verdict.LANDED
        for r in [
            *X_PICKS,
            *plan.fill_picks,
            "pick_pr_plain",
            "pick_pr_trailer",
            "bulk_1",
            "bulk_2",
            "bulk_3",
            "pick_noref",
        ]
        if r != "issue_fix_picked"
    }
    roles["pick_conflict"] = Verdict.LANDED_MODIFIED
    roles.update(
        dict.fromkeys(
            ["before_cut_1", "before_cut_2", "before_cut_3", *plan.fill_before_cut], Verdict.LANDED_BEFORE_CUT
        )
    )
    roles.update(dict.fromkeys([f"missing_{k}" for k in range(1, 6)] + plan.fill_missing, Verdict.MISSING))
    return {r: str(v) for r, v in roles.items()}


def evidence(plan: HistoryPlan, role: str) -> list[str]:
    """Every kind of evidence the release branch carries for the trunk commit of ``role``."""
    index = plan.roles[role]
    if index <= plan.cut:
        return [str(E.BEFORE_CUT)]
    for commit in plan.branch:
        if index in commit.picks:
            return sorted(str(k) for k in EVIDENCE_BY_SHAPE[commit.role])
    return []
