"""Intent before every outward write (#30): an action that changes the world writes its intent to the audit log
before it acts; killed in between, the next session is told, once, what to check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.actions.intents import unfinished
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.checklist import AuditEntry
from cockpit.state.store import StateStore

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


class Killed(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs (here: the rest of the action)."""


def registry(store: StateStore, run) -> ActionRegistry:
    reg = ActionRegistry(store, read_only=False, who="alice", clock=lambda: NOW)
    reg.register(
        Action("milestone.remove", "Remove from milestone", Danger.MUTATING, "milestone", run=run, describe=str)
    )
    reg.register(
        Action("checklist.note", "Note", Danger.MUTATING, "checklist", run=lambda t: "noted", describe=str, local=True)
    )
    return reg


def test_killed_after_the_remote_change_the_next_session_is_told_once(tmp_path):
    path = tmp_path / "state.toml"
    store = StateStore(path)
    world = []

    def remove(target):
        world.append(f"PATCH #{target}")  # the change reaches GitHub ...
        raise Killed  # ... and the cockpit is killed before it records anything

    with pytest.raises(Killed):
        registry(store, remove).run("milestone.remove", 123, confirmed=True)
    store.close()
    assert world == ["PATCH #123"]

    store = StateStore(path)
    try:
        log = store.audit_log()
        assert [(e.action, e.target, e.outcome) for e in log] == [("milestone.remove", "123", "started")]
        reg = registry(store, lambda t: "removed")
        (line,) = reg.interrupted()
        assert line.startswith("Remove from milestone on 123, started 2026-12-06T12:00:00Z by alice")
        assert "did it happen?" in line
        assert reg.interrupted() == [], "told once"
        assert [e.outcome for e in store.audit_log()] == ["started", "interrupted"]
    finally:
        store.close()


def test_a_finished_action_leaves_its_intent_and_its_outcome_and_a_local_one_no_intent(tmp_path):
    store = StateStore(tmp_path / "state.toml")
    try:
        reg = registry(store, lambda t: f"#{t} removed")
        assert reg.run("milestone.remove", 7, confirmed=True).ok
        assert reg.run("checklist.note", "docs", confirmed=True).ok
        assert [(e.action, e.outcome) for e in store.audit_log()] == [
            ("milestone.remove", "started"),
            ("milestone.remove", "ok"),
            ("checklist.note", "ok"),
        ]
        assert reg.interrupted() == []
        refused = reg.run("milestone.remove", 8, confirmed=False)
        assert not refused.ok and store.audit_log()[-1].outcome == "refused", "a refusal writes no intent"
    finally:
        store.close()


def test_unfinished_pairs_each_intent_with_a_later_outcome_of_the_same_action_and_target():
    def e(action: str, target: str, outcome: str) -> AuditEntry:
        return AuditEntry("2026-12-06T12:00:00Z", "alice", action, target, outcome, "")

    log = [e("a", "1", "started"), e("a", "1", "ok"), e("a", "2", "started"), e("b", "2", "ok")]
    assert unfinished(log) == [log[2]]
