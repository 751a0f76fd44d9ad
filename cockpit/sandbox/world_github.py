"""The core repository on the fictional GitHub: pull requests, the milestone's items and verdicts.

``core_repo`` turns a written ``HistoryPlan`` into an ``SbRepo`` and records, in ``truth``, the
verdict and the evidence the branch diff must find for every milestone item (see ``world.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cockpit.domain.commits import EvidenceKind as E
from cockpit.domain.commits import Verdict
from cockpit.sandbox.model import SbIssue, SbMilestone, SbPull, SbRepo
from cockpit.sandbox.world_names import (
    CONTRIBUTORS,
    CORE,
    DAY,
    HOUR,
    ISSUE_LABELS,
    PICKBOT,
    PR_LABELS,
    RELEASE_MANAGERS,
    T_CUT,
    T_END,
    fake_sha,
    iso,
)
from cockpit.sandbox.world_plan import X_PICKS, HistoryPlan

MILESTONE, CLOSED_MILESTONE, NEXT_MILESTONE = 12, 11, 13
PLANNING_MILESTONE = 10  # "v2.5": the feature planning of the minor release, closed at the cut
SKIP_LABEL = "release-feature-request"

_PICKED = {E.PR_NUMBER, E.PR_URL, E.CHERRY_PICK_TRAILER, E.PATCH_ID}
EVIDENCE_BY_SHAPE = {
    "x_pick": _PICKED,
    "pr_plain": {E.PR_NUMBER, E.PATCH_ID},
    "pr_trailer": _PICKED,
    "bulk": {E.BULK_PICK},
    "conflict": {E.PR_NUMBER, E.PR_URL, E.CHERRY_PICK_TRAILER},
    "noref": {E.PATCH_ID},
}


@dataclass
class CoreFacts:
    """What the tracker and the truth need beyond the repository itself."""

    release_prs: dict[str, int] = field(default_factory=dict)  # role -> release-branch PR number
    issues: dict[str, int] = field(default_factory=dict)  # role -> issue number
    verdicts: dict[str, str] = field(default_factory=dict)
    evidence: dict[str, list[str]] = field(default_factory=dict)
    tracker: int = 0


def _trunk_pr(plan: HistoryPlan, role: str) -> int:
    """The PR of the trunk commit playing ``role`` (every commit with a role came from a PR)."""
    pr = plan.by_role(role).pr
    assert pr is not None, role
    return pr


def core_repo(
    plan: HistoryPlan, *, open_issues: int = 0, closed_unmerged: int = 0, all_green: bool = False
) -> tuple[SbRepo, CoreFacts]:
    """The core repository with its pulls, milestones, issues and release PRs (no comments yet).

    ``all_green``: the release manager moved everything unfinished to the next milestone: PRs
    missing from the branch, the pick that landed modified, open items and issues needing review.
    """
    repo = SbRepo(CORE)
    facts = CoreFacts()
    repo.milestones = [
        SbMilestone(
            PLANNING_MILESTONE,
            f"v{plan.branch_name.removeprefix('release/')}",
            "closed",
            "Features planned for the minor release (closed at the branch cut)",
            iso(T_CUT),
        ),
        SbMilestone(CLOSED_MILESTONE, "2.4.1", "closed", "Patch release 2.4.1", iso(T_CUT - 30 * DAY)),
        SbMilestone(MILESTONE, plan.version, "open", f"The {plan.version} release", iso(T_END + 14 * DAY)),
        SbMilestone(NEXT_MILESTONE, _next_minor(plan.version), "open", "Next minor release", None),
    ]
    in_milestone = _milestone_roles(plan)
    moved = (
        {r for r, v in in_milestone.items() if v in (Verdict.MISSING, Verdict.LANDED_MODIFIED)} if all_green else set()
    )
    in_milestone = {r: v for r, v in in_milestone.items() if r not in moved}
    for commit in plan.trunk:
        if commit.pr is None:
            continue
        login = commit.author.login
        labels = ["Merged", "ciflow/trunk", PR_LABELS[2 + commit.index % (len(PR_LABELS) - 2)]]
        body = commit.paragraph + "".join(f"\n\n{line}" for line in commit.extra)
        repo.pulls.append(
            SbPull(
                commit.pr,
                commit.title,
                login,
                "main",
                f"gh/{login}/{commit.index}/head",
                "closed",
                True,
                body,
                labels,
                [],
                MILESTONE if commit.role in in_milestone else NEXT_MILESTONE if commit.role in moved else None,
                iso(commit.time - 2 * DAY - commit.index % 7 * HOUR),
                iso(commit.time),
                iso(commit.time),
                iso(commit.time),
                commit.sha,
                fake_sha("head", CORE, commit.pr),
            )
        )
    for role, verdict in in_milestone.items():
        number = plan.by_role(role).pr
        facts.verdicts[str(number)] = verdict
        facts.evidence[str(number)] = _evidence(plan, role)
    _release_prs(plan, repo, facts)
    _issues(plan, repo, facts, open_issues, all_green)
    _unmerged_pulls(plan, repo, facts, closed_unmerged, all_green)
    _skipped(plan, repo, facts)
    _refs(plan, repo)
    return repo, facts


def _next_minor(version: str) -> str:
    major, minor = version.split(".")[:2]
    return f"{major}.{int(minor) + 1}.0"


def _milestone_roles(plan: HistoryPlan) -> dict[str, str]:
    roles = {
        r: Verdict.LANDED
        for r in [
            *X_PICKS,
            *plan.fill_picks,
            "pick_pr_plain",
            "pick_pr_trailer",
            "bulk_1",
            "bulk_2",
            "bulk_3",
            "pick_noref",
        ]
        if r != "issue_fix_picked"
    }
    roles["pick_conflict"] = Verdict.LANDED_MODIFIED
    roles.update(
        dict.fromkeys(
            ["before_cut_1", "before_cut_2", "before_cut_3", *plan.fill_before_cut], Verdict.LANDED_BEFORE_CUT
        )
    )
    roles.update(dict.fromkeys([f"missing_{k}" for k in range(1, 6)] + plan.fill_missing, Verdict.MISSING))
    return {r: str(v) for r, v in roles.items()}


def _evidence(plan: HistoryPlan, role: str) -> list[str]:
    """Every kind of evidence the release branch carries for the trunk commit of ``role``."""
    index = plan.roles[role]
    if index <= plan.cut:
        return [str(E.BEFORE_CUT)]
    for commit in plan.branch:
        if index in commit.picks:
            return sorted(str(k) for k in EVIDENCE_BY_SHAPE[commit.role])
    return []


def _release_prs(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> None:
    """A merged release-branch PR for every release-branch commit made through one."""
    branch = plan.branch_name
    for commit in plan.branch:
        if commit.release_pr is None:
            continue
        picked = [plan.trunk[i] for i in commit.picks]
        subject = commit.message.split("\n", 1)[0]
        title = f"[{branch}] {picked[0].title}" if len(picked) == 1 else subject.rsplit(" (#", 1)[0]
        by_bot = commit.committer == PICKBOT
        author = PICKBOT.login if by_bot else (picked[0].author.login if len(picked) == 1 else commit.committer.login)
        head = (
            f"cherry-pick-{picked[0].pr}-by-{PICKBOT.login}"
            if by_bot
            else f"{author}/{commit.role}-{commit.release_pr}"
        )
        opened = commit.time - 20 * HOUR
        repo.pulls.append(
            SbPull(
                commit.release_pr,
                title,
                author,
                branch,
                head,
                "closed",
                True,
                commit.message.split("\n", 2)[-1].strip(),
                ["release notes: releng"] if not picked else [],
                [],
                None,
                iso(opened),
                iso(commit.time),
                iso(commit.time),
                iso(commit.time),
                commit.sha,
                fake_sha("head", CORE, commit.release_pr),
            )
        )
        key = (
            commit.role
            if not picked or commit.role == "bulk"
            else next(r for r, i in plan.roles.items() if i == commit.picks[0])
        )
        facts.release_prs[key] = commit.release_pr


def open_release_pr(
    plan: HistoryPlan,
    repo: SbRepo,
    role: str,
    *,
    base: str | None = None,
    state: str = "open",
    author: str = "",
    title: str = "",
) -> int:
    """A release PR with no commit on the branch (under review, aimed wrong, or rejected).

    ``role`` names the trunk commit it picks; for a PR that is not on main, give ``title``.
    """
    trunk = plan.by_role(role) if role in plan.roles else None
    index = trunk.index if trunk else len(plan.trunk) - 5
    when = (trunk.time if trunk else T_END - 4 * DAY) + 8 * HOUR
    number = plan.numbers.after(index)
    title = f"[{plan.branch_name}] {trunk.title if trunk else title}"
    closed = iso(when + 3 * DAY) if state == "closed" else None
    repo.pulls.append(
        SbPull(
            number,
            title,
            author or (trunk.author.login if trunk else CONTRIBUTORS[4].login),
            base or plan.branch_name,
            f"cherry-pick-{trunk.pr if trunk else number}-by-{PICKBOT.login}",
            state,
            False,
            "Cherry pick of the trunk fix onto the release branch.",
            [],
            [],
            None,
            iso(when),
            closed or iso(when + HOUR),
            closed,
            None,
            None,
            fake_sha("head", CORE, number),
        )
    )
    return number


def _issue(
    plan: HistoryPlan,
    repo: SbRepo,
    number: int,
    title: str,
    *,
    state: str,
    labels: list[str],
    milestone: int | None = MILESTONE,
    when: int = T_CUT,
    reason: str | None = None,
) -> SbIssue:
    author = CONTRIBUTORS[number % len(CONTRIBUTORS)].login
    closed = iso(when + 5 * DAY) if state == "closed" else None
    issue = SbIssue(
        number,
        title,
        author,
        state,
        f"### Describe the bug\n\n{title}.\n\n### Versions\n\ntorchlet {plan.version}rc",
        labels,
        [CONTRIBUTORS[(number + 3) % len(CONTRIBUTORS)].login],
        milestone,
        iso(when),
        closed or iso(when + DAY),
        closed,
        reason or ("completed" if state == "closed" else None),
    )
    repo.issues.append(issue)
    return issue


def _issues(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts, extra_open: int, all_green: bool = False) -> None:
    def unfinished(number: int, verdict: str) -> int:
        """The milestone of an item the release cannot ship with (its verdict recorded unless moved)."""
        if all_green:
            return NEXT_MILESTONE
        facts.verdicts[str(number)], facts.evidence[str(number)] = verdict, []
        return MILESTONE

    titles = {
        "issue_fix_picked": "torchlet.compile crashes on empty inputs after 2.4.1",
        "issue_fix_missing": "Silent wrong result in index_put_ with duplicate indices",
        "issue_fix_precut": "DataLoader workers hang on macOS with spawn",
    }
    for role, number in plan.issues.items():
        fix = plan.by_role(role)
        facts.issues[role] = number
        if role == "issue_fix_missing" and all_green:
            _issue(
                plan,
                repo,
                number,
                titles[role],
                state="closed",
                labels=["module: regression", "triaged"],
                milestone=NEXT_MILESTONE,
                when=fix.time - 2 * DAY,
            )
            continue
        _issue(
            plan,
            repo,
            number,
            titles[role],
            state="closed",
            labels=["module: regression", "triaged"],
            when=fix.time - 2 * DAY,
        )
        facts.verdicts[str(number)] = {"issue_fix_picked": "landed", "issue_fix_missing": "missing"}.get(
            role, "landed_before_cut"
        )
        facts.evidence[str(number)] = (
            [str(E.BEFORE_CUT)]
            if role == "issue_fix_precut"
            else sorted(map(str, _PICKED))
            if role == "issue_fix_picked"
            else []
        )
    collision = plan.numbers.take(_trunk_pr(plan, "pick_x2") // 10)
    needs_review = [
        (collision, "Document the deprecation of the legacy autograd profiler"),
        (plan.numbers.after(plan.cut - 40), "Flaky test_fsdp_checkpoint on multi-GPU runners"),
    ]
    for number, title in needs_review:
        milestone = unfinished(number, "needs_review")
        _issue(
            plan,
            repo,
            number,
            title,
            state="closed",
            labels=["triaged", "module: docs"],
            milestone=milestone,
            when=T_CUT - 10 * DAY,
        )
    facts.issues["needs_review_collision"] = collision
    for k in range(2 + extra_open):
        number = plan.numbers.after(len(plan.trunk) - 30 + k % 20)
        milestone = unfinished(number, "open_issue")
        _issue(
            plan,
            repo,
            number,
            f"RC validation: {['import fails', 'wheel too large', 'slow first compile'][k % 3]} on "
            f"{['aarch64', 'Windows', 'macOS 15', 'Python 3.13t'][k % 4]}",
            state="open",
            labels=[ISSUE_LABELS[k % len(ISSUE_LABELS)], "high priority"],
            milestone=milestone,
            when=T_END - (5 - k % 4) * DAY,
        )
    for k, title in enumerate(
        (
            "AdamW regression with foreach=True",
            "conv2d slower on CPU than 2.4",
            "FSDP OOM when resuming",
            "torchlet.export drops buffers",
        )
    ):
        number = plan.numbers.after(plan.cut + 2 + k)
        _issue(
            plan,
            repo,
            number,
            title,
            state="closed" if k % 2 == 0 else "open",
            labels=["module: regression", "high priority"],
            milestone=None,
            when=T_CUT + k * DAY,
        )
        facts.issues[f"regression_{k}"] = number
    for k in range(2):
        number = plan.numbers.after(plan.cut // 3 + k)
        _issue(
            plan,
            repo,
            number,
            f"2.4.1: {['libtorchlet.so missing symbol', 'CUDA 12.4 wheel crash'][k]}",
            state="closed",
            labels=["triaged"],
            milestone=CLOSED_MILESTONE,
            when=T_CUT - 40 * DAY,
        )


def _unmerged_pulls(
    plan: HistoryPlan, repo: SbRepo, facts: CoreFacts, extra_closed: int, all_green: bool = False
) -> None:
    """Milestone PRs that never merged: open ones, closed ones, and a number prefix of a picked PR.

    ``all_green``: the open ones were moved to the next milestone.
    """
    collision = plan.numbers.take(_trunk_pr(plan, "pick_x1") // 10)
    specs = [
        (plan.numbers.after(len(plan.trunk) - 20), "open", "trunk_open", "Fix cudnn version check for 9.3"),
        (plan.numbers.after(len(plan.trunk) - 12), "open", "open_pr", "Support cp313t in the wheel smoke test"),
        (collision, "closed", "closed_collision", "Add legacy serialization fallback"),
        *[
            (
                plan.numbers.after(plan.cut + 5 + k),
                "closed",
                f"closed_{k}",
                f"Try a faster path for {['gelu', 'cumsum', 'topk'][k % 3]}",
            )
            for k in range(1 + extra_closed)
        ],
    ]
    for number, state, role, title in specs:
        author = CONTRIBUTORS[number % len(CONTRIBUTORS)].login
        when = T_END - 6 * DAY if state == "open" else T_CUT - 20 * DAY
        moved = all_green and state == "open"
        repo.pulls.append(
            SbPull(
                number,
                title,
                author,
                "main",
                f"{author}/{role}",
                state,
                False,
                f"{title}.\n\ncc @{RELEASE_MANAGERS[0].login}",
                ["module: cuda" if state == "open" else "Stale"],
                [],
                NEXT_MILESTONE if moved else MILESTONE,
                iso(when),
                iso(when + 2 * DAY),
                iso(when + 2 * DAY) if state == "closed" else None,
                None,
                None,
                fake_sha("head", CORE, number),
            )
        )
        if not moved:
            facts.verdicts[str(number)], facts.evidence[str(number)] = "not_merged", []
        facts.issues[role] = number


def _skipped(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> None:
    for k, state in enumerate(("open", "closed")):
        number = plan.numbers.after(plan.cut - 60 + k)
        _issue(
            plan,
            repo,
            number,
            ["[RFC] Ship a torchlet.nested tutorial with 2.5", "Feature: float8 training recipe"][k],
            state=state,
            labels=[SKIP_LABEL, "triaged"],
            when=T_CUT - 15 * DAY,
        )
        facts.verdicts[str(number)], facts.evidence[str(number)] = "skipped", []


def _refs(plan: HistoryPlan, repo: SbRepo) -> None:
    branch = plan.branch_name
    repo.branches = {
        "main": plan.trunk[-1].sha,
        branch: plan.branch[-1].sha,
        f"orig/{branch}": plan.trunk[plan.cut].sha,
    }
    repo.branch_history = {
        branch: [c.sha for c in reversed(plan.branch[-10:])],
        "main": [c.sha for c in reversed(plan.trunk[-10:])],
    }
