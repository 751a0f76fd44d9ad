"""The reports of a hand-made acme/torchlet 2.5.0 release, one builder per pane."""

from __future__ import annotations

from datetime import datetime, timedelta

from cockpit.domain.artifacts import ArtifactProblem, StorageReport
from cockpit.domain.checklist import ChecklistStep, StepKind
from cockpit.domain.ci import JobVerdict, RepoCIVerdict
from cockpit.domain.commits import (
    BranchDiffReport,
    CommitRecord,
    Evidence,
    EvidenceKind,
    ItemDiff,
    RCDelta,
    RevertOwed,
    Verdict,
)
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import (
    ItemKind,
    ItemState,
    Milestone,
    MilestoneItem,
    PullRequest,
    PullState,
)
from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.domain.reports import (
    BranchReport,
    CIReport,
    MilestoneReport,
    PicksReport,
    StorageGateReport,
)

RED, AMBER, GREEN = GateStatus.RED, GateStatus.AMBER, GateStatus.GREEN
URL = "https://github.com/acme/torchlet"


def _item(n, kind, state, title, labels=(), who=(), days=1.0, now=None):
    path = "pull" if kind is ItemKind.PULL else "issues"
    return MilestoneItem(
        n, kind, title, state, f"{URL}/{path}/{n}", tuple(labels), tuple(who), updated_at=now - timedelta(days=days)
    )


def milestone_report(now: datetime) -> MilestoneReport:
    PULL, ISSUE = ItemKind.PULL, ItemKind.ISSUE
    items = (
        _item(
            91234,
            PULL,
            ItemState.OPEN,
            "Fix [bold]segfault[/bold] in conv2d backward",
            ("module: nn",),
            ("alice",),
            0.5,
            now,
        ),
        _item(
            91240,
            ISSUE,
            ItemState.OPEN,
            "torch.compile regression on A100",
            ("regression", "triaged"),
            ("bob",),
            2,
            now,
        ),
        _item(91102, PULL, ItemState.MERGED, "Pin triton to 3.2.0", ("release notes",), ("carol",), 5, now),
        _item(91150, PULL, ItemState.CLOSED_UNMERGED, "Revert sparse change", (), (), 9, now),
        _item(90877, ISSUE, ItemState.CLOSED, "Docs: wrong default for dim", ("module: docs",), ("dan",), 12, now),
        _item(91301, PULL, ItemState.MERGED, "Guard cuDNN 9 workspace size", ("module: cuda",), ("erin",), 3, now),
    )
    skipped = (
        _item(91000, ISSUE, ItemState.OPEN, "Feature request: bf16 on MPS", ("release-feature-request",), (), 20, now),
    )
    gate = Gate(
        "milestone_empty",
        "Milestone empty",
        RED,
        "2 open items: 1 PR, 1 issue",
        ("#91234 Fix segfault (PR, open)", "#91240 torch.compile regression (issue, open)"),
    )
    return MilestoneReport(Milestone(7, "2.5.0", "open", 2, 4, f"{URL}/milestone/7"), items, skipped, gate)


BODY = """Link to landed trunk PR (if applicable):
* https://github.com/acme/torchlet/pull/{trunk}

Link to release branch PR:
* https://github.com/acme/torchlet/pull/{rel}

Criteria Category:
* {cat}

[red]not markup[/red] and a `code span`.
"""


def _pick(cid, author, trunk, rel, cat, status, flags=(), age=1.0, now=None):
    body = BODY.format(trunk=trunk, rel=rel, cat=cat)
    request = PickRequest(
        cid,
        author,
        body,
        (PRRef(trunk),),
        (PRRef(rel),) if rel else (),
        cat,
        created_at=now - timedelta(days=age),
        html_url=f"{URL}/issues/900#issuecomment-{cid}",
    )
    return PickRow(request, status, tuple(flags), age_days=age)


def picks_report(now: datetime) -> PicksReport:
    rows = (
        _pick(1, "alice", 91102, 91500, "Regression", PickStatus.ACCEPTED, (), 6, now),
        _pick(2, "bob", 91180, 91510, "Critical fix", PickStatus.UNDER_REVIEW, (), 2, now),
        _pick(
            3,
            "carol",
            91190,
            91520,
            "Regression",
            PickStatus.UNDER_REVIEW,
            (PickFlag.TRUNK_REVERTED, PickFlag.MISSING_ISSUE_LINK),
            3,
            now,
        ),
        _pick(4, "dan", 91195, 91530, "Docs", PickStatus.UNDER_REVIEW, (PickFlag.WRONG_BASE,), 9, now),
        _pick(5, "erin", 91199, 0, "Release only", PickStatus.NO_RELEASE_PR, (PickFlag.NO_RELEASE_PR,), 1, now),
        _pick(6, "frank", 91180, 91540, "Critical fix", PickStatus.REJECTED, (PickFlag.DUPLICATE,), 4, now),
    )
    unrequested = (
        PullRequest(91550, "[release/2.5] Bump version", PullState.MERGED, "release/2.5", "bump", f"{URL}/pull/91550"),
    )
    gate = Gate("picks_clear", "No pending cherry-picks", RED, "4 pending, 3 flagged, 1 unrequested merge")
    return PicksReport(900, "[v2.5.0] Release Tracker", rows, unrequested, gate)


def _job(name, wf, conclusion, run_id=700):
    return JobVerdict(name, wf, "completed" if conclusion else "in_progress", conclusion, run_id=run_id)


