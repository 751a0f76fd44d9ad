"""Milestone actions: remove an item from the milestone, post the validation comment once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.actions.registry import Action, Danger
from cockpit.domain.github import ItemState

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def register(backend: "CockpitBackend") -> None:
    reg, gh, repo = backend.actions, backend.github, backend.repository
    rel = backend.config.release

    reg.register(Action(
        "milestone.remove", "Remove from milestone", Danger.MUTATING, "milestone",
        run=lambda item: (gh.set_milestone(repo, item.number, None), f"#{item.number} removed from the milestone")[1],
        describe=lambda item: f"PATCH /repos/{repo}/issues/{item.number} {{\"milestone\": null}}",
    ))

    def validation_text(item: Any) -> str:
        return backend.config.validation_comment.format(version=rel.version, number=item.number, branch=rel.branch)

    def validate(item: Any) -> str:
        comment = gh.create_comment(repo, item.number, validation_text(item))
        backend.state.ledger_put(_validation_key(backend, item), comment.id)
        return f"validation comment posted on #{item.number}"

    def validate_applicable(item: Any) -> str | None:
        if item.state is ItemState.OPEN:
            return f"#{item.number} is still open: validate closed items only"
        if backend.state.ledger_get(_validation_key(backend, item)) is not None:
            return f"#{item.number} already has its validation comment (posted from this session)"
        return None

    reg.register(Action(
        "milestone.validate", "Post validation comment", Danger.MUTATING, "milestone",
        run=validate, applicable=validate_applicable,
        describe=lambda item: f"POST /repos/{repo}/issues/{item.number}/comments: {validation_text(item)!r}",
    ))


def _validation_key(backend: "CockpitBackend", item: Any) -> str:
    return f"{backend.repository}#{item.number}:validation"
