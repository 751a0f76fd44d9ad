"""The session state file's story: progress survives restarts, a crash never corrupts it, a file
the cockpit cannot read is never overwritten, and only one session writes at a time."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import textwrap
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cockpit.domain.checklist import AuditEntry, Signoff
from cockpit.errors import ReadOnlyError, StateError
from cockpit.state.lock import lock_path_for
from cockpit.state.store import StateStore

REPO = Path(__file__).resolve().parents[2]
FIXED = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def state_path(tmp_path):
    return tmp_path / "cockpit-state.toml"


def opened(path, **kw):
    store = StateStore(path, clock=lambda: FIXED, **kw)
    return store


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_missing_file_is_an_empty_session(state_path):
    store = opened(state_path)
    assert store.problem is None and not store.read_only
    assert store.signoffs() == {} and store.audit_log() == [] and store.pref("theme") is None
    assert not state_path.exists(), "opening alone writes nothing"
    store.close()


def test_everything_the_release_manager_records_survives_a_restart(state_path):
    store = opened(state_path)
    store.set_signoff("validate_binaries", done=True, who="alice", note="all green on rc3")
    store.set_note("perf_run", "waiting on the benchmark box")
    store.set_pref("theme", "nord")
    store.set_pref("panes", ["milestone", "picks"])
    store.ledger_put("acme/torchlet#123:validation", 98765)
    store.acknowledge("ci:unstable-rocm")
    store.audit(AuditEntry(FIXED.isoformat(), "alice", "ci.rerun", "acme/torchlet run 7", "ok", "re-ran 3 jobs"))
    store.close()

    again = opened(state_path)
    assert again.signoffs() == {
        "validate_binaries": Signoff("validate_binaries", True, "alice", "2026-10-01T12:00:00Z", "all green on rc3"),
        "perf_run": Signoff("perf_run", False, "", "", "waiting on the benchmark box"),
    }
    assert again.notes() == {"perf_run": "waiting on the benchmark box"}
    assert again.pref("theme") == "nord" and again.pref("panes") == ["milestone", "picks"]
    assert again.ledger_get("acme/torchlet#123:validation") == 98765
    assert again.ledger_get("acme/torchlet#124:validation") is None
    assert again.acknowledged("ci:unstable-rocm") and not again.acknowledged("ci:other")
    assert again.audit_log() == [
        AuditEntry(FIXED.isoformat(), "alice", "ci.rerun", "acme/torchlet run 7", "ok", "re-ran 3 jobs")
    ]
    data = tomllib.loads(state_path.read_text())
    assert data["schema"] == 1 and "[[audit]]" in state_path.read_text()
    again.close()


def test_a_state_file_in_a_folder_that_does_not_exist_yet_is_created(tmp_path):
    path = tmp_path / "state" / "cockpit" / "cockpit-state.toml"
    store = opened(path)
    store.set_pref("theme", "nord")
    assert tomllib.loads(path.read_text())["ui"] == {"theme": "nord"}
    store.close()


def test_a_closed_store_no_longer_writes(state_path):
    store = opened(state_path)
    store.close()
    with pytest.raises(ReadOnlyError, match="was closed"):
        store.set_pref("theme", "nord")
    assert not state_path.exists()


def test_a_pasted_token_never_reaches_the_file(state_path):
    store = opened(state_path)
    token = "ghp_" + "A1b2" * 9
    store.set_signoff("promote_pypi", done=False, who="bob", note=f"used {token} oops")
    store.audit(AuditEntry("t", "bob", "x", "y", "failed", f"401 for {token}"))
    store.close()
    assert token not in state_path.read_text()
    assert "[redacted token]" in state_path.read_text()


def test_a_preference_that_toml_cannot_hold_is_refused(state_path):
    store = opened(state_path)
    with pytest.raises(StateError, match="preference 'size'"):
        store.set_pref("size", object())
    store.close()


def test_unticking_a_step_is_recorded_with_who_and_when(state_path):
    store = opened(state_path)
    store.set_signoff("docs_entry", done=True, who="alice")
    store.set_signoff("docs_entry", done=False, who="bob", when="2026-10-02T08:00:00Z")
    assert store.signoffs()["docs_entry"] == Signoff("docs_entry", False, "bob", "2026-10-02T08:00:00Z", "")
    store.close()


def test_a_note_belongs_to_the_step_whether_or_not_it_is_signed(state_path):
    store = opened(state_path)
    store.set_signoff("perf_run", done=True, who="alice", note="first look")
    store.set_note("perf_run", "no regression vs 2.4")
    assert store.signoffs()["perf_run"].note == "no regression vs 2.4"
    store.set_signoff("perf_run", done=False, who="bob")
    assert store.signoffs()["perf_run"].note == "no regression vs 2.4", "unticking keeps the note"
    store.set_note("perf_run", "")
    assert store.signoffs()["perf_run"].note == "" and store.notes() == {}
    store.close()


def test_malformed_entries_in_a_hand_edited_file_are_skipped_not_fatal(state_path):
    state_path.write_text('schema = 1\nsignoffs = { a = "yes", b = { done = true, who = 3 } }\naudit = "none"\n')
    store = opened(state_path)
    assert store.problem is None
    assert store.signoffs() == {"b": Signoff("b", True, "", "", "")}
    assert store.audit_log() == []
    store.audit(AuditEntry("t", "me", "a", "b", "ok"))
    assert len(store.audit_log()) == 1
    store.close()


@pytest.mark.parametrize(
    ("content", "kind", "words"),
    [
        ("schema = 1\n[signoffs\n", "corrupt", "does not parse"),
        (b"schema = 1\nnote = '\xff\xfe'\n", "corrupt", "does not parse"),
        ('schema = "one"\n', "corrupt", "'schema'"),
        ("schema = 7\n[future]\nx = 1\n", "newer", "newer cockpit (schema 7"),
    ],
)
def test_a_file_the_cockpit_cannot_read_is_kept_aside_and_never_overwritten(state_path, content, kind, words):
    raw = content if isinstance(content, bytes) else content.encode()
    state_path.write_bytes(raw)
    store = opened(state_path)
    store.load()
    assert store.read_only and words in store.problem
    copies = list(state_path.parent.glob(f"{state_path.name}.{kind}-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == raw
    assert str(copies[0]) in store.problem
    with pytest.raises(ReadOnlyError, match=kind if kind == "newer" else "does not parse|'schema'"):
        store.set_signoff("x", done=True, who="me")
    assert state_path.read_bytes() == raw
    assert not lock_path_for(state_path).exists(), "a store that cannot write gives the lock back"
    store.close()


def test_a_second_session_on_the_same_file_opens_read_only_and_says_who_holds_it(state_path):
    first = opened(state_path)
    first.set_pref("theme", "nord")
    second = opened(state_path)
    assert second.read_only
    assert f"held by pid {os.getpid()} on {socket.gethostname()} since" in second.problem
    assert second.pref("theme") == "nord", "it still shows the state"
    with pytest.raises(ReadOnlyError, match="held by pid"):
        second.set_pref("theme", "dark")
    first.close()
    assert not lock_path_for(state_path).exists()
    second.load()
    assert not second.read_only, "loading again once the lock is free makes it a writer"
    second.close()


def test_a_lock_held_by_a_live_process_is_respected(state_path):
    lock = lock_path_for(state_path)
    lock.write_text(json.dumps({"pid": os.getppid(), "host": socket.gethostname(), "started": "2026-10-01T09:00:00Z"}))
    store = opened(state_path)
    assert store.read_only
    assert store.problem.startswith(f"state file {state_path} is held by pid {os.getppid()}")
    assert "since 2026-10-01T09:00:00Z" in store.problem
    store.close()
    assert lock.exists(), "closing a read-only store leaves someone else's lock alone"


def test_a_lock_from_another_host_is_respected_even_if_the_pid_is_free_here(state_path):
    lock = lock_path_for(state_path)
    lock.write_text(json.dumps({"pid": dead_pid(), "host": "build-box-7", "started": "2026-10-01T09:00:00Z"}))
    store = opened(state_path)
    assert store.read_only and "on build-box-7" in store.problem


def test_a_stale_lock_left_by_a_dead_session_is_taken_over(state_path):
    lock = lock_path_for(state_path)
    lock.write_text(json.dumps({"pid": dead_pid(), "host": socket.gethostname(), "started": "2026-09-01T00:00:00Z"}))
    store = opened(state_path)
    assert store.problem is None
    assert json.loads(lock.read_text())["pid"] == os.getpid()
    store.set_pref("theme", "nord")
    store.close()
    assert not lock.exists()


def test_an_unreadable_lock_file_opens_read_only_with_advice(state_path):
    lock_path_for(state_path).write_text("{not json")
    store = opened(state_path)
    assert store.read_only and "delete it" in store.problem


def test_a_viewer_writes_nothing_at_all(state_path):
    writer = opened(state_path)
    writer.set_signoff("tag_final_rc", done=True, who="alice")
    writer.close()
    before = state_path.read_bytes()
    viewer = opened(state_path, read_only=True)
    assert viewer.read_only and viewer.problem is None
    assert viewer.read_only_reason == "viewer mode (--read-only)"
    assert viewer.signoffs()["tag_final_rc"].done
    for mutate in (
        lambda: viewer.set_signoff("x", done=True, who="eve"),
        lambda: viewer.set_note("x", "n"),
        lambda: viewer.audit(AuditEntry("t", "eve", "a", "b", "ok")),
        lambda: viewer.set_pref("theme", "dark"),
        lambda: viewer.ledger_put("k", 1),
        lambda: viewer.acknowledge("k"),
    ):
        with pytest.raises(ReadOnlyError, match="viewer mode"):
            mutate()
    viewer.close()
    assert state_path.read_bytes() == before
    assert sorted(p.name for p in state_path.parent.iterdir()) == [state_path.name], "no lock, no temp file"
    assert viewer.pref("theme") is None, "refused writes do not change what it shows either"


def test_a_viewer_follows_the_file_another_session_writes(state_path):
    writer = opened(state_path)
    viewer = opened(state_path, read_only=True)
    assert viewer.reload_if_changed() is False
    writer.set_signoff("perf_run", done=True, who="alice")
    assert viewer.reload_if_changed() is True
    assert viewer.signoffs()["perf_run"].who == "alice"
    assert viewer.reload_if_changed() is False
    writer.close()


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from cockpit.state.store import StateStore

    store = StateStore(Path(sys.argv[1]))
    if store.problem:
        print("problem", store.problem, flush=True)
        sys.exit(1)
    n = int(store.notes().get("pad", "0|").split("|")[0])
    print("ready", flush=True)
    n += 1
    store.set_note("pad", f"{n}|" + "x" * (20000 + n % 7919))
    print("wrote", flush=True)
    while True:
        n += 1
        store.set_note("pad", f"{n}|" + "x" * (20000 + n % 7919))
    """
)


