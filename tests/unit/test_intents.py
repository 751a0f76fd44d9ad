"""Intent before every outward write (#30): an action that changes the world writes its intent to the audit log
before it acts; killed in between, the next session is told, once, what to check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.actions.intents import (
    DONE,
    NOT_DONE,
    Finding,
    Intent,
    comment_key,
    has_key,
    unfinished,
    with_key,
)
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.checklist import AuditEntry
from cockpit.errors import GitHubError
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


def looking_registry(store: StateStore, run, look) -> ActionRegistry:
    reg = ActionRegistry(store, read_only=False, who="alice", clock=lambda: NOW)
    reg.register(
        Action(
            "milestone.remove",
            "Remove from milestone",
            Danger.MUTATING,
            "milestone",
            run=run,
            describe=str,
            intent=lambda n: Intent("milestone", "acme/torchlet", f"#{n}", "2.5.0"),
            look=look,
        )
    )
    return reg


def killed_once(path, look) -> list[str]:
    """Run the action killed after its change reached the world; a new session tells what it found."""

    def remove(target):
        raise Killed

    store = StateStore(path)
    with pytest.raises(Killed):
        looking_registry(store, remove, look).run("milestone.remove", 12, confirmed=True)
    store.close()
    store = StateStore(path)
    try:
        return looking_registry(store, remove, look).interrupted()
    finally:
        store.close()


def test_the_intent_is_written_before_the_action_and_read_back_with_what_to_look_at(tmp_path):
    path = tmp_path / "state.toml"
    killed_once(path, look=None)
    text = path.read_text(encoding="utf-8")
    assert "[audit.intent]" in text and 'kind = "milestone"' in text and 'what = "#12"' in text
    (started, _told) = StateStore(path, read_only=True).audit_log()
    assert Intent.read(dict(started.intent)) == Intent("milestone", "acme/torchlet", "#12", "2.5.0")


@pytest.mark.parametrize(
    ("look", "outcome", "said"),
    [
        (lambda i: Finding(DONE, f"{i.what} is no longer in milestone 2.5.0"), "done", "#12 is no longer in"),
        (lambda i: Finding(NOT_DONE, f"{i.what} is still in milestone 2.5.0"), "not done", "still in"),
        (lambda i: (_ for _ in ()).throw(GitHubError("GET /repos/... answered 502")), "unknown", "502"),
    ],
    ids=["done", "not done", "unreadable"],
)
def test_an_interrupted_intent_is_looked_up_recorded_with_its_evidence_and_told_once(tmp_path, look, outcome, said):
    path = tmp_path / "state.toml"
    (line,) = killed_once(path, look)
    assert f"looked: {outcome}: " in line and said in line
    log = StateStore(path, read_only=True).audit_log()
    assert [e.outcome for e in log] == ["started", outcome]
    assert said in log[-1].detail
    assert unfinished(log) == [], "told once: the next session has nothing to tell"


def test_a_broken_or_hostile_intent_in_the_state_file_is_read_inert_and_not_looked_up(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(
        'schema = 1\n\n[[audit]]\nwhen = "2026-12-06T12:00:00Z"\nwho = "alice"\naction = "milestone.remove"\n'
        'target = "12"\noutcome = "started"\ndetail = ""\n'
        '[audit.intent]\nkind = "rm -rf"\nwhere = "\\u001b]52;c;x\\u0007"\n'
        "what = 12\n",
        encoding="utf-8",
    )
    looked = []
    store = StateStore(path)
    try:
        (entry,) = store.audit_log()
        assert all("\x1b" not in v for _, v in entry.intent) and ("what", "12") not in entry.intent
        assert Intent.read(dict(entry.intent)) is None
        (line,) = looking_registry(store, str, lambda i: looked.append(i) or Finding(DONE, "")).interrupted()
        assert looked == [] and line.endswith("did it happen?")
    finally:
        store.close()


def test_a_kill_inside_the_actions_one_write_keeps_neither_its_record_nor_its_outcome(tmp_path):
    """What the action recorded (a ledger entry) and its audit entry are one write: a kill leaves neither."""
    path = tmp_path / "state.toml"
    store = StateStore(path)

    def record(target):
        store.ledger_put("acme/torchlet#12:validation", 99)
        raise Killed

    with pytest.raises(Killed):
        looking_registry(store, record, None).run("milestone.remove", 12, confirmed=True)
    store.close()
    again = StateStore(path, read_only=True)
    assert again.ledger_get("acme/torchlet#12:validation") is None
    assert [e.outcome for e in again.audit_log()] == ["started"]


def test_the_dispatch_journal_reaches_the_disk_before_the_request_even_inside_the_one_write(tmp_path):
    path = tmp_path / "state.toml"
    store = StateStore(path)
    try:
        with store.one_write():
            key = store.journal_dispatch(
                "acme/test-infra:.github/workflows/x.yml", {}, dry_run=True, ref="main", by="a"
            )
            on_disk = StateStore(path, read_only=True).dispatches()
            assert [d.key for d in on_disk] == [key], "written before the POST that follows it"
    finally:
        store.close()


def test_a_comment_key_is_hidden_on_a_line_of_its_own_and_found_again():
    key = comment_key("acme/torchlet", 12, "@pytorchbot cherry-pick --onto release/2.5 -c critical")
    body = with_key("@pytorchbot cherry-pick --onto release/2.5 -c critical", key)
    assert body.splitlines()[0] == "@pytorchbot cherry-pick --onto release/2.5 -c critical"
    assert has_key(body, key) and not has_key(body, comment_key("acme/torchlet", 13, "x"))
    assert key == comment_key("acme/torchlet", 12, "@pytorchbot cherry-pick --onto release/2.5 -c critical")


def test_an_intent_edited_into_nonsense_is_unknown_and_the_others_are_still_looked_up(tmp_path):
    path = tmp_path / "state.toml"
    store = StateStore(path)
    try:
        for what in ("#abc", "#12"):
            intent = Intent("milestone", "acme/torchlet", what, "2.5.0")
            store.audit(
                AuditEntry(
                    "2026-12-06T12:00:00Z",
                    "alice",
                    "milestone.remove",
                    what,
                    "started",
                    "",
                    tuple(intent.fields().items()),
                )
            )

        def look(i: Intent) -> Finding:
            return Finding(DONE, f"#{int(i.what.lstrip('#'))} is no longer in milestone 2.5.0")

        first, second = looking_registry(store, str, look).interrupted()
        assert "looked: unknown: its intent in the state file cannot be read" in first and "'#abc'" in first
        assert "looked: done: #12 is no longer in" in second
    finally:
        store.close()
