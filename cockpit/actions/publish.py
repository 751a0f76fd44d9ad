"""Publish the release's status to the tracker issue: each manager's own sign-off record, then one
status comment (the rendered picture), edited in place, never two.

1. read the tracker's comments: the status comment (by its marker) and every manager's sign-off
   record (``signoff_record``); anything unreadable or edited by hand stops the publish before it
   writes (``blocking``), unless the user asked to republish from what is known (``repair``);
2. write this manager's record (only its own entries, as the authenticated account): the local
   sign-offs over what the record held, so nothing is dropped;
3. read the tracker again, render the team's picture from every record and edit the status comment;
4. after the write, wait a moment and read once more: another manager's newer record, or a picture
   another publish overwrote ours with from older records, means render and write again.
The last good copy of each person's sign-offs and the comment ids go to the state file last, with
the audit entry; a copy is never overwritten by an absence.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from cockpit.actions.intents import NOT_DONE, UNKNOWN, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.checklist import Signoff, StepKind
from cockpit.domain.status import PublishedStatus, SharedSignoff, StatusInput, StatusPublication
from cockpit.errors import ActionRefused, ConfigError, GitHubError, ReadOnlyError
from cockpit.services.signoff_record import (
    body_digest,
    own_entries,
    render_record,
    team_from_json,
    team_signoffs,
    team_to_json,
)
from cockpit.services.status_block import decode_block
from cockpit.services.status_comment import preview_diff, published_status, render_status, shared_from, visible_part
from cockpit.services.status_read import read_status, status_comments, unverified_lines

if TYPE_CHECKING:
    from cockpit.domain.github import IssueComment
    from cockpit.domain.status import ReadStatus, RecordReading
    from cockpit.ports import Ports

ACTION_ID = "overview.publish_status"
SETTLE_S = 1.0  # longer than another cockpit's gap between its last check and its PATCH
ATTEMPTS = 8
REPAIR_FLAG = "--replace-unreadable"


@dataclass(frozen=True)
class Draft:
    """One attempt's plan: the comments found (None: create), what they held, what replaces them."""

    found: IssueComment | None  # the status comment
    read: ReadStatus
    record: RecordReading | None  # this manager's own record
    record_body: str
    copies: dict[str, dict[str, SharedSignoff]]  # each person's last good sign-offs, to keep
    blocking: tuple[str, ...]
    notes: tuple[str, ...]
    rendering: Callable[[], tuple[PublishedStatus, str]]  # the status comment, rendered when first asked

    @cached_property
    def _rendered(self) -> tuple[PublishedStatus, str]:
        return self.rendering()

    @property
    def status(self) -> PublishedStatus:
        """The picture the status comment publishes (judged on the team's sign-offs)."""
        return self._rendered[0]

    @property
    def body(self) -> str:
        """The status comment's whole body."""
        return self._rendered[1]


def _tracker(ports: Ports) -> tuple[str, int, str]:
    rel = ports.config.release
    if rel.tracker_issue is None:
        raise ConfigError(
            f"{ports.config.path}: key 'release.tracker_issue' is not set: expected the tracker issue number"
        )
    return ports.repository, rel.tracker_issue, rel.version


def _ledger_key(ports: Ports) -> str:
    """The state file's ledger key of this tracker and release: one JSON value with the status comment's id
    (``status``), this manager's record (``record``: login, id, digests of the bodies written) and everyone's
    last good copies (``kept``), written in one write."""
    repo, issue, version = _tracker(ports)
    return f"status-publish:{repo}#{issue}:{version}"


def _ledger(ports: Ports) -> dict[str, Any]:
    raw = ports.state.ledger_get(_ledger_key(ports))
    try:
        data = json.loads(raw) if isinstance(raw, str) else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _known_record(ports: Ports, login: str) -> tuple[int | None, list[str]]:
    """The id and body digests of the record this cockpit last wrote as ``login``."""
    data = _ledger(ports).get("record")
    if not isinstance(data, dict) or data.get("login") != login:
        return None, []
    digests = (
        [d for d in data.get("digests", []) if isinstance(d, str)] if isinstance(data.get("digests"), list) else []
    )
    return (data["id"] if isinstance(data.get("id"), int) else None), digests