def test_a_writer_killed_at_random_moments_never_leaves_a_broken_file(state_path):
    """30 writers, each killed 0-30 ms after it took the lock: the file is always whole, old or new.

    Only the first writer is waited for until its first write lands: before that there is no file
    at all, which is not a broken one. The count of kills, not the wall clock, ends the test (a slow
    machine makes it slower, not weaker); a writer that never answers is killed by the hang guard.
    """
    import threading

    rng = random.Random(1234)
    last = 0
    hang_guard = time.monotonic() + 240
    for kills in range(1, 31):
        assert time.monotonic() < hang_guard, f"30 kills took over 240 s; stuck after {kills - 1}"
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(state_path)], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
        guard = threading.Timer(60, proc.kill)
        guard.start()
        line = proc.stdout.readline().strip()
        assert line == "ready", f"the writer did not take over the stale lock: {line!r}"
        if kills == 1:
            line = proc.stdout.readline().strip()
            assert line == "wrote", f"the first writer never finished its first write: {line!r}"
        time.sleep(rng.uniform(0.0, 0.03))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        guard.cancel()
        proc.stdout.close()
        data = tomllib.loads(state_path.read_text())
        counter, pad = data["notes"]["pad"].split("|")
        assert len(pad) == 20000 + int(counter) % 7919, "content is whole: old or new, never a mix"
        assert int(counter) >= last
        last = int(counter)
    assert last > 0
    store = opened(state_path)
    assert store.problem is None, "the lock of the last killed writer is stale and taken over"
    assert not list(state_path.parent.glob(".*.tmp")), "temp files of killed writers are swept"
    store.close()


