"""The status comment on the tracker issue: its marker, its Markdown, what changed, the preview diff.

One comment per release, found again by its hidden marker, edited in place on every publish. Every
outside string goes through ``cockpit.services.markdown`` (no table break, no HTML, nobody pinged),
and the whole comment stays under GitHub's 65,536-character limit: the visible part is cut first,
the hidden data block (``status_block``) is never cut.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime

from cockpit.domain.checklist import Signoff, StepKind
from cockpit.domain.gates import Gate
from cockpit.domain.status import (
    PublishedGate,
    PublishedStatus,
    PublishedStep,
    SharedSignoff,
    StatusInput,
)
from cockpit.gates import listed
from cockpit.services.markdown import COMMENT_LIMIT, SENTENCE_LIMIT, cap_comment, md_login, md_text
from cockpit.services.status_block import BLOCK_OPEN, encode_block

MARKER_PREFIX = "<!-- release-cockpit:status v=1 release="
_MARK = {"green": "✅", "amber": "🟡", "red": "❌", "unknown": "❔"}
_RELEASE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,40}$")


def marker(release: str) -> str:
    """The hidden first line that finds the comment again: ``<!-- release-cockpit:status v=1 release=2.5.0 -->``."""
    if not _RELEASE.match(release):
        raise ValueError(f"release {release!r} cannot go in the status marker")
    return f"{MARKER_PREFIX}{release} -->"


def is_status_comment(body: str, release: str) -> bool:
    """Whether ``body`` carries this release's status marker anywhere (text added before it by hand
    must not make a publish post a second status comment)."""
    return marker(release) in (body or "")


def shared_from(signoffs: Mapping[str, Signoff], steps: Mapping[str, StepKind], login: str) -> dict[str, SharedSignoff]:
    """This cockpit's own sign-offs of manual steps (``steps``: id -> kind), as the team shares them:
    signed by ``login``, the GitHub account that publishes them (not the clone's git name)."""
    out = {}
    for step_id, s in signoffs.items():
        when = utc_z(s.when)
        if steps.get(step_id) is StepKind.MANUAL and s.who and when:
            out[step_id] = SharedSignoff(step_id, s.done, login, when, s.override_note or s.note, s.override)
    return out


def utc_z(when: str) -> str:
    """An ISO time (``2026-12-01T10:01:24+00:00``, ``...Z``) as ``2026-12-01T10:01:24Z``; "" when unreadable."""
    try:
        moment = datetime.fromisoformat(when.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def published_status(
    picture: StatusInput, signoffs: Mapping[str, SharedSignoff], *, by: str, at: datetime
) -> PublishedStatus:
    """The picture and the merged sign-offs as one publish records them."""
    merged = {v.step.id: v for v in picture.checklist.steps}
    steps = []
    for step_id, view in merged.items():
        shared = signoffs.get(step_id)
        done = view.done if view.step.kind.judged or shared is None else (shared.done or view.done)
        steps.append(PublishedStep(step_id, view.step.section, view.step.title, done))
    return PublishedStatus(
        release=picture.version,
        repository=picture.repository,
        go=picture.verdict.go,
        reasons=picture.verdict.reasons,
        gates=tuple(PublishedGate(g.name, g.title, g.status.value, g.summary) for g in _in_order(picture.gates)),
        steps=tuple(steps),
        signoffs=dict(signoffs),
        published_by=by,
        published_at=at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )


def _in_order(gates: Mapping[str, Gate]) -> list[Gate]:
    """The gates in the overview's order (its listed gates), any other after them by name."""
    order = {spec.name: i for i, spec in enumerate(listed())}
    return sorted(gates.values(), key=lambda g: (order.get(g.name, len(order)), g.name))


def changes_since(previous: PublishedStatus | None, now: PublishedStatus) -> list[str]:
    """What changed since the previous publish, in words (plain text; the caller escapes it)."""
    if previous is None:
        return ["first publish of this status"]
    lines = []
    before = {g.name: g for g in previous.gates}
    for gate in now.gates:
        old = before.get(gate.name)
        if old is None or old.status != gate.status:
            lines.append(f"{gate.title}: {old.status if old else 'new'} → {gate.status}")
    if previous.go != now.go:
        lines.append(f"verdict: {'GO' if previous.go else 'NO-GO'} → {'GO' if now.go else 'NO-GO'}")
    titles = {s.id: s.title for s in now.steps}
    for step_id, s in sorted(now.signoffs.items()):
        old_s = previous.signoffs.get(step_id)
        if old_s is None or (old_s.done, old_s.who, old_s.when) != (s.done, s.who, s.when):
            verb = "signed" if s.done else "unsigned"
            lines.append(f"{verb}: {titles.get(step_id, step_id)} by {s.who} at {s.when}")
    return lines or ["nothing changed"]


def render_status(status: PublishedStatus, previous: PublishedStatus | None, unverified: tuple[str, ...] = ()) -> str:
    """The whole comment body: marker, visible Markdown (cut to fit), hidden data block (which holds
    the digest of the visible part, so a hand edit of it is seen). ``unverified``: lines naming the
    entries that claim to be someone else's, shown and not counted."""
    probe = dataclasses.replace(status, visible_sha="0" * 20)
    head = marker(status.release)
    budget = COMMENT_LIMIT - len(head) - len(encode_block(probe)) - 4
    visible = cap_comment(_visible(status, previous, unverified), limit=max(budget, 1000))
    block = encode_block(dataclasses.replace(status, visible_sha=visible_digest(visible)))
    return f"{head}\n{visible}\n{block}\n"


def visible_digest(visible: str) -> str:
    """The digest of a status comment's visible part (20 hex characters)."""
    return hashlib.sha256(visible.strip("\n").encode("utf-8", "surrogatepass")).hexdigest()[:20]


def status_tampered(body: str, status: PublishedStatus) -> str:
    """Why the status comment ``body`` is not what a cockpit published ("" when it is): text before
    its marker, a second marker or data block, or a visible part changed since."""
    text = body or ""
    head = marker(status.release)
    if not text.startswith(head + "\n") or text.count(head) != 1 or text.count(BLOCK_OPEN) != 1:
        return "has text before its marker, or a second marker or data block (edited by hand?)"
    if not text.rstrip().endswith("-->"):
        return "has text after its data block (edited by hand?)"
    visible = text[len(head) + 1 :].split(BLOCK_OPEN, 1)[0]
    if not status.visible_sha or visible_digest(visible) != status.visible_sha:
        return "has a visible part that is not what was published (edited by hand?)"
    return ""


def _visible(status: PublishedStatus, previous: PublishedStatus | None, unverified: tuple[str, ...]) -> str:
    lines = [
        f"## Release {md_text(status.release)} status: {'GO' if status.go else 'NO-GO'}",
        "",
        f"Published by {md_login(status.published_by)} at {status.published_at.replace('T', ' ').rstrip('Z')} UTC "
        "with Release Cockpit; edited in place on each publish (edits by hand are overwritten).",
        "",
        "| gate | status | reason |",
        "|---|---|---|",
    ]
    for gate in status.gates:
        word = gate.status
        lines.append(f"| {md_text(gate.title)} | {_MARK.get(word, '❔')} {word} | {_cell(gate.summary)} |")
    if status.reasons:
        lines += ["", "**Why not go:**", *(f"- {_cell(r)}" for r in status.reasons)]
    lines += ["", "### Checklist", "", "| step | state | signed by | when | note |", "|---|---|---|---|---|"]
    for step in status.steps:
        s = status.signoffs.get(step.id)
        state = "✅ done" if step.done else "⬜ open"
        if s is not None and s.override:
            state += " ⚠️ override"
        who = md_text(s.who) if s else ""
        when = s.when.replace("T", " ").rstrip("Z") if s else ""
        note = _cell(s.note) if s and s.note else ""
        lines.append(f"| {md_text(step.title)} | {state} | {who} | {when} | {note} |")
    lines += ["", "### Since the last publish", "", *(f"- {_cell(c)}" for c in changes_since(previous, status))]
    if unverified:
        lines += ["", "**Unverified entries (not counted):**", *(f"- {_cell(u)}" for u in unverified)]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return md_text(text, limit=SENTENCE_LIMIT)


def visible_part(body: str) -> str:
    """A comment body without its marker and data block: what the preview diff compares."""
    text = (body or "").split(BLOCK_OPEN, 1)[0]
    return "\n".join(line for line in text.splitlines() if not line.startswith(MARKER_PREFIX)).strip("\n") + "\n"


def preview_diff(published: str | None, new: str) -> str:
    """A unified diff of the visible Markdown, published -> new; says so when there is none to compare."""
    if published is None:
        return "(no status comment yet: this publish creates it)"
    diff = difflib.unified_diff(
        visible_part(published).splitlines(), visible_part(new).splitlines(), "published", "new", lineterm="", n=1
    )
    text = "\n".join(diff)
    return text or "(no change in the visible text)"


def age_text(published_at: str, now: datetime) -> str:
    """ "12 min ago", "3 h ago", "2 days ago"; "at an unknown time" for an unreadable time."""
    try:
        then = datetime.strptime(published_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return "at an unknown time"
    minutes = int((now - then).total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 48 * 60:
        return f"{minutes // 60} h ago"
    return f"{minutes // (24 * 60)} days ago"


def status_lines(status: PublishedStatus, now: datetime) -> list[str]:
    """The team's picture from the comment as plain lines, for ``cockpit view --from-tracker``."""
    lines = [
        f"Release {status.release} ({status.repository}): {'GO' if status.go else 'NO-GO'}",
        f"published {age_text(status.published_at, now)} by {status.published_by} ({status.published_at})",
        "",
    ]
    lines += [f"  {g.status.upper():<8} {g.title}: {g.summary}" for g in status.gates]
    lines += ["", *([f"  why not go: {r}" for r in status.reasons]), "", "Checklist:"]
    for step in status.steps:
        s = status.signoffs.get(step.id)
        who = ""
        if s is not None:
            who = f"  ({'signed' if s.done else 'unsigned'} by {s.who} at {s.when}{', override' if s.override else ''})"
        lines.append(f"  [{'x' if step.done else ' '}] {step.title}{who}")
    return lines
