"""The reverts the release branch owes, opened as pull requests from the user's fork (issue 29 section 2).

One guarded action over the batch: the preview (made in a worker: it reads the clone and GitHub)
lists every revert owed with what will happen to it; one confirmation; then, for each revert that
may be opened, the ``git cherry-pick -x`` made in memory is pushed to the fork as
``cherry-pick-revert-<PR>-<X.Y>`` (``GitPort.push_pick``: the user's worktree, index and refs stay
as they were; never the release branch) and the PR is opened onto the release branch, once: a PR
already there from that head branch is reused. The tracker's request comment is posted for each PR
opened when asked. The plan previewed is the plan run.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.revert_prs import RevertPR, RevertPRAsk, RevertPRBatch
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.ports import Ports

ACTION = "branch.revert_prs"


def plan_batch(backend: Ports, ask: RevertPRAsk) -> RevertPRBatch:
    """Read what the plan needs (the release head, ancestry, tags, the PRs onto the branch, who acts)."""
    from cockpit.loaders.branch import release_branch
    from cockpit.services.revert_prs import plan_revert_prs

    rel = backend.config.release
    head = release_branch(backend).sha
    pulls = backend.github.pulls(backend.repository, base=rel.branch, state="all") if ask.reverts else []
    return plan_revert_prs(
        ask.reverts,
        predictions=ask.predictions,
        on_branch=lambda sha: backend.git.is_ancestor(sha, head),
        tags_of=backend.git.tags_containing,
        pulls=pulls,
        release_branch=rel.branch,
        major_minor=".".join(rel.version.split(".")[:2]),
        repository=backend.repository,
        fork=backend.github.authenticated_user() if ask.reverts else "",
        head=head,
        comment=ask.comment,
    )


def open_batch(backend: Ports, batch: RevertPRBatch) -> tuple[list[RevertPR], list[str]]:
    """Push and open each PR of ``batch`` that may be opened; (the plans with their PRs, what failed)."""
    from cockpit.services.revert_prs import request_comment

    remote, tracker = backend.config.git.fork_remote, backend.config.release.tracker_issue
    done, failed = [], []
    for plan in batch.to_open:
        try:
            backend.git.push_pick(plan.revert_sha, batch.head, remote=remote, branch=plan.branch)
            pull = backend.github.create_pull(
                batch.repository,
                title=plan.title,
                body=plan.body,
                head=f"{batch.fork}:{plan.branch}",
                base=batch.release_branch,
            )
            opened = replace(plan, pull_number=pull.number, pull_url=pull.html_url)
            if batch.comment and tracker:
                backend.github.create_comment(batch.repository, tracker, request_comment(opened, batch.repository))
            done.append(opened)
        except CockpitError as exc:
            failed.append(f"{plan.revert_sha[:12]}: {exc}")
    return done, failed


def register(reg: ActionRegistry, backend: Ports) -> None:
    previewed: dict[RevertPRAsk, RevertPRBatch] = {}

    def describe(ask: RevertPRAsk) -> str:
        from cockpit.services.revert_prs import preview

        batch = plan_batch(backend, ask)
        previewed[ask] = batch
        remote = backend.config.git.fork_remote
        return f"{preview(batch)}\n(pushed to the remote '{remote}' only; never to {batch.release_branch})"

    def run(ask: RevertPRAsk) -> str:
        batch = previewed.pop(ask, None) or plan_batch(backend, ask)
        if not batch.to_open:  # asked again after it was done: every PR is there already, nothing is made twice
            return f"no PR to open: {_outcomes(batch.plans)}"
        done, failed = open_batch(backend, batch)
        said = "; ".join(f"#{p.pull_number} {p.branch}" for p in done)
        summary = f"opened {len(done)} PR(s) onto {batch.release_branch}" + (f": {said}" if said else "")
        if failed:
            raise CockpitError(f"{summary}; failed: {'; '.join(failed)}", title="Revert PRs")
        return summary

    def applicable(ask: RevertPRAsk) -> str | None:
        if not ask.reverts:
            return "the release branch owes no revert"
        if ask.comment and not backend.config.release.tracker_issue:
            return "no tracker issue is configured (release.tracker_issue): the request comments have nowhere to go"
        return None

    reg.register(
        Action(
            ACTION,
            "Open PRs for the reverts owed",
            Danger.MUTATING,
            "branch",
            run=run,
            describe=describe,
            applicable=applicable,
            label=lambda ask: f"{len(ask.reverts)} revert(s) owed",
        )
    )


def _outcomes(plans: tuple[RevertPR, ...]) -> str:
    return "; ".join(f"{p.revert_sha[:12]} {p.detail}" for p in plans) or "none owed"