def ci_report() -> CIReport:
    branches = (
        RepoCIVerdict(
            "acme/torchlet",
            "release/2.5",
            RED,
            "trunk: 2 jobs failed: linux-jammy / test (default)",
            failed=(
                _job("linux-jammy / test (default)", "trunk", "failure"),
                _job("win-vs2022 / build", "trunk", "failure"),
            ),
            unstable=(_job("linux / test (unstable)", "pull", "failure"),),
            job_count=212,
            head_sha="a" * 40,
            last_green_sha="b" * 40,
            commits_behind_green=3,
        ),
        RepoCIVerdict(
            "acme/vision",
            "release/0.20",
            GREEN,
            "all required workflows green",
            job_count=88,
            head_sha="c" * 40,
            last_green_sha="c" * 40,
            commits_behind_green=0,
        ),
        RepoCIVerdict(
            "acme/audio",
            "release/2.5",
            AMBER,
            "pull: 1 job pending",
            pending=(_job("macos / test", "pull", None),),
            job_count=40,
            head_sha="d" * 40,
        ),
    )
    rc = (
        RepoCIVerdict(
            "acme/torchlet",
            "v2.5.0-rc2",
            GREEN,
            "binary builds green",
            job_count=120,
            head_sha="e" * 40,
            last_green_sha="e" * 40,
            commits_behind_green=0,
        ),
    )
    gate = Gate("ci_green", "CI green", RED, "acme/torchlet release/2.5 red; acme/audio pending")
    return CIReport(branches, rc, gate, requests=7)


def _ev(kind, sha, detail=""):
    return Evidence(kind, sha, detail)


def branch_report() -> BranchReport:
    items = (
        ItemDiff(
            91102, "Pin triton to 3.2.0", Verdict.LANDED, (_ev(EvidenceKind.PR_NUMBER, "1" * 40, "(#91102) (#91500)"),)
        ),
        ItemDiff(
            91301,
            "Guard cuDNN 9 workspace size",
            Verdict.LANDED_MODIFIED,
            (_ev(EvidenceKind.CHERRY_PICK_TRAILER, "2" * 40),),
        ),
        ItemDiff(90500, "Old fix", Verdict.LANDED_BEFORE_CUT, (_ev(EvidenceKind.BEFORE_CUT, "3" * 40),)),
        ItemDiff(91305, "Fix NaN in [i]layer_norm[/i]", Verdict.MISSING, (), ("4" * 40,)),
        ItemDiff(91150, "Revert sparse change", Verdict.NOT_MERGED),
        ItemDiff(91240, "torch.compile regression on A100", Verdict.OPEN_ISSUE),
        ItemDiff(91310, "Squashed fix for autograd", Verdict.NEEDS_REVIEW, (_ev(EvidenceKind.PATCH_ID, "5" * 40),)),
        ItemDiff(91000, "Feature request: bf16 on MPS", Verdict.SKIPPED),
    )
    reverts = (
        RevertOwed(
            "6" * 40,
            'Revert "Speed up gather (#91190)"',
            "7" * 40,
            91190,
            (_ev(EvidenceKind.CHERRY_PICK_TRAILER, "8" * 40),),
        ),
    )
    only_branch = (CommitRecord("9" * 40, "[release/2.5] Fix flaky test_cuda (#91560)"),)
    delta = RCDelta(
        "v2.5.0-rc1", "v2.5.0-rc2", (CommitRecord("1" * 40, "Pin triton to 3.2.0 (#91102) (#91500)"),), (91500,)
    )
    diff = BranchDiffReport(items, reverts, only_branch, delta, "f" * 40, "release/2.5", "main")
    gate = Gate("branch_diff_clean", "Branch diff clean", RED, "1 missing, 1 revert owed")
    return BranchReport(diff, gate)


def storage_report() -> StorageGateReport:
    problems = (
        ArtifactProblem("torchlet-2.5.0-cp313t-cp313t-manylinux_2_28_x86_64.whl", "missing", "not in the test index"),
        ArtifactProblem("torchlet-2.5.0-cp312-cp312-win_amd64.whl", "size_warning", "870 MB, over 850 MB"),
    )
    report = StorageReport("https://download.example/whl/test/torchlet/", problems=problems)
    gate = Gate("rc_artifacts", "RC artifacts valid", RED, "2 problems: 1 missing, 1 over 850 MB")
    pypi = Gate("pypi_not_published", "Not yet on PyPI", GREEN, "2.5.0 not on PyPI yet")
    sizes = Gate("wheel_sizes", "Wheel sizes", GREEN, "41 wheel(s) within their variant's history")
    return StorageGateReport(report, gate, pypi, sizes_gate=sizes)


def _step(sid, section, title, kind=StepKind.MANUAL, gate=None, **kw):
    return ChecklistStep(sid, section, title, help=f"What '{title}' means.", kind=kind, gate=gate, **kw)


A = StepKind.AUTOMATIC
CHECKLIST_STEPS = (
    _step("milestone_empty", "Final RC requirements", "Milestone is empty", A, "milestone_empty"),
    _step("ci_green", "Final RC requirements", "CI is green", A, "ci_green"),
    _step(
        "final_rc_tag",
        "Final RC requirements",
        "Create the final RC tag",
        command="git tag -a v2.5.0-rc3 release/2.5 && git push origin v2.5.0-rc3",
    ),
    _step("validation_issue", "After the final RC", "Validation issue created"),
    _step("staged_ok", "After the final RC", "Staged binaries validated", A, "rc_artifacts"),
    _step("promote_pypi", "Promotion", "Promote wheels to PyPI", irreversible=True),
    _step("colab_issue", "Release day", "Open the Colab issue", required=False),
)
