"""Open the release tracker issue at branch cut (``cockpit tracker-issue``): previewed, then opened once with
its two labels; an issue of that title already there is adopted, never doubled. Its number is kept in the
state file's ledger, and the command says which ``[release] tracker_issue`` to configure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cockpit.actions.issue_lookup import RECENT_ISSUES, look_opened, opening, titled_issues
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.errors import ActionRefused

if TYPE_CHECKING:
    from cockpit.ports import Ports

ACTION_ID = "milestone.release_tracker"


@dataclass(frozen=True)
class TrackerDraft:
    """The tracker issue to open: where, its title, labels and body."""

    repository: str
    title: str
    labels: tuple[str, ...]
    body: str


def ledger_key(repository: str, version: str) -> str:
    return f"release_tracker:{repository}:{version}"


def register(reg: ActionRegistry, backend: Ports) -> None:
    version = backend.config.release.version

    def existing(draft: TrackerDraft) -> int | None:
        found = sorted(i.number for i in titled_issues(backend.github, draft.repository, draft.title))
        if len(found) > 1:
            shown = ", ".join(f"#{n}" for n in found)
            raise ActionRefused(
                f"several issues are titled {draft.title!r} ({shown}): set [release] tracker_issue to the right one"
            )
        return found[0] if found else None

    def describe(draft: TrackerDraft) -> str:
        labels = ", ".join(repr(label) for label in draft.labels)
        return "\n".join(
            [
                f"GET /repos/{draft.repository}/issues (the newest {RECENT_ISSUES}: "
                f"an issue titled {draft.title!r} is adopted)",
                f"POST /repos/{draft.repository}/issues with the title {draft.title!r}, "
                f"the labels {labels} and this body:",
                "",
                draft.body,
            ]
        )

    def run(draft: TrackerDraft) -> str:
        key = ledger_key(draft.repository, version)
        number = existing(draft)
        if number is not None:
            backend.state.ledger_put(key, number)
            adopted = f"adopted, not opened again ([release] tracker_issue = {number})"
            return f"the release tracker already exists: #{number}; {adopted}"
        issue = backend.github.create_issue(draft.repository, draft.title, draft.body, labels=draft.labels)
        backend.state.ledger_put(key, issue.number)
        return f"opened the release tracker #{issue.number} {issue.html_url} ([release] tracker_issue = {issue.number})"

    def applicable(draft: TrackerDraft) -> str | None:
        configured = backend.config.release.tracker_issue
        if configured is not None:
            return f"the release tracker is #{configured} ([release] tracker_issue)"
        number = backend.state.ledger_get(ledger_key(draft.repository, version))
        return f"the release tracker is #{number} (in the state file)" if number is not None else None

    reg.register(
        Action(
            ACTION_ID,
            "Open the release tracker issue",
            Danger.MUTATING,
            "milestone",
            run=run,
            describe=describe,
            applicable=applicable,
            label=lambda d: f"{d.repository}: {d.title}",
            intent=lambda d: opening(d.repository, d.title),
            look=lambda intent: look_opened(backend.github, intent),
        )
    )