def _keep_copies(ports: Ports, copies: Mapping[str, Mapping[str, SharedSignoff]], **more: Any) -> None:
    """Record everyone's last good copies (and ``more`` keys of the ledger value) in one write."""
    data = {**_ledger(ports), **more, "kept": team_to_json(copies)}
    ports.state.ledger_put(_ledger_key(ports), json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def _own_record_problem(
    ports: Ports, login: str, record: RecordReading | None, local: Mapping[str, SharedSignoff], written: frozenset[str]
) -> str:
    """Why this manager's own record must not be written over: gone, or changed by someone else
    (``written``: the digests of what this very publish wrote, not in the state file yet)."""
    known_id, known = _known_record(ports, login)
    digests = [*known, *written] if known else []
    if record is None:
        return f"your sign-off comment {known_id} is gone (deleted?)" if known_id is not None else ""
    if record.problem or not digests or record.digest in digests:
        return ""
    if all(local.get(k) == s for k, s in record.entries.items()):
        return ""  # what this cockpit wrote before it could note it (a publish killed after its edit)
    return (
        f"your sign-off comment {record.comment_id} was changed since this cockpit last wrote it "
        "(by someone else, or by you from another clone)"
    )


def draft(
    ports: Ports,
    publication: StatusPublication,
    login: str,
    written: frozenset[str] = frozenset(),
    comments: list[IssueComment] | None = None,
    kinds: Mapping[str, StepKind] | None = None,
) -> Draft:
    """Read the tracker (unless given its ``comments``) and plan both comments (GET only: also the dry run)."""
    repo, issue, version = _tracker(ports)
    comments = ports.github.issue_comments(repo, issue) if comments is None else comments
    read = read_status(comments, version, ports.clock())
    found = next((c for c in comments if c.id == read.comment_id), None)
    kinds = {s.id: s.kind for s in ports.checklist_steps()} if kinds is None else kinds
    local = shared_from(ports.state.signoffs(), kinds, login)
    kept = team_from_json(_ledger(ports).get("kept"))
    records = {r.login.casefold(): r for r in read.records}
    record = records.get(login.casefold())
    blocking = list(read.blocking)
    if problem := _own_record_problem(
        ports, login, record if record and record.login == login else None, local, written
    ):
        blocking.append(problem)
    copies: dict[str, dict[str, SharedSignoff]] = {}
    notes = []
    for person, entries in kept.items():
        if person.casefold() not in records and person != login:
            blocking.append(f"the sign-off comment of @{person} is gone ({len(entries)} sign-offs known)")
    for person, entries in kept.items():
        held = records.get(person.casefold())
        if held is None or held.problem:
            copies[person] = entries
            notes.append(f"@{person}'s sign-offs from the last good copy in the state file ({len(entries)})")
    copies.update({r.login: r.entries for r in read.records if not r.problem})
    mine = own_entries(local, copies.get(login, {}))
    copies[login] = mine
    team = team_signoffs(copies.values())

    def rendering() -> tuple[PublishedStatus, str]:  # the costly part: only once the records are as written
        picture = with_signoffs(publication.picture, ports.state.signoffs(), team)
        status = published_status(picture, team, by=login, at=ports.clock())
        try:
            previous = decode_block(found.body, release=version, now=ports.clock())[0] if found else None
            return status, render_status(status, previous, tuple(unverified_lines(read.unverified, "tracker")))
        except ValueError as exc:  # a status too big for one comment, a version no marker can hold
            raise ActionRefused(f"cannot publish the status: {exc}") from None

    record_body = render_record(version, login, mine)
    return Draft(found, read, record, record_body, copies, tuple(blocking), tuple(notes), rendering)


def with_signoffs(
    picture: StatusInput, local: Mapping[str, Signoff], merged: Mapping[str, SharedSignoff]
) -> StatusInput:
    """The picture with its checklist and verdict judged again on the team's sign-offs."""
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


def _stopped(ports: Ports, plan: Draft) -> str:
    return (
        "the publish stopped before writing anything: "
        + "; ".join(plan.blocking)
        + f". The last good copy of each person's sign-offs is kept in {ports.state.path}. To republish from "
        f"what is known, run `cockpit publish {REPAIR_FLAG}` (or leave the tracker as it is)."
    )


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
    lines = [f"Would {where} as {login}.", *(f"note: {p}" for p in (*plan.read.problems, *plan.notes))]
    if plan.blocking and not publication.repair:
        lines.append(f"stop: {_stopped(ports, plan)}")
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


def _records_of(read: ReadStatus) -> set[tuple[str, str]]:
    return {(r.login, r.digest) for r in read.records}


def _kept(ports: Ports, plan: Draft, comment_id: int) -> bool:
    """Whether the status comment still shows the records this publish rendered (or another render of
    them): another manager's newer record, or an older picture written over ours, means render again."""
    repo, issue, version = _tracker(ports)
    comments = ports.github.issue_comments(repo, issue)
    if _records_of(read_status(comments, version, ports.clock())) != _records_of(plan.read):
        return False
    body = next((c.body for c in comments if c.id == comment_id), None)
    if body is None or body == plan.body:
        return body is not None
    status, _ = decode_block(body, release=plan.status.release, now=ports.clock())
    return status is not None and status.signoffs == plan.status.signoffs


def _write_record(ports: Ports, plan: Draft, login: str) -> IssueComment:
    repo, issue, _ = _tracker(ports)
    if plan.record is not None and plan.record.login == login:
        return ports.github.edit_comment(repo, plan.record.comment_id, plan.record_body)
    return ports.github.create_comment(repo, issue, plan.record_body)


def _remember(ports: Ports, plan: Draft, login: str, record_id: int, status_id: int) -> None:
    """The state file's part, written last and in one write: ids, the record's digest, everyone's last good copies."""
    _, digests = _known_record(ports, login)
    digest = body_digest(plan.record_body)
    record = {"login": login, "id": record_id, "digests": [*[d for d in digests if d != digest], digest][-3:]}
    _keep_copies(ports, plan.copies, status=status_id, record=record)


def publish(
    ports: Ports,
    publication: StatusPublication,
    *,
    settle: float | None = None,
    attempts: int = ATTEMPTS,
    sleep: Callable[[float], None] = time.sleep,
) -> str:
    """Write this manager's record, then post or edit the status comment (see the module docstring)."""
    if ports.read_only:
        raise ReadOnlyError("this session is read-only: publishing the status comment is refused")
    repo, issue, _ = _tracker(ports)
    gh = ports.github
    login = gh.authenticated_user()
    written: set[str] = set()
    kinds = {s.id: s.kind for s in ports.checklist_steps()}  # the template, read once
    for attempt in range(attempts):
        if attempt:
            sleep(random.uniform(0, 0.05 * attempt))  # two cockpits retrying in step would collide again
        comments = gh.issue_comments(repo, issue)
        plan = draft(ports, publication, login, frozenset(written), comments, kinds)
        if plan.blocking and not publication.repair:
            _keep_copies(ports, plan.copies)
            raise ActionRefused(_stopped(ports, plan))
        if plan.record is None or plan.record.login != login or plan.record.digest != body_digest(plan.record_body):
            record = _write_record(ports, plan, login)
            written.add(body_digest(plan.record_body))
            comments = [c for c in comments if c.id != record.id] + [record]  # as GitHub holds them now
            plan = draft(ports, publication, login, frozenset(written), comments, kinds)
            if plan.record is None or plan.record.digest not in written:
                continue
        record_id = plan.record.comment_id
        if plan.found is None:
            comment = gh.create_comment(repo, issue, plan.body)
            first = status_comments(gh.issue_comments(repo, issue), plan.status.release)[0]
            if first and first[0].id != comment.id:  # another cockpit posted first: keep one comment, theirs
                gh.delete_comment(repo, comment.id)
                continue
        else:
            comment = gh.edit_comment(repo, plan.found.id, plan.body)
        sleep(SETTLE_S if settle is None else settle)
        if not _kept(ports, plan, comment.id):
            continue
        _remember(ports, plan, login, record_id, comment.id)
        verb = "edited" if plan.found else "posted"
        extra = [*plan.read.problems, *plan.notes]
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
