"""Intent before every outward write: which actions started and never told their outcome, and what the world says.

The registry writes an audit entry with the outcome ``started`` (in its own write, before the action touches
anything outside) and then the entry with the outcome. The intent carries what is needed to look later
(``Intent``: what kind of change, where, what, and its idempotency key). An intent with no later entry for the
same action and target means the cockpit was stopped or killed in between: the change may or may not have
reached GitHub or git. The next session looks at the world with the action's ``look`` (is the tag on the
remote at the intended commit? is the item still in the milestone? did a comment with this key appear? is
the PR merged? did the dispatch make a run?), records what it found as the outcome (``done``, ``not done``
or ``unknown``, with the evidence) and says so once, before anything else (``ActionRegistry.interrupted``).
A retry then acts at most once: each action checks the world the same way before it acts (the RC tag adopts
the tag already at the commit, a comment carrying its key is not posted again, a dispatch is looked up in
the journal, a merged PR is not merged again).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.checklist import AuditEntry

STARTED, INTERRUPTED = "started", "interrupted"
DONE, NOT_DONE, UNKNOWN = "done", "not done", "unknown"
KINDS = ("tag", "push", "comment", "label", "milestone", "merge", "dispatch", "publish", "issue")
KEY_MARKER = "cockpit-key"


@dataclass(frozen=True)
class Intent:
    """What an outward action is about to change, written before it acts: enough to look later.

    ``kind`` is one of ``KINDS``; ``where`` the repository or git remote; ``what`` the tag, the
    ``#number`` or the workflow; ``key`` what identifies this one change (the commit a tag goes on,
    the hidden key of a comment, the head a merge is made at, the milestone an item leaves).
    """

    kind: str
    where: str
    what: str
    key: str = ""

    def fields(self) -> dict[str, str]:
        return {"kind": self.kind, "where": self.where, "what": self.what, "key": self.key}

    @staticmethod
    def read(fields: Mapping[str, str]) -> Intent | None:
        """The intent of an audit entry read back from the state file; None when it has none (or a broken one)."""
        kind = fields.get("kind", "")
        if kind not in KINDS or not fields.get("where") or not fields.get("what"):
            return None
        return Intent(kind, fields["where"], fields["what"], fields.get("key", ""))


@dataclass(frozen=True)
class Finding:
    """What the world says about an interrupted intent: ``outcome`` is ``DONE``, ``NOT_DONE`` or ``UNKNOWN``."""

    outcome: str
    evidence: str


def comment_key(*parts: object) -> str:
    """The idempotency key of a comment: the same text on the same issue has the same key."""
    return hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()[:16]


def with_key(body: str, key: str) -> str:
    """``body`` with its key in a hidden HTML comment on a line of its own (GitHub does not show it; the
    bot reads only the line with its command: pytorch/test-infra torchci/lib/bot/cliParser.ts)."""
    return f"{body.rstrip()}\n\n<!-- {KEY_MARKER}: {key} -->"


def has_key(body: str, key: str) -> bool:
    return f"<!-- {KEY_MARKER}: {key} -->" in (body or "")


def unfinished(log: Sequence[AuditEntry]) -> list[AuditEntry]:
    """The ``started`` entries of ``log`` (oldest first) that no later entry for the same action and target
    follows."""
    out = []
    for k, entry in enumerate(log):
        if entry.outcome != STARTED:
            continue
        later = log[k + 1 :]
        if not any(e.action == entry.action and e.target == entry.target and e.outcome != STARTED for e in later):
            out.append(entry)
    return out
