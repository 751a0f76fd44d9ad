"""Publish the release's status to the tracker issue: one comment, edited in place, never two.

Read-modify-write, safe with two managers publishing at once:
1. read the tracker's comments and find the status comment by its marker (so a crash between the
   POST and the state write finds it again next time);
2. merge the team's sign-offs from it with this cockpit's own, against the last version this
   cockpit published (``status_block.merge_signoffs``);
3. re-read that comment just before the PATCH; if its body or ``updated_at`` changed, start again;
4. after the write, wait a moment and read it once more: if someone else's write took ours away
   (GitHub has no conditional PATCH for comments), start again; a signature is never left lost.
The merge base and the comment id go to the state file last, with the audit entry.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from cockpit.actions.intents import NOT_DONE, UNKNOWN, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.checklist import Signoff
from cockpit.domain.status import PublishedStatus, SharedSignoff, SignConflict, StatusInput, StatusPublication
from cockpit.errors import ActionRefused, ConfigError, GitHubError, ReadOnlyError
from cockpit.services.status_block import (
    decode_block,
    merge_base,
    merge_signoffs,
    signoffs_from_json,
    signoffs_to_json,
)
from cockpit.services.status_comment import (
    conflict_lines,
    preview_diff,
    published_status,
    render_status,
    shared_from,
    visible_part,
)
from cockpit.services.status_read import read_status, status_comments

if TYPE_CHECKING:
    from cockpit.domain.github import IssueComment
    from cockpit.domain.status import ReadStatus
    from cockpit.ports import Ports

ACTION_ID = "overview.publish_status"
SETTLE_S = 1.0  # longer than another cockpit's gap between its last check and its PATCH
ATTEMPTS = 8


@dataclass(frozen=True)
class Draft:
    """One attempt's plan: the comment found (None: create it), what it held, what will replace it."""

    found: IssueComment | None
    read: ReadStatus
    status: PublishedStatus
    body: str
    conflicts: tuple[SignConflict, ...]
    mine: dict[str, SharedSignoff]


def _tracker(ports: Ports) -> tuple[str, int, str]:
    rel = ports.config.release
    if rel.tracker_issue is None:
        raise ConfigError(
            f"{ports.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number"
        )
    return ports.repository, rel.tracker_issue, rel.version


def _ledger_keys(ports: Ports) -> tuple[str, str]:
    repo, issue, version = _tracker(ports)
    where = f"{repo}#{issue}:{version}"
    return f"status-comment:{where}", f"status-base:{where}"


def draft(ports: Ports, publication: StatusPublication, login: str) -> Draft:
    """Read the tracker and plan the comment (GET only: also the dry run)."""
    repo, issue, version = _tracker(ports)
    comments = ports.github.issue_comments(repo, issue)
    read = read_status(comments, version, ports.clock())
    found = next((c for c in comments if c.id == read.comment_id), None)
    kinds = {s.id: s.kind for s in ports.checklist_steps()}
    mine = shared_from(ports.state.signoffs(), kinds)
    last_read = ports.shared.team_status
    seen = last_read.status.signoffs if last_read is not None and last_read.status is not None else {}
    base = merge_base(signoffs_from_json(ports.state.ledger_get(_ledger_keys(ports)[1])), seen, mine)
    theirs = read.status.signoffs if read.status else {}
    merged, conflicts = merge_signoffs(base, mine, theirs)
    picture = with_signoffs(publication.picture, ports.state.signoffs(), merged)
    status = published_status(picture, merged, by=login, at=ports.clock())
    try:
        body = render_status(status, read.status, conflicts)
    except ValueError as exc:  # a status too big for one comment, a version no marker can hold
        raise ActionRefused(f"cannot publish the status: {exc}") from None
    return Draft(found, read, status, body, conflicts, mine)


def with_signoffs(
    picture: StatusInput, local: Mapping[str, Signoff], merged: Mapping[str, SharedSignoff]
) -> StatusInput:
    """The picture with its checklist and verdict judged again on the team's merged sign-offs."""
    from cockpit.services.checklist import checklist_report
    from cockpit.services.overview import go_no_go

    signoffs = dict(local)
    signoffs.update({k: Signoff(k, s.done, s.who, s.when, s.note) for k, s in merged.items()})
    views = picture.checklist.steps
    gates = {**picture.gates}
    gates.update({v.gate.name: v.gate for v in views if v.gate is not None})
    gates.update({v.related_gate.name: v.related_gate for v in views if v.related_gate is not None})
    checklist = checklist_report([v.step for v in views], signoffs, gates)
    judged = {**picture.gates, checklist.gate.name: checklist.gate}
    return replace(picture, checklist=checklist, gates=judged, verdict=go_no_go(judged, checklist))


