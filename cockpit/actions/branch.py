"""Branch-diff actions: the cherry-pick command for a row, a local pick branch (never pushed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.repos import elsewhere

if TYPE_CHECKING:
    from cockpit.ports import Ports


def register(reg: ActionRegistry, backend: Ports) -> None:
    rel = backend.config.release
    repo = backend.repository

    def shas(target: Any) -> list[str]:
        """What to pick, oldest first (an item's trunk commits are listed newest first, as git logs them)."""
        if hasattr(target, "revert_sha"):
            return [target.revert_sha]
        return list(reversed(target.commits))

    def pick_command(target: Any) -> str:
        return " && ".join(f"git cherry-pick -x {sha}" for sha in shas(target))

    reg.register(
        Action(
            "branch.copy_pick",
            "Copy cherry-pick command",
            Danger.SAFE,
            "branch",
            run=pick_command,
            describe=pick_command,
            applicable=lambda t: None if shas(t) else "no trunk commit is known for this row",
        )
    )

    def branch_name(target: Any) -> str:
        number = getattr(target, "number", None) or getattr(target, "reverted_pr", None) or shas(target)[0][:10]
        return f"cherry-pick-{number}-{rel.branch.replace('/', '-')}"

    def pick_branch(target: Any) -> str:
        from cockpit.loaders.branch import release_branch

        name = branch_name(target)
        backend.git.create_branch(name, release_branch(backend).ref)
        try:
            backend.git.cherry_pick(shas(target), branch=name)
        except Exception:
            backend.git.delete_branch(name)  # a pick that did not apply leaves no half-made branch behind
            raise
        return f"made local branch {name} from {rel.branch} with {len(shas(target))} pick(s); nothing pushed"

    def already_made(target: Any) -> str | None:
        """Why ``b`` again would fail in git ("a branch named ... already exists"): said before the confirmation."""
        name = branch_name(target)
        sha = backend.git.rev_parse(f"refs/heads/{name}")
        if sha is None:
            return None
        return f"the local branch {name} already exists (at {sha[:12]}): use it, or delete it (git branch -D {name})"

    reg.register(
        Action(
            "branch.pick_branch",
            "Make local pick branch",
            Danger.MUTATING,
            "branch",
            run=pick_branch,
            # the session's clone is the core's: a domain library's commits are not in it
            applicable=lambda t: (
                elsewhere(t, repo, "Make local pick branch")
                or (None if shas(t) else "no trunk commit is known for this row")
                or already_made(t)
            ),
            describe=lambda t: (
                f"git branch {branch_name(t)} {rel.branch} && {pick_command(t)} (on {branch_name(t)}; never pushed)"
            ),
        )
    )
