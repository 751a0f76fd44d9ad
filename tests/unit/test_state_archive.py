"""The state file does not grow without end (issue 30): past a documented bound the audit log and the RC
size history move their oldest entries to an archive beside the state file; nothing is deleted, an
unanswered intent stays, and the RCs of the release being recorded always stay."""

from __future__ import annotations

import json

import pytest

from cockpit.domain.checklist import AuditEntry
from cockpit.state import archive
from cockpit.state.store import StateStore


@pytest.fixture
def small_bounds(monkeypatch):
    monkeypatch.setattr(archive, "AUDIT_LIMIT", 20)
    monkeypatch.setattr(archive, "AUDIT_KEEP", 15)
    monkeypatch.setattr(archive, "RC_SIZES_LIMIT", 5)


def archived(path) -> list[dict]:
    return [json.loads(line) for line in archive.archive_path(path).read_text(encoding="ascii").splitlines()]


def test_past_the_bound_the_oldest_audit_entries_move_beside_the_state_file_and_none_is_lost(tmp_path, small_bounds):
    path = tmp_path / "cockpit-state.toml"
    store = StateStore(path)
    try:
        store.audit(AuditEntry("2026-12-01T09:00:00Z", "rosa", "rc.tag", "v2.5.0-rc1", "started"))  # never answered
        for n in range(30):
            store.audit(AuditEntry(f"2026-12-01T10:{n:02d}:00Z", "rosa", "checklist.toggle", f"step{n}", "ok"))
        kept = store.audit_log()
    finally:
        store.close()
    moved = archived(path)
    assert archive.archive_path(path).parent == path.parent and len(kept) <= archive.AUDIT_LIMIT
    assert kept[0].outcome == "started", "an intent with no outcome stays for the next session to ask about"
    targets = [e["target"] for e in moved] + [e.target for e in kept[1:]]
    assert targets == [f"step{n}" for n in range(30)], "every entry is in the archive or the file, in order"
    assert all(e["kind"] == "audit" for e in moved)
    assert StateStore(path, read_only=True).audit_log() == kept


def test_the_rc_size_history_keeps_every_rc_of_the_current_release_and_moves_older_releases(tmp_path, small_bounds):
    path = tmp_path / "cockpit-state.toml"
    store = StateStore(path)
    try:
        for minor in range(3):
            for rc in (1, 2):
                store.record_rc_sizes(f"v2.{minor}.0-rc{rc}", {"torch.whl": 100 * minor + rc})
        for rc in range(1, 8):
            store.record_rc_sizes(f"v2.5.0-rc{rc}", {"torch.whl": 500 + rc})
        sizes = store.rc_sizes()
    finally:
        store.close()
    assert list(sizes) == [f"v2.5.0-rc{rc}" for rc in range(1, 8)], "all seven RCs of 2.5.0 stay"
    assert [e["tag"] for e in archived(path)] == [
        "v2.0.0-rc1",
        "v2.0.0-rc2",
        "v2.1.0-rc1",
        "v2.1.0-rc2",
        "v2.2.0-rc1",
        "v2.2.0-rc2",
    ]


def test_an_archive_that_cannot_be_written_keeps_everything_in_the_state_file(tmp_path, small_bounds):
    path = tmp_path / "cockpit-state.toml"
    archive.archive_path(path).mkdir()  # not a file: appending to it fails
    store = StateStore(path)
    try:
        for n in range(19):
            store.audit(AuditEntry(f"2026-12-01T10:{n:02d}:00Z", "rosa", "checklist.toggle", f"step{n}", "ok"))
        with pytest.raises(Exception, match="cannot move old entries there"):
            for n in range(19, 25):
                store.audit(AuditEntry(f"2026-12-01T10:{n:02d}:00Z", "rosa", "checklist.toggle", f"step{n}", "ok"))
    finally:
        store.close()
    assert len(StateStore(path, read_only=True).audit_log()) == 20
