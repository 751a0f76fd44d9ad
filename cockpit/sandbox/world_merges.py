"""Release-branch PRs the release manager can merge from the cockpit, and one that must be refused.

Planted after everything else (so no other number moves), only in a world with pending picks:
two clean requests on the tracker for closed milestone PRs still missing from the branch, each with
an open release PR. ``ready`` is approved by a release manager and its required checks are green
(a test job that is not required fails: the confirmation shows it apart); ``blocked`` has changes
requested and a failing required build. The release branch is protected with those required
checks. ``truth["merges"]`` records ``{"ready", "blocked", "blocked_because", "required"}``.
"""

from __future__ import annotations

from cockpit.domain.picks import PickStatus
from cockpit.sandbox.model import SbCheckRun, SbComment, SbRepo, SbReview, SbWorkflowRun
from cockpit.sandbox.world_names import CONTRIBUTORS, DAY, HOUR, RELEASE_MANAGERS, T_END, iso
from cockpit.sandbox.world_plan import HistoryPlan
from cockpit.sandbox.world_pulls import open_release_pr
from cockpit.sandbox.world_request_form import COMMENT_ID_BASE, fields, url

LINT = "lintrunner-noclang / linux-job"
BUILD = "linux-jammy-py3.11 / build"
TEST = "linux-jammy-py3.11 / test (default, 1, 2, linux.2xlarge)"
REQUIRED = [LINT, BUILD]
_IDS = {"run": 11_900_000_000, "suite": 12_900_000_000, "check": 31_900_000_000, "review": 3_100_000_000}


def plant_merges(plan: HistoryPlan, repo: SbRepo, tracker: int, picks: dict) -> dict:
    """Protect the release branch and plant the two requests; the truth entry (empty when no
    closed milestone PR is free to be picked)."""
    branch = plan.branch_name
    repo.required_checks[branch] = list(REQUIRED)
    taken = {p.head_ref for p in repo.pulls}
    roles = [r for r in reversed(plan.fill_missing) if f"cherry-pick-{plan.by_role(r).pr}-by-pytorchbot" not in taken]
    if len(roles) < 2:
        return {}
    truth: dict = {"required": list(REQUIRED)}
    next_comment = max((c.id for c in repo.comments), default=COMMENT_ID_BASE) + 7919
    for k, (kind, role) in enumerate((("ready", roles[0]), ("blocked", roles[1]))):
        trunk = plan.by_role(role)
        assert trunk.pr is not None, role  # a milestone PR's trunk commit came from that PR
        number = open_release_pr(plan, repo, role)
        pull = next(p for p in repo.pulls if p.number == number)
        when = T_END - (2 - k) * DAY
        pull.created_at, pull.updated_at = iso(when - HOUR), iso(when)
        outcomes = {LINT: "success", BUILD: "success", TEST: "failure"}
        if kind == "ready":
            repo.reviews.append(_review(k, number, RELEASE_MANAGERS[0].login, "APPROVED", pull.head_sha, when))
        else:
            outcomes[BUILD] = "failure"
            repo.reviews.append(_review(k, number, RELEASE_MANAGERS[1].login, "CHANGES_REQUESTED", pull.head_sha, when))
            truth["blocked_because"] = ["changes requested", f"required check {BUILD} failed"]
        _checks(repo, k, pull.head_sha, pull.head_ref, outcomes, when)
        author = CONTRIBUTORS[(k + 2) % len(CONTRIBUTORS)].login
        body = fields([url(trunk.pr)], [url(number)], ["Test/CI fixes"])
        comment_id = next_comment + 7919 * k
        repo.comments.append(SbComment(comment_id, tracker, author, body, iso(when), iso(when)))
        picks[str(comment_id)] = {
            "parsed": True,
            "trunk_prs": [trunk.pr],
            "release_prs": [number],
            "category": "Test/CI fixes",
            "trunk_na": False,
            "fixes": [],
            "hints": [],
            "status": str(PickStatus.UNDER_REVIEW),
            "flags": [],
        }
        truth[kind] = number
    return truth


def _review(k: int, pull: int, author: str, state: str, sha: str, when: int) -> SbReview:
    body = "LGTM for the release branch." if state == "APPROVED" else "The build fails on the release branch."
    return SbReview(_IDS["review"] + k, pull, author, state, sha, iso(when + 2 * HOUR), body)


def _checks(repo: SbRepo, k: int, sha: str, head_ref: str, outcomes: dict[str, str], when: int) -> None:
    """The ``Lint`` and ``pull`` runs of a PR head, one job per name of ``outcomes``."""
    for w, (workflow, names) in enumerate((("Lint", [LINT]), ("pull", [BUILD, TEST]))):
        run_id = _IDS["run"] + 10 * k + w
        failed = any(outcomes[n] == "failure" for n in names)
        repo.workflow_runs.append(
            SbWorkflowRun(
                run_id,
                workflow,
                sha,
                head_ref,
                "pull_request",
                "completed",
                "failure" if failed else "success",
                _IDS["suite"] + 10 * k + w,
                iso(when + HOUR),
            )
        )
        for j, name in enumerate(names):
            started = when + HOUR + 600 + 45 * j
            repo.check_runs.append(
                SbCheckRun(
                    _IDS["check"] + 100 * k + 10 * w + j,
                    name,
                    sha,
                    run_id,
                    "completed",
                    outcomes[name],
                    iso(started),
                    iso(started + 1500),
                )
            )
