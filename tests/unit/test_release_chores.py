"""The pure parts of the release manager's last chores: the validation issue's Markdown, the config
keys the evidence gates share, and the judgement of whether a release-branch PR may be merged."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.config import load_config
from cockpit.domain.ci import CheckRun
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem, PullRequest, PullState
from cockpit.domain.merging import CommitStatus, Review
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.domain.validation import VALIDATION_ISSUE_TITLE, VALIDATION_PHRASE, is_validation_comment
from cockpit.errors import ConfigError
from cockpit.services.merge_readiness import merge_plan
from cockpit.services.validation_sections import items_from, render
from tests.unit.test_config import GOOD, write

HOSTILE = [
    "@everyone please look",
    "Fix [link](javascript:alert(1)) and ![img](http://x/y.png)",
    "<img src=x onerror=alert(1)> &#64;admin",
    "two lines\n# a heading\n- [x] #1 fake ticked item",
    "`code` | pipe ~~strike~~ *bold*",
]


def issue(number: int, title: str, *, reason: str = "completed") -> MilestoneItem:
    return MilestoneItem(number, ItemKind.ISSUE, title, ItemState.CLOSED, "", state_reason=reason)


def body_of(items) -> str:
    return render(
        version="2.5.0",
        branch="release/2.5",
        milestone=("2.5.0 @release-team", "https://github.com/acme/torchlet/milestone/7"),
        tracker=None,
        branch_url="https://github.com/acme/torchlet/tree/release/2.5",
        items=items_from(items, [], repository="acme/torchlet", branch="release/2.5"),
    )


def test_hostile_titles_make_one_inert_task_each_and_ping_nobody():
    items = [issue(100 + k, t) for k, t in enumerate(HOSTILE)]
    body = body_of(items)
    tasks = [line for line in body.splitlines() if line.startswith("- [")]
    assert len(tasks) == len(HOSTILE) and all(line.startswith("- [ ] ") for line in tasks)
    assert "`@everyone`" in body and "`@release-team`" in body
    assert "<img" not in body and "<b>" not in body and "](javascript" not in body
    assert not any(
        line.startswith("#") and not line.startswith(("## ", "# Release 2.5.0")) for line in body.splitlines()
    )


def test_issues_closed_without_a_fix_are_not_validated_and_a_fixing_pr_shares_its_issues_line():
    items = [
        issue(1, "fixed"),
        issue(2, "won't fix", reason="not_planned"),
        issue(3, "dup", reason="duplicate"),
        MilestoneItem(
            4, ItemKind.PULL, "a PR", ItemState.MERGED, "https://github.com/acme/torchlet/pull/4", body="Fixes #1"
        ),
        MilestoneItem(5, ItemKind.ISSUE, "open", ItemState.OPEN, ""),
    ]
    kept = {i.number: i for i in items_from(items, [], repository="acme/torchlet", branch="release/2.5")}
    assert sorted(kept) == [1, 5]
    assert kept[1].fix_url == "https://github.com/acme/torchlet/pull/4"


def test_the_evidence_gates_and_the_actions_share_one_title_and_phrase(tmp_path):
    config = load_config(write(tmp_path, GOOD))
    assert config.validation.title_for("2.5.0") == VALIDATION_ISSUE_TITLE.replace("{version}", "2.5.0")
    assert config.validation.phrase_for("2.5.0") == VALIDATION_PHRASE.replace("{version}", "2.5.0")
    posted = config.validation_comment.format(version="2.5.0", number=1, branch="release/2.5")
    assert is_validation_comment(posted, config.validation.phrase_for("2.5.0"))
    assert is_validation_comment("VALIDATED  for 2.5.0 on Windows", "Validated for 2.5.0")
    assert config.merge_method == "squash"


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ('\n[evidence.validation_comments]\nphrase = "Checked on {os}"\n', "evidence.validation_comments.phrase"),
        ('\n[evidence.validation_issue]\nnew_title = ""\n', "evidence.validation_issue.new_title"),
        ('\n[evidence.validation_comments]\nphrase = "Verified in {version}"\n', "release.validation_comment"),
        ('\n[evidence.validation_issue]\nrepository = "not-a-repo"\n', "evidence.validation_issue.repository"),
    ],
)
def test_validation_settings_that_could_not_work_are_refused_naming_the_key(tmp_path, extra, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_config(write(tmp_path, GOOD + extra))


def test_an_unknown_merge_method_is_refused(tmp_path):
    text = GOOD.replace("tracker_issue = 4000", 'tracker_issue = 4000\nmerge_method = "octopus"')
    with pytest.raises(ConfigError, match=r"release\.merge_method"):
        load_config(write(tmp_path, text))


REPO, BRANCH, HEAD = "acme/torchlet", "release/2.5", "a" * 40


def row(*, flags=(), hints=(), status=PickStatus.UNDER_REVIEW) -> PickRow:
    request = PickRequest(1, "dev", "", (PRRef(10),), (PRRef(20),), "Test/CI fixes", hints=tuple(hints))
    return PickRow(request, status, tuple(flags))


def pull(**kw) -> PullRequest:
    base = {
        "number": 20,
        "title": "[release/2.5] fix",
        "state": PullState.OPEN,
        "base_ref": BRANCH,
        "head_ref": "x",
        "html_url": "",
        "head_sha": HEAD,
        "mergeable": True,
    }
    return PullRequest(**{**base, **kw})


def check(name: str, conclusion: str | None = "success") -> CheckRun:
    return CheckRun(1, name, "completed" if conclusion else "in_progress", conclusion, head_sha=HEAD)


def judge(r: PickRow, p: PullRequest, reviews=(), runs=(), statuses=(), required=("build",)):
    return merge_plan(
        r,
        p,
        repository=REPO,
        release_branch=BRANCH,
        method="squash",
        reviews=reviews,
        runs=runs,
        statuses=statuses,
        required=required,
    )


APPROVED = (Review("rm", "APPROVED", HEAD, datetime(2026, 9, 1, tzinfo=UTC)),)


def test_an_approved_pr_whose_required_checks_are_green_is_mergeable_even_with_a_red_optional_job():
    plan = judge(row(), pull(), APPROVED, [check("build"), check("flaky test", "failure")])
    assert plan.mergeable and plan.head_sha == HEAD
    assert [c.name for c in plan.checks if c.required] == ["build"]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ({"r": row(flags=[PickFlag.TRUNK_REVERTED])}, "flagged trunk reverted"),
        ({"r": row(hints=["do not merge"])}, "'do not merge'"),
        ({"r": row(status=PickStatus.ACCEPTED)}, "already merged"),
        ({"p": pull(base_ref="main")}, "targets main"),
        ({"p": pull(mergeable=False)}, "conflicts"),
        ({"reviews": ()}, "no approving review"),
        ({"reviews": APPROVED + (Review("rm", "CHANGES_REQUESTED", HEAD),)}, "changes requested by rm"),
        ({"runs": [check("build", "failure")]}, "build (failure)"),
        ({"runs": [check("build", None)]}, "build (pending)"),
        ({"runs": []}, "build (missing)"),
        ({"required": None, "runs": [check("build"), check("lint", "failure")]}, "lint (failure)"),
        ({"runs": [], "statuses": [CommitStatus("build", "error")]}, "build (error)"),
    ],
)
def test_each_condition_that_fails_is_named(case, expected):
    args = {
        "r": row(),
        "p": pull(),
        "reviews": APPROVED,
        "runs": [check("build")],
        "statuses": (),
        "required": ("build",),
    }
    args.update(case)
    plan = judge(args["r"], args["p"], args["reviews"], args["runs"], args["statuses"], args["required"])
    assert not plan.mergeable
    assert any(expected in problem for problem in plan.problems), plan.problems


@pytest.mark.parametrize("required", [None, ()])
def test_without_readable_or_required_checks_every_check_is_waited_on_and_the_plan_says_so(required):
    plan = judge(row(), pull(), APPROVED, [check("build"), check("lint")], required=required)
    assert plan.mergeable and "every check" in plan.required_from
    assert all(c.required for c in plan.checks)
    assert not judge(row(), pull(), APPROVED, [check("build"), check("lint", "failure")], required=required).mergeable


def test_a_validation_comment_written_before_the_phrase_existed_is_recognised_by_its_own_words(tmp_path):
    text = GOOD.replace("tracker_issue = 4000", 'tracker_issue = 4000\nvalidation_comment = "Checked on {branch}"')
    config = load_config(write(tmp_path, text))
    assert config.validation.phrase_for("2.5.0") == "Checked on"
    posted = config.validation_comment.format(version="2.5.0", number=1, branch="release/2.5")
    assert is_validation_comment(posted, config.validation.phrase_for("2.5.0"))