def test_workers_recording_at_the_same_time_lose_nothing(state_path):
    import threading

    store = opened(state_path)

    def record(worker):
        for i in range(10):
            store.audit(AuditEntry("t", f"worker{worker}", "ci.rerun", f"run {i}", "ok"))

    threads = [threading.Thread(target=record, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    assert len(opened(state_path, read_only=True).audit_log()) == 40


class ChecklistBackend:
    """Just what the checklist actions need: the state, the registry, who acts and when, the team's status."""

    def __init__(self, store: StateStore) -> None:
        from cockpit.actions.checklist import register
        from cockpit.actions.registry import ActionRegistry
        from cockpit.loaders.shared import SharedResults

        self.state, self.who, self.clock, self.shared = store, "alice", lambda: FIXED, SharedResults()
        self.actions = ActionRegistry(store, read_only=False, who="alice", clock=lambda: FIXED)
        register(self.actions, self)

    def checklist_steps(self) -> list:
        return []


SESSION_TOKEN = "0123456789abcdef0123456789abcdef01234567"  # an old-style token: no recognisable shape
TOKEN_SHAPES = {
    "classic": "ghp_" + "A1b2" * 9,
    "fine-grained": "github_pat_11ABCDEFG0" + "x_Y9" * 16,
    "oauth": "gho_" + "Zz09" * 9,
    "server-to-server": "ghs_" + "Qq12" * 9,
    "user-to-server": "ghu_" + "Ww34" * 9,
    "refresh": "ghr_" + "Ee56" * 19,
    "the session's own token": SESSION_TOKEN,
}


@pytest.fixture
def session_token():
    from cockpit.state import redaction

    redaction.add_secret(SESSION_TOKEN)
    yield SESSION_TOKEN
    redaction.forget_secrets()


@pytest.mark.parametrize("token", TOKEN_SHAPES.values(), ids=TOKEN_SHAPES.keys())
def test_a_token_pasted_anywhere_reaches_no_field_of_the_state_file(state_path, session_token, token):
    store = opened(state_path)
    backend = ChecklistBackend(store)
    result = backend.actions.run("checklist.note", ("perf_run", f"used GH_TOKEN_{token}_ oops"), confirmed=True)
    assert result.ok
    store.set_signoff("promote_pypi", done=True, who=f"bob {token}", note=f"token={token}")
    store.audit(AuditEntry(f"t {token}", token, f"x{token}", f"#{token}", "failed", f"401 for {token}"))
    store.set_pref("last_search", token)
    store.set_pref("searches", [f"a {token}", "b"])
    store.ledger_put(f"acme/torchlet#{token}", token)
    store.acknowledge(f"ci:{token}")
    text = state_path.read_text()
    assert token not in text
    assert text.count("[redacted token]") >= 12
    note_entry = next(e for e in store.audit_log() if e.action == "checklist.note")
    assert "[redacted token]" in note_entry.target and token not in note_entry.target
    assert token not in store.notes()["perf_run"], "what the session shows matches the file"
    assert token not in store.set_signoff("x", done=True, who="bob", note=token).note
    store.close()


def test_redaction_leaves_ordinary_text_alone(state_path, session_token):
    store = opened(state_path)
    store.set_note("perf_run", "ghp_ is a token prefix; github_pat_short; gh_token; 0123456789")
    assert store.notes()["perf_run"] == "ghp_ is a token prefix; github_pat_short; gh_token; 0123456789"
    store.close()


SIGNER = textwrap.dedent(
    """
    import os
    import sys
    from datetime import UTC, datetime
    from pathlib import Path

    from cockpit.actions.checklist import register
    from cockpit.actions.registry import ActionRegistry
    from cockpit.loaders.shared import SharedResults
    from cockpit.state.store import StateStore


    class Backend:
        def __init__(self, store):
            self.state, self.who, self.clock = store, "alice", lambda: datetime.now(UTC)
            self.shared = SharedResults()
            self.actions = ActionRegistry(store, read_only=False, who="alice")
            register(self.actions, self)

        def checklist_steps(self):
            return []


    store = StateStore(Path(sys.argv[1]))
    if store.problem:
        print("problem", store.problem, flush=True)
        sys.exit(1)
    actions = Backend(store).actions
    n = 0
    while True:
        n += 1
        step = f"p{os.getpid()}-{n}"
        assert actions.run("checklist.toggle", step, confirmed=True).ok
        if n == 1:  # the file exists from here on, so every kill below leaves something to check
            print("ready", flush=True)
        if n % 3 == 0:  # and unticked again
            assert actions.run("checklist.toggle", step, confirmed=True).ok
        if n % 5 == 0:
            assert actions.run("checklist.note", (step, f"note {n}"), confirmed=True).ok
    """
)


def test_a_session_killed_while_signing_off_leaves_every_sign_off_with_its_audit_entry(state_path):
    import ast
    from collections import Counter

    rng = random.Random(4321)
    kills = checked = 0
    # a number of kills, not a time budget: a busy machine takes longer, it never gets fewer (a deadline here
    # once left 8 kills on a machine at load 25, and the test failed on the machine, not on the code)
    while kills < 12:
        proc = subprocess.Popen(
            [sys.executable, "-c", SIGNER, str(state_path)], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.01, 0.08))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        kills += 1
        data = tomllib.loads(state_path.read_text())
        audit = data.get("audit", [])
        toggles = Counter(e["target"] for e in audit if e["action"] == "checklist.toggle")
        signoffs = data.get("signoffs", {})
        assert set(toggles) == set(signoffs), "every sign-off has its audit entry, and every entry its sign-off"
        for step, entry in signoffs.items():
            assert toggles[step] == (1 if entry["done"] else 2), f"{step}: the sign-off and its audit log disagree"
        noted = {ast.literal_eval(e["target"])[0] for e in audit if e["action"] == "checklist.note"}
        assert noted == set(data.get("notes", {})), "every note has its audit entry, and every entry its note"
        checked += 1
    assert checked == kills == 12


def test_a_sign_off_and_its_audit_entry_are_one_write_of_the_file(state_path, monkeypatch):
    store = opened(state_path)
    actions = ChecklistBackend(store).actions
    renames = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (renames.append(b), real_replace(a, b))[1])
    assert actions.run("checklist.toggle", "docs_entry", confirmed=True).ok
    assert renames == [state_path]
    assert store.signoffs()["docs_entry"].done and [e.target for e in store.audit_log()] == ["docs_entry"]
    store.close()


