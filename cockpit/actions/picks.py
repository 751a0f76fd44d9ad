"""Cherry-pick actions: post the bot's cherry-pick command on a trunk PR, reply on the tracker,
confirm how a request read from prose was read (kept in the state file).

A posted comment carries its idempotency key in a hidden HTML comment (``cockpit.actions.intents.with_key``):
the same text on the same issue is posted once; a retry after a lost answer or a kill finds it first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent, comment_key, has_key, with_key
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

    def posted(number: int, key: str) -> int | None:
        """The comment on ``number`` carrying ``key`` (an earlier attempt whose answer was lost), or None."""
        return next((c.id for c in backend.github.issue_comments(repo, number) if has_key(c.body, key)), None)

    def post_once(number: int, text: str) -> int | None:
        """Post ``text`` with its key, unless a comment with that key is already there: its id then, else None."""
        key = comment_key(repo, number, text)
        earlier = posted(number, key)
        if earlier is None:
            backend.github.create_comment(repo, number, with_key(text, key))
        return earlier

    def look(intent: Intent) -> Finding:
        number = int(intent.what.lstrip("#"))
        earlier = posted(number, intent.key)
        if earlier is None:
            return Finding(NOT_DONE, f"no comment with key {intent.key} on {repo}#{number}: nothing was posted")
        return Finding(DONE, f"comment {earlier} on {repo}#{number} carries key {intent.key}: it was posted once")

    def post_bot_command(target: tuple[int, str, str | None]) -> str:
        earlier = post_once(target[0], bot_text(target))
        if earlier is not None:
            return f"#{target[0]} already has this command (comment {earlier}); not posted again"
        return f"posted on #{target[0]}: {bot_text(target)}"

    def tracker() -> int:
        if rel.tracker_issue is None:
            raise ActionRefused(
                f"{backend.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number"
            )
        return rel.tracker_issue

    def reply(text: str) -> str:
        earlier = post_once(tracker(), text)
        if earlier is not None:
            return f"#{rel.tracker_issue} already has this reply (comment {earlier}); not posted again"
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
            intent=lambda t: Intent("comment", repo, f"#{t[0]}", comment_key(repo, t[0], bot_text(t))),
            look=look,
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
            intent=lambda text: Intent("comment", repo, f"#{tracker()}", comment_key(repo, tracker(), text)),
            look=look,
        )
    )
