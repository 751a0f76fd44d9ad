"""The tracker's requests that hold the release: under review, aimed at the wrong base, missing a
link or a release PR, rejected, marked do-not-merge, and one naming another repository's PRs.

Each needs a release PR with no commit on the branch, opened (``open_held_release_prs``) before any
other number is taken for the tracker; an all-green world plants none of them.
"""

from __future__ import annotations

from cockpit.domain.picks import PickFlag as F
from cockpit.domain.picks import PickStatus as S
from cockpit.sandbox.model import SbRepo
from cockpit.sandbox.world_milestones import CoreFacts
from cockpit.sandbox.world_names import CONTRIBUTORS, DAY, T_END, VISION
from cockpit.sandbox.world_plan import HistoryPlan
from cockpit.sandbox.world_pulls import open_release_pr
from cockpit.sandbox.world_request_form import PlantedRequests, fields, url
from cockpit.sandbox.world_requests import after_landing, regression


def open_held_release_prs(plan: HistoryPlan, repo: SbRepo) -> dict[str, int]:
    """The release PRs the held requests name, by role (none merged, one on ``main``, one closed)."""
    people = [c.login for c in CONTRIBUTORS]
    return {
        "trunk_open": open_release_pr(
            plan, repo, "trunk_open", author=people[4], title="Fix cudnn version check for 9.3"
        ),
        "wrong_base": open_release_pr(plan, repo, "missing_1", base="main"),
        "missing_2": open_release_pr(plan, repo, "missing_2"),
        "missing_4": open_release_pr(plan, repo, "missing_4", state="closed"),
        "missing_5": open_release_pr(plan, repo, "missing_5"),
    }


def plant_held(
    plan: HistoryPlan,
    facts: CoreFacts,
    book: PlantedRequests,
    extra_rp: dict[str, int],
    vision_prs: tuple[int, int, int],
) -> None:
    """The pending, misaimed and rejected requests, each with the status and flags it earns."""
    people = [c.login for c in CONTRIBUTORS]
    trunk_open = facts.issues["trunk_open"]

    def issue(k: int) -> str:
        return regression(facts, k)

    def when(role: str, hours: int = 10) -> int:
        return after_landing(plan, role, hours)

    u = S.UNDER_REVIEW
    book.add(
        people[4],
        fields([url(trunk_open)], [url(extra_rp["trunk_open"])], ["Regression"], extra=(f"Issue fixed: {issue(1)}",)),
        T_END - 3 * DAY,
        [trunk_open],
        [extra_rp["trunk_open"]],
        status=u,
        flags=[F.TRUNK_NOT_MERGED],
        category="Regression",
    )
    book.add(
        people[0],
        fields(
            [url(plan.trunk_pr("missing_1"))],
            [url(extra_rp["wrong_base"])],
            ["Critical fix"],
            extra=(f"Issue fixed: {issue(3)}",),
        ),
        when("missing_1"),
        [plan.trunk_pr("missing_1")],
        [extra_rp["wrong_base"]],
        status=u,
        flags=[F.WRONG_BASE],
        category="Critical fix",
    )
    book.add(
        people[5],
        fields([url(plan.trunk_pr("missing_2"))], [url(extra_rp["missing_2"])], ["Regression"]),
        when("missing_2"),
        [plan.trunk_pr("missing_2")],
        [extra_rp["missing_2"]],
        status=u,
        flags=[F.MISSING_ISSUE_LINK],
        category="Regression",
    )
    book.add(
        people[6],
        fields([url(plan.trunk_pr("missing_3"))], [], ["Test/CI fixes"]),
        when("missing_3"),
        [plan.trunk_pr("missing_3")],
        [],
        status=S.NO_RELEASE_PR,
        flags=[F.NO_RELEASE_PR],
        category="Test/CI fixes",
    )
    book.add(
        people[7],
        fields(
            [url(plan.trunk_pr("missing_4"))],
            [url(extra_rp["missing_4"])],
            ["Critical fix"],
            extra=(f"Issue fixed: {issue(2)}",),
        )
        + "\nclosing\n",
        when("missing_4"),
        [plan.trunk_pr("missing_4")],
        [extra_rp["missing_4"]],
        status=S.REJECTED,
        category="Critical fix",
        hints=["closing"],
        edited_after=4 * DAY,
    )
    book.add(
        people[8],
        fields([url(plan.trunk_pr("missing_5"))], [url(extra_rp["missing_5"])], ["Special Dispensation"])
        + "\nDO NOT MERGE\n",
        when("missing_5"),
        [plan.trunk_pr("missing_5")],
        [extra_rp["missing_5"]],
        status=u,
        category="Special Dispensation",
        hints=["do not merge"],
        edited_after=2 * DAY,
    )
    v_trunk, v_release, v_issue = vision_prs
    book.add(
        people[9],
        fields(
            [url(v_trunk, repository=VISION)],
            [url(v_release, repository=VISION)],
            ["Critical fix"],
            extra=(f"Issue fixed: {url(v_issue, 'issues', VISION)}",),
        ),
        T_END - 5 * DAY,
        [f"{VISION}#{v_trunk}"],
        [f"{VISION}#{v_release}"],
        status=u,
        category="Critical fix",
    )
