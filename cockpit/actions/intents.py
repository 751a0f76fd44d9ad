"""Intent before every outward write: which actions started and never told their outcome.

The registry writes an audit entry with the outcome ``started`` (in its own write, before the action touches
anything outside) and then the entry with the outcome. An intent with no later entry for the same action and
target means the cockpit was stopped or killed in between: the change may or may not have reached GitHub or
git. The next session says so before anything else (``ActionRegistry.interrupted``); the actions that can be
retried safely make sure a retry does not act twice (the RC tag adopts the tag already at the commit, a
dispatch is looked up in the journal, a validation comment or an issue is looked up before it is posted).
"""

from __future__ import annotations

from collections.abc import Sequence

from cockpit.domain.checklist import AuditEntry

STARTED, INTERRUPTED = "started", "interrupted"


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
