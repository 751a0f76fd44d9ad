"""The tracker's accepted cherry-pick requests, one for every shape a release branch takes a fix in.

Each is written as people really fill the template (bullets or dashes or none, inline values, the
old "master" label, the bot's own request, several trunk PRs in one request, an NA trunk PR for a
release-only change, a later duplicate) and planted with what a parser must read from it.
"""

from __future__ import annotations

from cockpit.domain.picks import PickFlag as F
from cockpit.domain.picks import PickStatus as S
from cockpit.sandbox.world_milestones import CoreFacts
from cockpit.sandbox.world_names import CONTRIBUTORS, DAY, HOUR, PICKBOT, RELEASE_MANAGERS
from cockpit.sandbox.world_plan import HistoryPlan
from cockpit.sandbox.world_request_form import MASTER_LABEL, PlantedRequests, fields, url


def regression(facts: CoreFacts, k: int) -> str:
    """The web address of the ``k``-th regression issue the requests say they fix."""
    return url(facts.issues[f"regression_{k}"], "issues")


def after_landing(plan: HistoryPlan, role: str, hours: int = 10) -> int:
    """When a request for the trunk commit of ``role`` is posted: ``hours`` after it landed."""
    return plan.by_role(role).time + hours * HOUR


def plant_accepted(plan: HistoryPlan, facts: CoreFacts, book: PlantedRequests, *, all_green: bool) -> None:
    """The accepted requests, the release-only ones and a later duplicate of the first.

    ``all_green``: the reverted pick's revert is on the branch (no flag), and the version bump has
    its request instead of the fix made only on the release branch.
    """
    rp = facts.release_prs
    people = [c.login for c in CONTRIBUTORS]

    def issue(k: int) -> str:
        return regression(facts, k)

    def when(role: str, hours: int = 10) -> int:
        return after_landing(plan, role, hours)

    a = S.ACCEPTED
    x1, x2, x3, x4 = (plan.trunk_pr(f"pick_x{k}") for k in range(1, 5))
    book.add(
        people[1],
        fields([url(x1)], [url(rp["pick_x1"])], ["Critical fix"], extra=(f"Issue fixed: {issue(0)}",)),
        when("pick_x1"),
        [x1],
        [rp["pick_x1"]],
        status=a,
        category="Critical fix",
    )
    book.add(
        people[5],
        fields(
            [f"#{x2}"],
            [f"#{rp['pick_x2']}"],
            ["Regression"],
            bullet="- ",
            extra=(f"Issue fixed: #{facts.issues['regression_1']}",),
        ),
        when("pick_x2"),
        [x2],
        [rp["pick_x2"]],
        status=a,
        category="Regression",
    )
    book.add(
        people[6],
        fields([url(x3)], [url(rp["pick_x3"])], ["Test/CI fixes"], trunk_label=MASTER_LABEL, inline=True),
        when("pick_x3"),
        [x3],
        [rp["pick_x3"]],
        status=a,
        category="Test/CI fixes",
    )
    book.add(
        PICKBOT.login,
        fields([url(x4)], [url(rp["pick_x4"])], [f"Regression - {issue(2)}"]),
        when("pick_x4", 3),
        [x4],
        [rp["pick_x4"]],
        status=a,
        category=f"Regression - {issue(2)}",
    )
    body = fields(
        [url(plan.trunk_pr("pick_pr_plain"))],
        [url(rp["pick_pr_plain"])],
        ["Critical fix"],
        extra=(f"Issue fixed: {issue(3)}",),
    )
    book.add(
        people[7],
        body + "\nmerged\n",
        when("pick_pr_plain"),
        [plan.trunk_pr("pick_pr_plain")],
        [rp["pick_pr_plain"]],
        status=a,
        category="Critical fix",
        hints=["merged"],
        edited_after=3 * DAY,
    )
    special = "Special Dispensation - needed by the new export API announced for this release"
    book.add(
        people[8],
        fields([url(plan.trunk_pr("pick_pr_trailer"))], [url(rp["pick_pr_trailer"])], [special], bullet=""),
        when("pick_pr_trailer"),
        [plan.trunk_pr("pick_pr_trailer")],
        [rp["pick_pr_trailer"]],
        status=a,
        category=special,
    )
    bulk = [plan.trunk_pr(f"bulk_{k}") for k in (1, 2, 3)]
    book.add(
        RELEASE_MANAGERS[1].login,
        fields(
            [f"#{bulk[0]} #{bulk[1]}", url(bulk[2])],
            [url(rp["bulk"])],
            ["Critical fix"],
            extra=(f"Issue fixed: {issue(0)}",),
        ),
        when("bulk_3"),
        bulk,
        [rp["bulk"]],
        status=a,
        category="Critical fix",
    )
    book.add(
        people[9],
        fields(
            [url(plan.trunk_pr("pick_conflict"))],
            [url(rp["pick_conflict"])],
            ["Critical fix"],
            extra=(f"Issue fixed: {issue(3)}", "Note: the pick conflicted with the release branch; resolved by hand."),
        ),
        when("pick_conflict"),
        [plan.trunk_pr("pick_conflict")],
        [rp["pick_conflict"]],
        status=a,
        category="Critical fix",
    )
    book.add(
        people[10],
        fields(
            [url(plan.trunk_pr("pick_reverted"))],
            [url(rp["pick_reverted"])],
            ["Critical fix"],
            bullet="- ",
            extra=(f"Issue fixed: {issue(1)}",),
        )
        + "\nreverted\n",
        when("pick_reverted"),
        [plan.trunk_pr("pick_reverted")],
        [rp["pick_reverted"]],
        status=a,
        flags=[] if all_green else [F.TRUNK_REVERTED],
        category="Critical fix",
        hints=["reverted"],
        edited_after=DAY,
    )
    book.add(
        people[2],
        fields([url(plan.trunk_pr("pick_noref"))], [url(rp["pick_noref"])], ["Docs"], inline=True),
        when("pick_noref"),
        [plan.trunk_pr("pick_noref")],
        [rp["pick_noref"]],
        status=a,
        category="Docs",
    )
    book.add(
        people[3],
        fields(
            [url(plan.trunk_pr("issue_fix_picked"))],
            [url(rp["issue_fix_picked"])],
            ["Regression"],
            extra=(f"Issue fixed: {url(facts.issues['issue_fix_picked'], 'issues')}",),
        ),
        when("issue_fix_picked"),
        [plan.trunk_pr("issue_fix_picked")],
        [rp["issue_fix_picked"]],
        status=a,
        category="Regression",
    )
    pin_time = next(c.time for c in plan.branch if c.role == "pin")
    book.add(
        RELEASE_MANAGERS[1].login,
        fields(["NA"], [url(rp["pin"])], ["Release only"]),
        pin_time - 6 * HOUR,
        [],
        [rp["pin"]],
        status=a,
        category="Release only",
        trunk_na=True,
    )
    if all_green:
        bump_time = next(c.time for c in plan.branch if c.role == "version_bump")
        book.add(
            RELEASE_MANAGERS[0].login,
            fields(["NA"], [url(rp["version_bump"])], ["Release only"]),
            bump_time - HOUR,
            [],
            [rp["version_bump"]],
            status=a,
            category="Release only",
            trunk_na=True,
        )
    else:
        fix_time = next(c.time for c in plan.branch if c.role == "branch_fix")
        book.add(
            RELEASE_MANAGERS[0].login,
            fields(["NA"], [url(rp["branch_fix"])], ["Critical fix"], extra=(f"Issue fixed: {issue(2)}",)),
            fix_time - 6 * HOUR,
            [],
            [rp["branch_fix"]],
            status=a,
            category="Critical fix",
            trunk_na=True,
        )
    book.add(
        people[11],
        fields([url(x1)], [url(rp["pick_x1"])], ["Critical fix"], extra=(f"Issue fixed: {issue(0)}",)),
        when("pick_x1", 30),
        [x1],
        [rp["pick_x1"]],
        status=a,
        flags=[F.DUPLICATE],
        category="Critical fix",
    )


def plant_fill(plan: HistoryPlan, facts: CoreFacts, book: PlantedRequests) -> None:
    """One accepted request for each fill pick of a larger milestone, in the three bullet styles."""
    rp, a = facts.release_prs, S.ACCEPTED
    people = [c.login for c in CONTRIBUTORS]
    for k, role in enumerate(plan.fill_picks):
        book.add(
            people[k % len(people)],
            fields([url(plan.trunk_pr(role))], [url(rp[role])], ["Test/CI fixes"], bullet=["* ", "- ", ""][k % 3]),
            after_landing(plan, role),
            [plan.trunk_pr(role)],
            [rp[role]],
            status=a,
            category="Test/CI fixes",
        )
