"""Merge an accepted release-branch PR from the cherry-picks pane, at the head that was judged.

The preview reads the PR, its reviews, its head's check runs and statuses and the release branch's
required checks, and names every condition that fails; the merge is offered only when none does.
It is sent with ``sha`` = the head shown in the confirmation, so a push made since is never merged
unseen: GitHub answers 409 and nothing is merged. The merge method is ``[release] merge_method``
(default "squash": one commit per pick on the release branch, titled like the PR); release
managers merge release-branch PRs directly rather than through the merge bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.merging import MergePlan
from cockpit.domain.repos import elsewhere
from cockpit.errors import ActionRefused

if TYPE_CHECKING:
    from cockpit.domain.picks import PickRow
    from cockpit.ports import Ports


def register(reg: ActionRegistry, backend: Ports) -> None:
    rel = backend.config.release
    repo = backend.repository
    shown: dict[int, MergePlan] = {}  # release PR -> the plan its confirmation showed

    def number_of(row: PickRow) -> int:
        from cockpit.services.merge_readiness import release_pull_number, request_refusal

        # before any request: a domain library's "#8190" is not the core's #8190
        if (other := elsewhere(row, repo, "Merge the release PR")) is not None:
            raise ActionRefused(other)
        number = release_pull_number(row, repo)
        if number is None:
            raise ActionRefused(request_refusal(row, repo) or "the request names no release PR of this repository")
        return number

    def judge(row: PickRow) -> MergePlan:
        from cockpit.services.merge_readiness import merge_plan

        number = number_of(row)
        pull = backend.github.pull(repo, number)
        sha = pull.head_sha
        reviews = backend.github.pull_reviews(repo, number)
        runs = backend.github.check_runs(repo, sha) if sha else []
        statuses = backend.github.commit_statuses(repo, sha) if sha else []
        required = backend.github.required_checks(repo, rel.branch)
        return merge_plan(
            row,
            pull,
            repository=repo,
            release_branch=rel.branch,
            method=backend.config.merge_method,
            reviews=reviews,
            runs=runs,
            statuses=statuses,
            required=required,
        )

    def describe(row: PickRow) -> str:
        from cockpit.services.merge_readiness import plan_text

        plan = judge(row)
        shown[plan.number] = plan
        return plan_text(plan)

    def applicable(row: PickRow) -> str | None:
        from cockpit.services.merge_readiness import request_refusal

        if (other := elsewhere(row, repo, "Merge the release PR")) is not None:
            return other
        if (why := request_refusal(row, repo)) is not None:
            return f"not merged: {why}"
        plan = shown.get(number_of(row))
        if plan is not None and plan.problems:
            return f"#{plan.number} cannot be merged: " + "; ".join(plan.problems)
        return None

    def merge(row: PickRow) -> str:
        number = number_of(row)
        plan = shown.pop(number, None)
        if plan is None:
            raise ActionRefused(f"preview the merge of #{number} first: the merge is made at the head it shows")
        if plan.problems:
            raise ActionRefused(f"#{number} cannot be merged: " + "; ".join(plan.problems))
        merged = backend.github.merge_pull(repo, number, sha=plan.head_sha, method=plan.method)
        return f"merged #{number} into {plan.base} at head {plan.head_sha[:12]} ({plan.method}): {merged[:12]}"

    def merging(row: PickRow) -> Intent:
        number = number_of(row)
        plan = shown.get(number)
        return Intent("merge", repo, f"#{number}", plan.head_sha if plan is not None else "")

    def merged(intent: Intent) -> Finding:
        from cockpit.domain.github import PullState

        pull = backend.github.pull(intent.where, int(intent.what.lstrip("#")))
        if pull.state is PullState.MERGED:
            into = f" as {pull.merge_commit_sha[:12]}" if pull.merge_commit_sha else ""
            return Finding(DONE, f"{intent.where}{intent.what} is merged{into}: it is not merged again")
        head = f"; its head is {pull.head_sha[:12]}" if pull.head_sha else ""
        return Finding(NOT_DONE, f"{intent.where}{intent.what} is {pull.state.value.replace('_', ' ')}{head}")

    reg.register(
        Action(
            "picks.merge",
            "Merge the release PR",
            Danger.MUTATING,
            "picks",
            run=merge,
            describe=describe,
            applicable=applicable,
            label=lambda row: f"{repo}#{number_of(row)}",
            intent=merging,
            look=merged,
        )
    )
