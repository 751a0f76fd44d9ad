"""The release tracker issue and its cherry-pick request comments, in every template variant.

Each comment is planted with the parse and the flags a correct pick tracker must produce; they go
to ``truth["picks"]`` keyed by comment id (see ``world.py``). The template is ``world_request_form``;
the accepted requests are ``world_requests``, those that hold the release ``world_requests_held``;
the chatter between them and the posting in time order are here.
"""

from __future__ import annotations

from typing import Any

from cockpit.domain.picks import PickFlag as F
from cockpit.domain.picks import PickStatus as S
from cockpit.sandbox.model import SbComment, SbIssue, SbPull, SbRepo
from cockpit.sandbox.world_crowd import crowd
from cockpit.sandbox.world_milestones import CoreFacts
from cockpit.sandbox.world_names import (
    CONTRIBUTORS,
    DAY,
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
from cockpit.sandbox.world_request_form import CATEGORY_LABEL, COMMENT_ID_BASE, PlantedRequests, Request, fields, url
from cockpit.sandbox.world_requests import plant_accepted, plant_fill
from cockpit.sandbox.world_requests_held import open_held_release_prs, plant_held


def tracker_issue(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> SbIssue:
    """The release's tracker issue, its body the team's criteria, process, template and dates."""
    number = plan.numbers.after(plan.cut)
    rc1, final = iso(T_CUT + 14 * DAY)[:10], iso(T_END)[:10]
    body = (
        f"We will use this issue to track cherry-picks for the {plan.version} release.\n\n"
        "## Cherry-Pick Criteria\n\n"
        f"**Phase 1 (until {rc1})**: regressions, critical fixes (silent correctness, crashes, deadlocks, "
        "large memory leaks), fixes to new features, Test/CI fixes, documentation, release-branch-only changes.\n\n"
        f"**Phase 2 (after {rc1}, until {final})**: only release-blocking critical fixes (silent correctness, "
        "backwards compatibility, crashes, deadlocks, large memory leaks). Changes here require a new release "
        "candidate.\n\n"
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

    The order of planting is kept (comments posted at the same second keep it), and the held
    requests' release PRs are opened first, before ``crowd`` takes more numbers.
    """
    extra_rp = {} if all_green else open_held_release_prs(plan, repo)
    book = PlantedRequests()
    plant_accepted(plan, facts, book, all_green=all_green)
    if not all_green:
        plant_held(plan, facts, book, extra_rp, vision_prs)
    plant_fill(plan, facts, book)
    people = [c.login for c in CONTRIBUTORS]
    unparsed: dict[str, Any] = {"status": S.UNPARSED, "flags": [F.UNPARSED], "parsed": False}
    book.add(
        people[3], "Thanks for running this! Is the RC1 date still on track? <3\n", T_CUT + 2 * DAY, [], [], **unparsed
    )
    if not all_green:  # looks like a request, so it blocks until someone reads it
        book.add(
            people[10],
            f"{CATEGORY_LABEL}\n* Regression\n\n(links to follow once CI is green)\n",
            T_CUT + 9 * DAY,
            [],
            [],
            **unparsed,
        )
    book.add(
        RELEASE_MANAGERS[0].login,
        "The cherry-pick window for RC2 closes in two days. Please use the template "
        "from the issue body; requests without a release PR cannot be reviewed.\n",
        T_CUT + 20 * DAY,
        [],
        [],
        **unparsed,
    )
    if comments is not None:
        crowd(plan, repo, book.add, fields=fields, url=url, planted=len(book), total=comments, pending=not all_green)
    return _post(repo, facts.tracker, book.requests)


TEAM_STEP = "triton_request"  # the step the second release manager signed (a manual step of the template)


def team_signoff(repo: SbRepo, tracker: int, version: str) -> dict:
    """The second release manager's own sign-off comment on the tracker, as her cockpit publishes it: the
    performance step signed by her GitHub login (``RELEASE_MANAGERS[1]``); ``truth["team_signoffs"]``."""
    from cockpit.domain.status import SharedSignoff
    from cockpit.services.signoff_record import render_record

    login, when = RELEASE_MANAGERS[1].login, iso(T_CUT + 21 * DAY)
    signoff = SharedSignoff(TEAM_STEP, True, login, when, "Triton maintainers confirmed the release of the pin")
    repo.comments.append(
        SbComment(COMMENT_ID_BASE + 1, tracker, login, render_record(version, login, {TEAM_STEP: signoff}), when, when)
    )
    return {TEAM_STEP: {"who": login, "when": when}}


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
