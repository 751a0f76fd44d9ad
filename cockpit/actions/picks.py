"""Cherry-pick actions: post the bot's cherry-pick command on a trunk PR, reply on the tracker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.registry import Action, Danger

if TYPE_CHECKING:
    from cockpit.bootstrap import CockpitBackend


def register(backend: "CockpitBackend") -> None:
    reg, gh, repo = backend.actions, backend.github, backend.repository
    rel = backend.config.release

    def bot_text(target: tuple[int, str, str | None]) -> str:
        from cockpit.services.pick_parser import bot_command

        _, category, fixes = target
        return bot_command(branch=rel.branch, category=category, fixes=fixes)

    def bot_applicable(target: tuple[int, str, str | None]) -> str | None:
        try:
            bot_text(target)
        except ValueError as exc:
            return str(exc)
        return None

    reg.register(Action(
        "picks.bot_command", "Post cherry-pick command", Danger.MUTATING, "picks",
        run=lambda t: (gh.create_comment(repo, t[0], bot_text(t)), f"posted on #{t[0]}: {bot_text(t)}")[1],
        applicable=bot_applicable,
        describe=lambda t: f"POST /repos/{repo}/issues/{t[0]}/comments: {bot_text(t)!r}",
        label=lambda t: f"{repo}#{t[0]}",
    ))
    reg.register(Action(
        "picks.reply", "Reply on the tracker", Danger.MUTATING, "picks",
        run=lambda text: (gh.create_comment(repo, rel.tracker_issue, text), f"replied on #{rel.tracker_issue}")[1],
        applicable=lambda text: None if str(text).strip() else "the reply is empty: write something to post",
        describe=lambda text: f"POST /repos/{repo}/issues/{rel.tracker_issue}/comments: {text!r}",
        label=lambda text: f"{repo}#{rel.tracker_issue}",
    ))
