"""Cherry-pick actions: post the bot's cherry-pick command on a trunk PR, reply on the tracker,
confirm how a request read from prose was read (kept in the state file)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.picks import ReadingConfirmed
from cockpit.errors import ActionRefused

if TYPE_CHECKING:
    from cockpit.ports import Ports


def register(reg: ActionRegistry, backend: Ports) -> None:
    repo = backend.repository
    rel = backend.config.release

    def bot_text(target: tuple[int, str, str | None]) -> str:
        from cockpit.services.pick_command import bot_command

        _, category, fixes = target
        return bot_command(branch=rel.branch, category=category, fixes=fixes)

    def bot_applicable(target: tuple[int, str, str | None]) -> str | None:
        try:
            bot_text(target)
        except ValueError as exc:
            return str(exc)
        return None

    def post_bot_command(target: tuple[int, str, str | None]) -> str:
        backend.github.create_comment(repo, target[0], bot_text(target))
        return f"posted on #{target[0]}: {bot_text(target)}"

    def reply(text: str) -> str:
        if rel.tracker_issue is None:
            raise ActionRefused(
                f"{backend.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number"
            )
        backend.github.create_comment(repo, rel.tracker_issue, text)
        return f"replied on #{rel.tracker_issue}"

    reg.register(
        Action(
            "picks.bot_command",
            "Post cherry-pick command",
            Danger.MUTATING,
            "picks",
            run=post_bot_command,
            applicable=bot_applicable,
            describe=lambda t: f"POST /repos/{repo}/issues/{t[0]}/comments: {bot_text(t)!r}",
            label=lambda t: f"{repo}#{t[0]}",
        )
    )

    def confirm_reading(target: ReadingConfirmed) -> str:
        backend.state.confirm_pick_reading(target.key, reading=target.reading, who=backend.who)
        if target.reading is None:
            return f"{target.key}: confirmation withdrawn; the request is flagged read from prose again"
        return f"{target.key}: reading confirmed ({target.reading})"

    reg.register(
        Action(
            "picks.confirm_reading",
            "Confirm the reading of a prose request",
            Danger.MUTATING,
            "picks",
            run=confirm_reading,
            describe=lambda t: (
                f"record in {backend.state.path}: {t.key} "
                + ("confirmation withdrawn" if t.reading is None else f"read as {t.reading!r}")
            ),
            label=lambda t: t.key,
            local=True,
        )
    )
    reg.register(
        Action(
            "picks.reply",
            "Reply on the tracker",
            Danger.MUTATING,
            "picks",
            run=reply,
            applicable=lambda text: None if str(text).strip() else "the reply is empty: write something to post",
            describe=lambda text: f"POST /repos/{repo}/issues/{rel.tracker_issue}/comments: {text!r}",
            label=lambda text: f"{repo}#{rel.tracker_issue}",
        )
    )
