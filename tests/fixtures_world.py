"""A tiny hand-made sandbox ``World`` for the emulator and adapter tests.

``acme/torchlet`` runs release 2.5.0 on ``release/2.5``. Milestone 1 ("2.5.0", open) holds 38
items, so GitHub's default 30 a page needs two pages while ``per_page=100`` needs one:

- #1 the release tracker issue (open, label "release tracker"), with three request comments;
- #2 an open issue, #3 a closed issue;
- #10 a trunk PR merged into main, #11 a PR closed without merging, #12 an open PR,
  #13 a release-branch PR onto ``release/2.5`` (merged), #14 an open PR onto ``release/2.5``,
  #15 a PR labelled ``release-feature-request``;
- #100..#128 merged filler PRs into main.

Milestone 2 ("2.4.1") is closed and holds #20, a merged PR. The release-branch head has
``CHECK_JOBS`` check runs (more than one page of 100) across the workflows ``pull``, ``trunk``
and ``lint``; the ``trunk`` run has two failed jobs. ``acme/vision`` is a second, green repository.
"""

from __future__ import annotations

from cockpit.sandbox.model import (
    SbCheckRun,
    SbComment,
    SbIssue,
    SbMilestone,
    SbPull,
    SbRepo,
    SbWorkflowRun,
    World,
)

REPO = "acme/torchlet"
BRANCH = "release/2.5"
CHECK_JOBS = 130
T0 = "2026-09-01T10:00:00Z"
T1 = "2026-09-10T10:00:00Z"


def sha(n: int) -> str:
    """A fake 40-hex commit sha, distinct per ``n``."""
    return f"{n:040x}"


RELEASE_HEAD = sha(0xBEEF)
MAIN_HEAD = sha(0xCAFE)
RC1 = sha(0xBEE0)

REQUEST = """Link to landed trunk PR (if applicable):
* https://github.com/acme/torchlet/pull/{trunk}

Link to release branch PR:
* https://github.com/acme/torchlet/pull/{release}

Criteria Category:
* Regression
"""


def _pull(
    number: int,
    title: str,
    *,
    base: str = "main",
    state: str = "closed",
    merged: bool = True,
    milestone: int | None = 1,
    labels: list[str] | None = None,
) -> SbPull:
    return SbPull(
        number=number,
        title=title,
        author="dev",
        base=base,
        head_ref=f"feature-{number}",
        state=state,
        merged=merged,
        milestone=milestone,
        labels=labels or [],
        created_at=T0,
        updated_at=T1,
        closed_at=T1 if state == "closed" else None,
        merged_at=T1 if merged else None,
        merge_commit_sha=sha(number) if merged else None,
        head_sha=sha(10_000 + number),
        body=f"Fixes #{number - 8}" if number == 10 else "",
    )


def _ci(repo: str, head: str, branch: str, failing: int, jobs: int, first_id: int) -> tuple[list, list]:
    runs, checks = [], []
    workflows = ("pull", "trunk", "lint")
    for i, name in enumerate(workflows):
        failed = name == "trunk" and failing > 0
        runs.append(
            SbWorkflowRun(
                id=first_id + i,
                name=name,
                head_sha=head,
                head_branch=branch,
                event="push",
                conclusion="failure" if failed else "success",
                check_suite_id=first_id + 100 + i,
                created_at=T1,
            )
        )
    for j in range(jobs):
        run = runs[j % len(workflows)]
        shard = j // len(workflows) + 1
        is_failure = run.name == "trunk" and shard <= failing
        checks.append(
            SbCheckRun(
                id=first_id + 1000 + j,
                name=f"linux-jammy-py3.11 / test (default, {shard}, 50, linux.2xlarge)",
                head_sha=head,
                run_id=run.id,
                conclusion="failure" if is_failure else "success",
                started_at=T1,
                completed_at=T1,
            )
        )
    return runs, checks


def tiny_world(*, check_jobs: int = CHECK_JOBS) -> World:
    """A fresh tiny world (mutable: each test gets its own)."""
    issues = [
        SbIssue(
            1,
            "[v2.5.0] Release Tracker",
            "release-manager",
            labels=["release tracker"],
            milestone=1,
            created_at=T0,
            updated_at=T1,
            body="Cherry-pick requests go here.",
        ),
        SbIssue(2, "Segfault in torchlet.load", "user1", milestone=1, assignees=["dev"], created_at=T0, updated_at=T1),
        SbIssue(
            3,
            "Docs typo in install guide",
            "user2",
            state="closed",
            milestone=1,
            created_at=T0,
            updated_at=T1,
            closed_at=T1,
            state_reason="completed",
        ),
    ]
    pulls = [
        _pull(10, "Fix segfault in load (#10)"),
        _pull(11, "Experimental speedup", merged=False),
        _pull(12, "Fix flaky test", state="open", merged=False),
        _pull(13, "[release/2.5] Fix segfault in load", base=BRANCH),
        _pull(14, "[release/2.5] Fix flaky test", base=BRANCH, state="open", merged=False),
        _pull(15, "New shiny feature", labels=["release-feature-request"]),
        _pull(20, "Patch fix for 2.4.1", milestone=2),
        *[_pull(n, f"Filler change {n}") for n in range(100, 129)],
    ]
    comments = [
        SbComment(5001, 1, "dev", REQUEST.format(trunk=10, release=13), created_at=T0, updated_at=T0),
        SbComment(5002, 1, "dev", REQUEST.format(trunk=12, release=14), created_at=T0, updated_at=T1),
        SbComment(5003, 1, "release-manager", "Please use the template.", created_at=T1, updated_at=T1),
    ]
    runs, checks = _ci(REPO, RELEASE_HEAD, BRANCH, failing=2, jobs=check_jobs, first_id=70_000)
    torchlet = SbRepo(
        full_name=REPO,
        milestones=[SbMilestone(1, "2.5.0"), SbMilestone(2, "2.4.1", state="closed")],
        issues=issues,
        pulls=pulls,
        comments=comments,
        branches={"main": MAIN_HEAD, BRANCH: RELEASE_HEAD, f"orig/{BRANCH}": sha(0xC0)},
        tags={"v2.5.0-rc1": RC1},
        branch_history={BRANCH: [RELEASE_HEAD, RC1, sha(0xC0)], "main": [MAIN_HEAD, sha(0xCA), sha(0xC0)]},
        workflow_runs=runs,
        check_runs=checks,
    )
    v_runs, v_checks = _ci("acme/vision", sha(0xF00D), BRANCH, failing=0, jobs=6, first_id=90_000)
    vision = SbRepo(
        full_name="acme/vision",
        branches={"main": sha(0xF00), BRANCH: sha(0xF00D)},
        workflow_runs=v_runs,
        check_runs=v_checks,
    )
    return World(
        seed=0,
        version="2.5.0",
        repository=REPO,
        release_branch=BRANCH,
        milestone_number=1,
        tracker_issue=1,
        repos={REPO: torchlet, "acme/vision": vision},
        ci_repositories={REPO: "red", "acme/vision": "green"},
    )
