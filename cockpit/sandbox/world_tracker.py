"""The release tracker issue and its cherry-pick request comments, in every template variant.

Each comment is planted with the parse and the flags a correct pick tracker must produce; they go
to ``truth["picks"]`` keyed by comment id (see ``world.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cockpit.domain.picks import PickFlag as F
from cockpit.domain.picks import PickStatus as S
from cockpit.sandbox.model import SbComment, SbIssue, SbPull, SbRepo
from cockpit.sandbox.world_crowd import crowd
from cockpit.sandbox.world_github import CoreFacts, open_release_pr
from cockpit.sandbox.world_names import (
    CONTRIBUTORS,
    CORE,
    DAY,
    GITHUB,
    HOUR,
    PICKBOT,
    RELEASE_MANAGERS,
    T_CUT,
    T_END,
    VISION,
    fake_sha,
    iso,
)
from cockpit.sandbox.world_plan import HistoryPlan

TRUNK_LABEL = "Link to landed trunk PR (if applicable):"
MASTER_LABEL = "Link to landed master PR (if applicable):"
RELEASE_LABEL = "Link to release branch PR:"
CATEGORY_LABEL = "Criteria Category:"
COMMENT_ID_BASE = 2_350_000_000


def url(number: int, kind: str = "pull", repository: str = CORE) -> str:
    return f"{GITHUB}/{repository}/{kind}/{number}"


@dataclass
class Request:
    """One planted comment and what a parser must read from it."""

    author: str
    body: str
    when: int
    truth: dict = field(default_factory=dict)
    edited_after: int = 0


def fields(
    trunk: list[str],
    release: list[str],
    category: list[str],
    *,
    bullet: str = "* ",
    trunk_label: str = TRUNK_LABEL,
    inline: bool = False,
    extra: tuple[str, ...] = (),
) -> str:
    """The request template: each label, then its values as bullet lines (or inline)."""
    blocks = []
    for label, values in ((trunk_label, trunk), (RELEASE_LABEL, release), (CATEGORY_LABEL, category)):
        if inline:
            blocks.append(f"{label} {' '.join(values)}".rstrip())
        else:
            blocks.append("\n".join([label, *(f"{bullet}{v}" for v in values)]))
    text = ("\n" if inline else "\n\n").join(blocks)
    return text + "".join(f"\n\n{line}" for line in extra) + "\n"


def tracker_issue(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> SbIssue:
    number = plan.numbers.after(plan.cut)
    rc1, final = iso(T_CUT + 14 * DAY)[:10], iso(T_END)[:10]
    body = (
        f"We will use this issue to track cherry-picks for the {plan.version} release.\n\n"
        "## Cherry-Pick Criteria\n\n"
        f"**Phase 1 (until {rc1})**: regressions, critical fixes (silent correctness, crashes, deadlocks, "
        "large memory leaks), fixes to new features, Test/CI fixes, documentation, release-branch-only changes.\n\n"
        f"**Phase 2 (after {rc1}, until {final})**: only critical fixes and regressions. Changes here require "
        "a new release candidate.\n\n"
        "## Cherry-Pick Process\n\n1. Land the fix on main.\n2. Open (but do not merge) a PR onto "
        f"`{plan.branch_name}`, e.g. with `@pytorchbot cherry-pick --onto {plan.branch_name} -c critical`.\n"
        "3. Post a request below in this format:\n\n"
        + fields([""], [""], [""])
        + f"\n## Versions\n\n- Branch cut: {iso(T_CUT)[:10]}\n- RC1: {rc1}\n- Final RC: {final}\n"
    )
    issue = SbIssue(
        number,
        f"[v{plan.version}] Release Tracker",
        RELEASE_MANAGERS[0].login,
        "open",
        body,
        ["release tracker"],
        [r.login for r in RELEASE_MANAGERS],
        None,
        iso(T_CUT),
        iso(T_END),
        None,
        None,
    )
    repo.issues.append(issue)
    facts.tracker = number
    return issue


def decoy_trackers(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> list[int]:
    """Issues titled like a tracker that are not this release's: what ``cockpit init`` must pass over.

    The 2.4.1 patch release's tracker (labelled, closed) and a duplicate of this release's tracker
    opened the day after it in another spelling, unlabelled and closed. Numbered after everything
    else, so no planted number moves.
    """
    manager = RELEASE_MANAGERS[0].login
    older = plan.numbers.after(plan.cut // 3 + 2)
    repo.issues.append(
        SbIssue(
            older,
            "[v2.4.1] Release Tracker",
            manager,
            "closed",
            "We will use this issue to track cherry-picks for the 2.4.1 patch release.",
            ["release tracker"],
            [manager],
            None,
            iso(T_CUT - 45 * DAY),
            iso(T_CUT - 28 * DAY),
            iso(T_CUT - 28 * DAY),
            "completed",
        )
    )
    duplicate = plan.numbers.after(plan.cut + 1)
    people = [c.login for c in CONTRIBUTORS]
    repo.issues.append(
        SbIssue(
            duplicate,
            f"[v.{plan.version}] Release Tracker",
            people[6],
            "closed",
            f"Duplicate of #{facts.tracker}.",
            [],
            [],
            None,
            iso(T_CUT + DAY),
            iso(T_CUT + DAY + HOUR),
            iso(T_CUT + DAY + HOUR),
            "not_planned",
        )
    )
    return [older, duplicate]


def tracker_comments(
    plan: HistoryPlan,
    repo: SbRepo,
    facts: CoreFacts,
    vision_prs: tuple[int, int, int],
    *,
    all_green: bool = False,
    comments: int | None = None,
) -> dict:
    """Post the request comments on the tracker; return ``truth["picks"]``.

    ``comments``: the tracker holds exactly that many comments (``world_crowd``: more requests and
    the replies around them); None plants only the requests below.

    ``all_green``: every request is decided and clean: the pending, misaimed and rejected ones
    (and the comment that only looks like a request) were never posted, the reverted pick's revert
    is on the branch, and the version bump has its request too.
    """

    def tp(role: str) -> int:
        """A trunk PR by role (every commit with a role came from a PR)."""
        pr = plan.by_role(role).pr
        assert pr is not None, role
        return pr

    rp = facts.release_prs
    issue = lambda k: url(facts.issues[f"regression_{k}"], "issues")  # noqa: E731
    when = lambda role, hours=10: plan.by_role(role).time + hours * HOUR  # noqa: E731
    people = [c.login for c in CONTRIBUTORS]
    extra_rp = (
        {}
        if all_green
        else {
            "trunk_open": open_release_pr(
                plan, repo, "trunk_open", author=people[4], title="Fix cudnn version check for 9.3"
            ),
            "wrong_base": open_release_pr(plan, repo, "missing_1", base="main"),
            "missing_2": open_release_pr(plan, repo, "missing_2"),
            "missing_4": open_release_pr(plan, repo, "missing_4", state="closed"),
            "missing_5": open_release_pr(plan, repo, "missing_5"),
        }
    )
    trunk_open = facts.issues["trunk_open"]
    requests: list[Request] = []

    def req(
        author: str,
        body: str,
        at: int,
        trunk: list,
        release: list,
        *,
        status: S,
        flags=(),
        category: str = "",
        hints=(),
        trunk_na: bool = False,
        parsed: bool = True,
        edited_after: int = 0,
    ) -> None:
        fixes = re.findall(r"(?:^Issue fixed: | - )(https://\S+/issues/\d+|#\d+)$", body, re.M) if parsed else []
        requests.append(
            Request(
                author,
                body,
                at,
                {
                    "parsed": parsed,
                    "trunk_prs": trunk,
                    "release_prs": release,
                    "category": category.split(" - http")[0],
                    "trunk_na": trunk_na,
                    "fixes": fixes,
                    "hints": list(hints),
                    "status": str(status),
                    "flags": [str(f) for f in flags],
                },
                edited_after,
            )
        )

    a = S.ACCEPTED
    x1, x2, x3, x4 = (tp(f"pick_x{k}") for k in range(1, 5))
    req(
        people[1],
        fields([url(x1)], [url(rp["pick_x1"])], ["Critical fix"], extra=(f"Issue fixed: {issue(0)}",)),
        when("pick_x1"),
        [x1],
        [rp["pick_x1"]],
        status=a,
        category="Critical fix",
    )
    req(
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
    req(
        people[6],
        fields([url(x3)], [url(rp["pick_x3"])], ["Test/CI fixes"], trunk_label=MASTER_LABEL, inline=True),
        when("pick_x3"),
        [x3],
        [rp["pick_x3"]],
        status=a,
        category="Test/CI fixes",
    )
    req(
        PICKBOT.login,
        fields([url(x4)], [url(rp["pick_x4"])], [f"Regression - {issue(2)}"]),
        when("pick_x4", 3),
        [x4],
        [rp["pick_x4"]],
        status=a,
        category=f"Regression - {issue(2)}",
    )
    body = fields(
        [url(tp("pick_pr_plain"))], [url(rp["pick_pr_plain"])], ["Critical fix"], extra=(f"Issue fixed: {issue(3)}",)
    )
    req(
        people[7],
        body + "\nmerged\n",
        when("pick_pr_plain"),
        [tp("pick_pr_plain")],
        [rp["pick_pr_plain"]],
        status=a,
        category="Critical fix",
        hints=["merged"],
        edited_after=3 * DAY,
    )
    special = "Special Dispensation - needed by the new export API announced for this release"
    req(
        people[8],
        fields([url(tp("pick_pr_trailer"))], [url(rp["pick_pr_trailer"])], [special], bullet=""),
        when("pick_pr_trailer"),
        [tp("pick_pr_trailer")],
        [rp["pick_pr_trailer"]],
        status=a,
        category=special,
    )
    bulk = [tp(f"bulk_{k}") for k in (1, 2, 3)]
    req(
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
    req(
        people[9],
        fields(
            [url(tp("pick_conflict"))],
            [url(rp["pick_conflict"])],
            ["Critical fix"],
            extra=(f"Issue fixed: {issue(3)}", "Note: the pick conflicted with the release branch; resolved by hand."),
        ),
        when("pick_conflict"),
        [tp("pick_conflict")],
        [rp["pick_conflict"]],
        status=a,
        category="Critical fix",
    )
    req(
        people[10],
        fields(
            [url(tp("pick_reverted"))],
            [url(rp["pick_reverted"])],
            ["Critical fix"],
            bullet="- ",
            extra=(f"Issue fixed: {issue(1)}",),
        )
        + "\nreverted\n",
        when("pick_reverted"),
        [tp("pick_reverted")],
        [rp["pick_reverted"]],
        status=a,
        flags=[] if all_green else [F.TRUNK_REVERTED],
        category="Critical fix",
        hints=["reverted"],
        edited_after=DAY,
    )
    req(
        people[2],
        fields([url(tp("pick_noref"))], [url(rp["pick_noref"])], ["Docs"], inline=True),
        when("pick_noref"),
        [tp("pick_noref")],
        [rp["pick_noref"]],
        status=a,
        category="Docs",
    )
    req(
        people[3],
        fields(
            [url(tp("issue_fix_picked"))],
            [url(rp["issue_fix_picked"])],
            ["Regression"],
            extra=(f"Issue fixed: {url(facts.issues['issue_fix_picked'], 'issues')}",),
        ),
        when("issue_fix_picked"),
        [tp("issue_fix_picked")],
        [rp["issue_fix_picked"]],
        status=a,
        category="Regression",
    )
    pin_time = next(c.time for c in plan.branch if c.role == "pin")
    req(
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
        req(
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
        req(
            RELEASE_MANAGERS[0].login,
            fields(["NA"], [url(rp["branch_fix"])], ["Critical fix"], extra=(f"Issue fixed: {issue(2)}",)),
            fix_time - 6 * HOUR,
            [],
            [rp["branch_fix"]],
            status=a,
            category="Critical fix",
            trunk_na=True,
        )
    req(
        people[11],
        fields([url(x1)], [url(rp["pick_x1"])], ["Critical fix"], extra=(f"Issue fixed: {issue(0)}",)),
        when("pick_x1", 30),
        [x1],
        [rp["pick_x1"]],
        status=a,
        flags=[F.DUPLICATE],
        category="Critical fix",
    )
    if not all_green:  # the pending, misaimed and rejected requests
        u = S.UNDER_REVIEW
        req(
            people[4],
            fields(
                [url(trunk_open)], [url(extra_rp["trunk_open"])], ["Regression"], extra=(f"Issue fixed: {issue(1)}",)
            ),
            T_END - 3 * DAY,
            [trunk_open],
            [extra_rp["trunk_open"]],
            status=u,
            flags=[F.TRUNK_NOT_MERGED],
            category="Regression",
        )
        req(
            people[0],
            fields(
                [url(tp("missing_1"))],
                [url(extra_rp["wrong_base"])],
                ["Critical fix"],
                extra=(f"Issue fixed: {issue(3)}",),
            ),
            when("missing_1"),
            [tp("missing_1")],
            [extra_rp["wrong_base"]],
            status=u,
            flags=[F.WRONG_BASE],
            category="Critical fix",
        )
        req(
            people[5],
            fields([url(tp("missing_2"))], [url(extra_rp["missing_2"])], ["Regression"]),
            when("missing_2"),
            [tp("missing_2")],
            [extra_rp["missing_2"]],
            status=u,
            flags=[F.MISSING_ISSUE_LINK],
            category="Regression",
        )
        req(
            people[6],
            fields([url(tp("missing_3"))], [], ["Test/CI fixes"]),
            when("missing_3"),
            [tp("missing_3")],
            [],
            status=S.NO_RELEASE_PR,
            flags=[F.NO_RELEASE_PR],
            category="Test/CI fixes",
        )
        req(
            people[7],
            fields(
                [url(tp("missing_4"))],
                [url(extra_rp["missing_4"])],
                ["Critical fix"],
                extra=(f"Issue fixed: {issue(2)}",),
            )
            + "\nclosing\n",
            when("missing_4"),
            [tp("missing_4")],
            [extra_rp["missing_4"]],
            status=S.REJECTED,
            category="Critical fix",
            hints=["closing"],
            edited_after=4 * DAY,
        )
        req(
            people[8],
            fields([url(tp("missing_5"))], [url(extra_rp["missing_5"])], ["Special Dispensation"]) + "\nDO NOT MERGE\n",
            when("missing_5"),
            [tp("missing_5")],
            [extra_rp["missing_5"]],
            status=u,
            category="Special Dispensation",
            hints=["do not merge"],
            edited_after=2 * DAY,
        )
        v_trunk, v_release, v_issue = vision_prs
        req(
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
    for k, role in enumerate(plan.fill_picks):
        req(
            people[k % len(people)],
            fields([url(tp(role))], [url(rp[role])], ["Test/CI fixes"], bullet=["* ", "- ", ""][k % 3]),
            when(role),
            [tp(role)],
            [rp[role]],
            status=a,
            category="Test/CI fixes",
        )
    unparsed: dict[str, Any] = {"status": S.UNPARSED, "flags": [F.UNPARSED], "parsed": False}
    req(people[3], "Thanks for running this! Is the RC1 date still on track? <3\n", T_CUT + 2 * DAY, [], [], **unparsed)
    if not all_green:  # looks like a request, so it blocks until someone reads it
        req(
            people[10],
            f"{CATEGORY_LABEL}\n* Regression\n\n(links to follow once CI is green)\n",
            T_CUT + 9 * DAY,
            [],
            [],
            **unparsed,
        )
    req(
        RELEASE_MANAGERS[0].login,
        "The cherry-pick window for RC2 closes in two days. Please use the template "
        "from the issue body; requests without a release PR cannot be reviewed.\n",
        T_CUT + 20 * DAY,
        [],
        [],
        **unparsed,
    )
    if comments is not None:
        crowd(plan, repo, req, fields=fields, url=url, planted=len(requests), total=comments, pending=not all_green)
    return _post(repo, facts.tracker, requests)


def _post(repo: SbRepo, tracker: int, requests: list[Request]) -> dict:
    picks = {}
    for k, r in enumerate(sorted(requests, key=lambda r: r.when)):
        comment_id = COMMENT_ID_BASE + 7919 * (k + 1)
        repo.comments.append(
            SbComment(comment_id, tracker, r.author, r.body, iso(r.when), iso(r.when + r.edited_after))
        )
        picks[str(comment_id)] = r.truth
    return picks


def unrequested_merges(repo: SbRepo, picks: dict, branch: str) -> list[int]:
    """Merged release-branch PRs that no request names."""
    requested = {n for p in picks.values() for n in p["release_prs"] if isinstance(n, int)}
    return sorted(p.number for p in repo.pulls if p.base == branch and p.merged and p.number not in requested)


def vision_pulls(branch: str) -> tuple[list[SbPull], tuple[int, int, int]]:
    """The domain library PRs one request names (another repository's URLs)."""
    trunk, release, issue = 8123, 8190, 8101
    when = T_END - 6 * DAY
    pulls = [
        SbPull(
            trunk,
            "Fix resize antialias on uint8",
            "olevi",
            "main",
            "olevi/antialias",
            "closed",
            True,
            f"Fixes {url(issue, 'issues', VISION)}",
            [],
            [],
            None,
            iso(when - DAY),
            iso(when),
            iso(when),
            iso(when),
            fake_sha("merge", VISION, trunk),
            fake_sha("head", VISION, trunk),
        ),
        SbPull(
            release,
            f"[{branch}] Fix resize antialias on uint8",
            PICKBOT.login,
            branch,
            f"cherry-pick-{trunk}-by-{PICKBOT.login}",
            "open",
            False,
            "",
            [],
            [],
            None,
            iso(when + HOUR),
            iso(when + HOUR),
        ),
    ]
    return pulls, (trunk, release, issue)
