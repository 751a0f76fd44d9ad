"""A PyTorch-sized tracker: more requests and the replies around them, up to a number of comments.

A real release tracker reaches some 600 comments: besides the requests, people ask when the next
RC is cut, report what they validated, and release managers answer. ``crowd`` adds to the planted
requests (``world_tracker``): one request under review for every milestone PR still missing from
the branch (with its open release PR), then replies and questions until the tracker holds the
number asked for. Replies name no PR and use no template label, so they are chatter: unparsed,
never blocking (``truth["picks"]`` says so for each).
"""

from __future__ import annotations

from collections.abc import Callable

from cockpit.domain.picks import PickFlag as F
from cockpit.domain.picks import PickStatus as S
from cockpit.sandbox.model import SbRepo
from cockpit.sandbox.world_names import CONTRIBUTORS, HOUR, RELEASE_MANAGERS, T_CUT, T_END
from cockpit.sandbox.world_plan import HistoryPlan
from cockpit.sandbox.world_pulls import open_release_pr

REPLIES = (
    "Thanks! Merged into the release branch.",
    "Is the final RC date still on track? We would like to schedule the downstream validation.",
    "RC validation on Windows with CUDA 12.6 passed: the smoke tests and the tutorials run.",
    "Could someone from the release team look at the wheel size on aarch64? It grew by 40 MB since 2.4.",
    "Approved by the module owner; please go ahead.",
    "The RC1 wheels are now in the test channel. Please validate and report here.",
    "This one needs a rebase onto the release branch before it can be merged.",
    "Reminder: after RC1 only critical fixes and regressions are accepted.",
    "Verified the fix on the nightly build and on RC2.",
    "Closing the loop here: the regression is fixed in RC2, thanks everyone.",
    "macOS arm64 RC2 passes the import and the compile smoke test.",
    "Please link the issue this fixes; the release notes need it.",
)


def crowd(
    plan: HistoryPlan,
    repo: SbRepo,
    request: Callable[..., None],
    *,
    fields: Callable[..., str],
    url: Callable[..., str],
    planted: int,
    total: int,
    pending: bool = True,
) -> None:
    """Add requests and replies (through ``request``, as ``world_tracker`` plants its own) until the
    tracker has ``total`` comments, ``planted`` being those already there. ``pending=False`` (an
    all-green world): no request under review, replies only.

    Raises ``ValueError`` when ``total`` is below what the world plants anyway.
    """
    people = [c.login for c in CONTRIBUTORS]
    count = planted
    for k, role in enumerate(plan.fill_missing if pending else ()):
        if count >= total:
            break
        trunk = plan.by_role(role)
        release = open_release_pr(plan, repo, role)
        request(
            people[(k + 3) % len(people)],
            fields([url(trunk.pr)], [url(release)], ["Test/CI fixes"]),
            trunk.time + 9 * HOUR,
            [trunk.pr],
            [release],
            status=S.UNDER_REVIEW,
            category="Test/CI fixes",
        )
        count += 1
    if total < count:
        raise ValueError(f"tracker_comments={total}: this world plants {count} comments on its tracker already")
    replies = total - count
    span = T_END - T_CUT - 2 * HOUR
    speakers = people + [m.login for m in RELEASE_MANAGERS]
    for k in range(replies):
        when = T_CUT + HOUR + span * (k + 1) // (replies + 1)
        request(
            speakers[(7 * k) % len(speakers)],
            REPLIES[k % len(REPLIES)] + "\n",
            when,
            [],
            [],
            status=S.UNPARSED,
            flags=[F.UNPARSED],
            parsed=False,
        )
