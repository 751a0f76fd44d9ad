"""The core repository's issues: fixes the milestone tracks, items needing review or still open,
the regressions the tracker's requests fix, the last patch release's, and the items the release skips.
"""

from __future__ import annotations

from cockpit.domain.commits import EvidenceKind as E
from cockpit.sandbox.model import SbIssue, SbRepo
from cockpit.sandbox.world_milestones import CLOSED_MILESTONE, MILESTONE, NEXT_MILESTONE, PICKED, SKIP_LABEL, CoreFacts
from cockpit.sandbox.world_names import CONTRIBUTORS, DAY, ISSUE_LABELS, T_CUT, T_END, iso
from cockpit.sandbox.world_plan import HistoryPlan


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


def milestone_issues(
    plan: HistoryPlan, repo: SbRepo, facts: CoreFacts, extra_open: int, all_green: bool = False
) -> None:
    """File the issues: the fixes the milestone tracks, items needing review, ``2 + extra_open`` open
    RC-validation reports, the regressions the requests fix and the last patch release's issues.

    ``all_green``: the unfinished ones were moved to the next milestone (no verdict recorded).
    """

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
            else sorted(map(str, PICKED))
            if role == "issue_fix_picked"
            else []
        )
    collision = plan.numbers.take(plan.trunk_pr("pick_x2") // 10)
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


def skipped_items(plan: HistoryPlan, repo: SbRepo, facts: CoreFacts) -> None:
    """Two feature requests in the milestone under the label the release skips (verdict ``skipped``)."""
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
