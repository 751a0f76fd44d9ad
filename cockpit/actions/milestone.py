"""Milestone actions: remove an item from the milestone, post the validation comment once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.commits import Verdict
from cockpit.domain.github import ItemState, MilestoneItem
from cockpit.domain.repos import elsewhere, row_repository
from cockpit.services.milestone import validation_key
from cockpit.services.validation_comments import earlier_validation

if TYPE_CHECKING:
    from cockpit.ports import Ports


def register(reg: ActionRegistry, backend: Ports) -> None:
    repo = backend.repository
    rel = backend.config.release

    def remove(item: MilestoneItem) -> str:
        # a domain library's item leaves its own repository's milestone
        backend.github.set_milestone(row_repository(item, repo), item.number, None)
        if item.repository and item.repository != repo:
            return f"{item.repository}#{item.number} removed from its milestone"
        return f"#{item.number} removed from the milestone"

    def leaving(item: MilestoneItem) -> Intent:
        return Intent("milestone", row_repository(item, repo), f"#{item.number}", str(rel.milestone or ""))

    def left(intent: Intent) -> Finding:
        """Is the item still in the milestone on GitHub?"""
        number = int(intent.what.lstrip("#"))
        ref: int | str = int(intent.key) if intent.key.isdigit() else intent.key
        milestone = backend.github.milestone(intent.where, ref)
        items = backend.github.milestone_items(intent.where, milestone.number)
        if any(i.number == number for i in items):
            return Finding(NOT_DONE, f"{intent.where}#{number} is still in milestone '{milestone.title}'")
        return Finding(DONE, f"{intent.where}#{number} is no longer in milestone '{milestone.title}' on GitHub")

    reg.register(
        Action(
            "milestone.remove",
            "Remove from milestone",
            Danger.MUTATING,
            "milestone",
            run=remove,
            describe=lambda item: (
                f'PATCH /repos/{row_repository(item, repo)}/issues/{item.number} {{"milestone": null}}'
            ),
            intent=leaving,
            look=left,
        )
    )

    def validation_text(item: Any) -> str:
        return backend.config.validation_comment.format(version=rel.version, number=item.number, branch=rel.branch)

    def validate(item: Any) -> str:
        text = validation_text(item)
        # Someone may have posted it from another session or by hand: never post it twice. Any comment
        # with the validation phrase counts, whoever wrote it (the evidence gate reads them the same way).
        comments = backend.github.issue_comments(repo, item.number)
        earlier = earlier_validation(comments, backend.config.validation.phrase_for(rel.version))
        if earlier is not None:
            backend.state.ledger_put(validation_key(backend.repository, item.number), earlier.id)
            who = earlier.author or "someone"
            return f"#{item.number} already had its validation comment (by {who}); not posted again"
        comment = backend.github.create_comment(repo, item.number, text)
        backend.state.ledger_put(validation_key(backend.repository, item.number), comment.id)
        return f"validation comment posted on #{item.number}"

    def validated(intent: Intent) -> Finding:
        """Did a validation comment appear on the item (any comment with the phrase counts, as for the run)?"""
        number = int(intent.what.lstrip("#"))
        earlier = earlier_validation(backend.github.issue_comments(intent.where, number), intent.key)
        if earlier is None:
            return Finding(NOT_DONE, f"#{number} has no validation comment: nothing was posted")
        return Finding(DONE, f"#{number} has its validation comment ({earlier.id} by {earlier.author or 'someone'})")

    def validate_applicable(item: Any) -> str | None:
        # the comment names the core's version and branch, and the ledger and branch diff are the core's
        if (other := elsewhere(item, repo, "Post validation comment")) is not None:
            return other
        if item.state is ItemState.OPEN:
            return f"#{item.number} is still open: validate closed items only"
        if item.state is ItemState.CLOSED_UNMERGED:
            return f"#{item.number} was closed without merging: there is nothing to validate"
        done = backend.state.ledger_get(validation_key(backend.repository, item.number))
        if done is not None:
            return f"#{item.number} already has its validation comment (comment {done}, recorded in the state file)"
        return _not_in_branch(backend, item.number)

    reg.register(
        Action(
            "milestone.validate",
            "Post validation comment",
            Danger.MUTATING,
            "milestone",
            run=validate,
            applicable=validate_applicable,
            describe=lambda item: f"POST /repos/{repo}/issues/{item.number}/comments: {validation_text(item)!r}",
            intent=lambda item: Intent(
                "comment", repo, f"#{item.number}", backend.config.validation.phrase_for(rel.version)
            ),
            look=validated,
        )
    )


_NOT_VALIDATED = {Verdict.MISSING: "is missing from", Verdict.NEEDS_REVIEW: "has no commit found in"}


def _not_in_branch(backend: Ports, number: int) -> str | None:
    """The validation comment says the fix is in the branch: refuse while the branch diff says otherwise."""
    branch = backend.shared.branch_diff.last
    if branch is None:
        return None  # not analysed yet: the comment's text is the release manager's word
    verdict = next((i.verdict for i in branch.diff.items if i.number == number), None)
    if verdict in _NOT_VALIDATED:
        return (
            f"#{number} {_NOT_VALIDATED[verdict]} {backend.config.release.branch} according to the branch "
            f"diff (pane 4): validate it once the fix is in the branch"
        )
    return None


__all__ = ["register", "validation_key"]