def test_when_that_write_fails_neither_the_sign_off_nor_its_audit_entry_is_kept(state_path, monkeypatch):
    store = opened(state_path)
    actions = ChecklistBackend(store).actions

    def full_disk(_a, _b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    result = actions.run("checklist.toggle", "docs_entry", confirmed=True)
    assert "the state file was not written" in result.message and "No space left on device" in result.message
    assert not result.ok, "a write the action attempted failed: the command fails"
    assert store.signoffs() == {} and store.audit_log() == []
    monkeypatch.undo()
    assert actions.run("checklist.toggle", "docs_entry", confirmed=True).ok, "the next action writes again"
    assert store.signoffs()["docs_entry"].done and len(store.audit_log()) == 1
    store.close()


def test_a_lock_held_by_a_cockpit_running_here_says_who_since_when_and_how_to_act_again(state_path):
    lock = lock_path_for(state_path)
    host = socket.gethostname()
    lock.write_text(json.dumps({"pid": os.getppid(), "host": host, "started": "2026-10-01T09:00:00Z"}))
    store = opened(state_path)
    why = store.why_read_only
    assert why.summary == f"state locked by pid {os.getppid()} on {host}"
    assert f"held by pid {os.getppid()} on {host} since 2026-10-01T09:00:00Z" in why.detail
    assert why.remedy.startswith("quit that cockpit, then start this one again")
    assert str(lock) in why.remedy, "the lock file to delete if that pid is no cockpit"
    assert store.read_only_reason == store.problem == str(why)
    assert opened(state_path, take_over=True).read_only, "a cockpit running on this machine is never taken over"
    assert json.loads(lock.read_text())["pid"] == os.getppid()


def test_a_lock_from_another_machine_can_be_taken_over_once_that_session_is_confirmed_gone(state_path):
    lock = lock_path_for(state_path)
    lock.write_text(json.dumps({"pid": 4242, "host": "build-box-7", "started": "2026-10-01T09:00:00Z"}))
    store = opened(state_path)
    assert store.why_read_only.summary == "state locked by build-box-7"
    assert "cannot be checked from here" in store.why_read_only.detail
    assert "start again with --take-over" in store.why_read_only.remedy and str(lock) in store.why_read_only.remedy
    taking = opened(state_path, take_over=True)
    assert not taking.read_only and taking.why_read_only is None
    assert json.loads(lock.read_text())["pid"] == os.getpid()
    taking.set_pref("theme", "nord")
    taking.close()


def test_an_unreadable_lock_file_can_be_taken_over(state_path):
    lock_path_for(state_path).write_text("{not json")
    assert "--take-over" in opened(state_path).why_read_only.remedy
    store = opened(state_path, take_over=True)
    assert not store.read_only
    store.close()
    assert not lock_path_for(state_path).exists()


def test_a_corrupt_state_file_says_the_parse_error_where_the_copy_went_and_how_to_recover(state_path):
    state_path.write_text("schema = 1\n[signoffs\n")
    store = opened(state_path)
    why = store.why_read_only
    (copy,) = state_path.parent.glob(f"{state_path.name}.corrupt-*")
    assert why.summary == "state file corrupt"
    assert "does not parse (" in why.detail and "line 2" in why.detail and str(copy) in why.detail
    assert why.remedy == (
        f"repair {state_path} by hand (or move it away to start with an empty state), then start again"
    )


def test_locate_tells_the_state_file_and_its_lock_as_they_are(state_path):
    from cockpit.state.lock import describe_lock
    from cockpit.state.store import describe_state_file

    assert describe_state_file(state_path).startswith("missing")
    assert describe_lock(state_path) == "free"
    store = opened(state_path)
    store.set_pref("theme", "nord")
    assert describe_state_file(state_path) == "readable"
    assert describe_lock(state_path).startswith(f"held by pid {os.getpid()} on {socket.gethostname()} since")
    assert describe_lock(state_path).endswith(", running")
    store.close()
    lock_path_for(state_path).write_text(json.dumps({"pid": 7, "host": "build-box-7", "started": "t"}))
    assert "another machine" in describe_lock(state_path) and "--take-over" in describe_lock(state_path)
    state_path.write_text("schema = [\n")
    opened(state_path, read_only=True)
    described = describe_state_file(state_path)
    assert described.startswith("does not parse (") and "repair it or move it away" in described
