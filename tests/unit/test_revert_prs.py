"""The plan of the reverts owed as PRs (#29 section 2), judged on hand-made answers: a revert whose pick
conflicts needs a manual cherry-pick; one whose reverted commit is not on the branch is not opened, and RC
tags of another release line are named; a PR already there from the head branch is reused."""

from __future__ import annotations

from cockpit.domain.commits import Evidence, EvidenceKind, PickPrediction, RevertOwed
from cockpit.domain.github import PullRequest, PullState
from cockpit.domain.revert_prs import RevertPROutcome
from cockpit.services.revert_prs import branch_name, plan_revert_prs, preview, request_comment

HEAD = "f" * 40


def owed(n: int, pr: int | None = None, how: tuple[Evidence, ...] = ()) -> RevertOwed:
    return RevertOwed(f"{n:040x}", f'Revert "Fix thing {n} (#{pr})"', f"{n + 100:040x}", pr, how)


def plan(reverts, *, predictions=(), on_branch=lambda sha: True, tags=None, pulls=()):
    return plan_revert_prs(
        reverts,
        predictions=predictions,
        on_branch=on_branch,
        tags_of=lambda sha: (tags or {}).get(sha, []),
        pulls=pulls,
        release_branch="release/2.5",
        major_minor="2.5",
        repository="acme/torchlet",
        fork="alice",
        head=HEAD,
    )


def test_each_revert_gets_the_runbooks_branch_title_and_a_body_saying_what_and_why():
    r = owed(1, 9001)
    (p,) = plan([r]).plans
    assert p.outcome is RevertPROutcome.OPEN and p.branch == branch_name(r, "2.5") == "cherry-pick-revert-9001-2.5"
    assert p.title == '[release/2.5] Revert "Fix thing 1 (#9001)"'
    assert r.revert_sha in p.body and r.reverted_sha in p.body and "only landed on main" in p.body


def test_a_revert_whose_pick_conflicts_needs_a_manual_cherry_pick_with_the_paths():
    r = owed(2, 9002)
    guess = PickPrediction(r.revert_sha, False, ("torchlet/nn/linear.py",))
    (p,) = plan([r], predictions=[guess]).plans
    assert p.outcome is RevertPROutcome.MANUAL and "needs a manual cherry-pick" in p.detail
    assert "torchlet/nn/linear.py" in p.detail and p.conflicts == ("torchlet/nn/linear.py",)
    assert "0 PR(s) to open" in preview(plan([r], predictions=[guess]))


def test_a_reverted_commit_of_another_release_line_is_flagged_and_not_opened():
    r = owed(3, 9003)
    tags = {r.reverted_sha: ["v2.4.0-rc2", "v2.4.0", "ciflow/x"]}
    (p,) = plan([r], on_branch=lambda sha: False, tags=tags).plans
    assert p.outcome is RevertPROutcome.NOT_ON_BRANCH and p.other_lines == ("v2.4.0-rc2",)
    assert "another release line: v2.4.0-rc2" in p.detail


def test_a_reverted_commit_picked_onto_the_branch_counts_as_on_it():
    pick = "a" * 40
    r = owed(4, 9004, (Evidence(EvidenceKind.CHERRY_PICK_TRAILER, pick),))
    (p,) = plan([r], on_branch=lambda sha: sha == pick).plans
    assert p.outcome is RevertPROutcome.OPEN


def test_a_pr_already_there_from_the_head_branch_is_reused_not_opened_again():
    r = owed(5, 9005)
    there = PullRequest(77, "x", PullState.OPEN, "release/2.5", "cherry-pick-revert-9005-2.5", "https://x/77")
    batch = plan([r], pulls=[there])
    assert batch.plans[0].outcome is RevertPROutcome.REUSE and batch.plans[0].pull_number == 77
    assert batch.to_open == ()


def test_the_tracker_request_is_the_template_form_with_the_category_cherry_pick_revert():
    (p,) = plan([owed(6, 9006)]).plans
    text = request_comment(p, "acme/torchlet")
    assert text.splitlines()[:2] == [
        "Link to landed trunk PR (if applicable):",
        "* https://github.com/acme/torchlet/pull/9006",
    ]
    assert "Link to release branch PR:" in text and text.rstrip().endswith("* cherry-pick revert")


def test_a_hostile_subject_cannot_ping_anyone_from_the_pr_body():
    r = RevertOwed("1" * 40, 'Revert "thanks @everyone <b>x</b>"', "2" * 40, None)
    (p,) = plan([r]).plans
    assert " @everyone" not in p.body and "`@everyone`" in p.body and "<b>" not in p.body
    assert p.branch == "cherry-pick-revert-2222222222-2.5"