def preview(ports: Ports, publication: StatusPublication) -> str:
    """The dry run: where it goes, the rendered Markdown, and the diff against the published one
    (see ``StatusPublication`` for when the tracker is read)."""
    if publication.preview:
        return publication.preview
    if not publication.read_tracker:
        repo, issue, _ = _tracker(ports)
        return f"post or edit the status comment on {repo}#{issue} (found by its marker)"
    login = ports.github.authenticated_user()
    plan = draft(ports, publication, login)
    repo, issue, _ = _tracker(ports)
    where = (
        f"edit comment {plan.found.id} on {repo}#{issue}"
        if plan.found
        else f"post a new status comment on {repo}#{issue}"
    )
    lines = [f"Would {where} as {login}.", *(f"note: {p}" for p in plan.read.problems)]
    lines += [f"conflict: {c}" for c in conflict_lines(plan.conflicts)]
    published = plan.found.body if plan.found else None
    hidden = len(plan.body) - len(visible_part(plan.body))
    return "\n".join(
        [
            *lines,
            "",
            "--- diff against the published comment ---",
            preview_diff(published, plan.body),
            "",
            "--- Markdown ---",
            visible_part(plan.body).rstrip("\n"),
            f"(then the marker and the hidden sign-off block: {hidden:,} characters)",
        ]
    )


def _kept(ports: Ports, comment_id: int, draft_: Draft) -> bool:
    """Whether the comment still holds what this publish contributed (or something newer over it)."""
    now = ports.github.comment(ports.repository, comment_id)
    if now.body == draft_.body:
        return True
    status, _ = decode_block(now.body, release=draft_.status.release, now=ports.clock())
    if status is None:
        return False
    conflicted = {c.step_id for c in draft_.conflicts}
    for step_id, mine in draft_.mine.items():
        there = status.signoffs.get(step_id)
        if step_id in conflicted:
            continue
        if there is None or not (there == mine or there.when >= mine.when or (there.done and mine.done)):
            return False
    return True


def publish(
    ports: Ports,
    publication: StatusPublication,
    *,
    settle: float | None = None,
    attempts: int = ATTEMPTS,
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """Post or edit the status comment (see the module docstring); a one-line result."""
    if ports.read_only:
        raise ReadOnlyError("this session is read-only: publishing the status comment is refused")
    repo, issue, _ = _tracker(ports)
    gh = ports.github
    login = gh.authenticated_user()
    for attempt in range(attempts):
        if attempt:
            sleep(random.uniform(0, 0.05 * attempt))  # two cockpits retrying in step would collide again
        plan = draft(ports, publication, login)
        if plan.found is None:
            comment = gh.create_comment(repo, issue, plan.body)
            first = status_comments(gh.issue_comments(repo, issue), plan.status.release)[0]
            if first and first[0].id != comment.id:  # another cockpit posted first: keep one comment, theirs
                gh.delete_comment(repo, comment.id)
                continue
        else:
            now = gh.comment(repo, plan.found.id)
            if (now.body, now.updated_at) != (plan.found.body, plan.found.updated_at):
                continue  # changed since read: merge again
            comment = gh.edit_comment(repo, plan.found.id, plan.body)
        sleep(SETTLE_S if settle is None else settle)
        if not _kept(ports, comment.id, plan):
            continue
        comment_key, base_key = _ledger_keys(ports)
        ports.state.ledger_put(comment_key, comment.id)
        ports.state.ledger_put(base_key, signoffs_to_json(plan.status.signoffs))
        verb = "edited" if plan.found else "posted"
        extra = [*plan.read.problems, *conflict_lines(plan.conflicts)]
        return f"status {verb}: {comment.html_url or comment.id}" + (f" ({'; '.join(extra)})" if extra else "")
    raise GitHubError(f"the status comment on {repo}#{issue} kept changing under this publish; try again")


def register(reg: ActionRegistry, backend: Ports) -> None:
    """The publish action of the overview (``P``) and of ``cockpit publish``."""

    def applicable(target: StatusPublication) -> str | None:
        if backend.config.release.tracker_issue is None:
            return "no tracker issue configured ([release] tracker_issue)"
        return None

    def publishing(_target: StatusPublication) -> Intent:
        repo, issue, version = _tracker(backend)
        return Intent("publish", repo, f"#{issue}", version)

    def look(intent: Intent) -> Finding:
        """After an interruption: is there a status comment? (Whether it holds this cockpit's sign-offs is told by
        publishing again, which merges and edits it in place.)"""
        repo, issue, version = _tracker(backend)
        found = status_comments(backend.github.issue_comments(repo, issue), version)[0]
        if not found:
            return Finding(NOT_DONE, f"no status comment on {repo}#{issue}: nothing was posted")
        return Finding(UNKNOWN, f"the status comment {found[0].id} is on {repo}#{issue}; publish again to be sure")

    def run(target: StatusPublication) -> str:
        if not isinstance(target, StatusPublication):
            raise ActionRefused("publishing needs the release's picture")
        return publish(backend, target)

    reg.register(
        Action(
            ACTION_ID,
            "Publish the status to the tracker",
            Danger.MUTATING,
            "overview",
            run=run,
            describe=lambda t: preview(backend, t),
            applicable=applicable,
            label=lambda t: f"{backend.repository}#{backend.config.release.tracker_issue}",
            intent=publishing,
            look=look,
        )
    )
