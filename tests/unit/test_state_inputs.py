"""What #30 found wrong with the state file as input (tested here, fixed in cockpit.state and the RC rules):
notes and names read back or typed are made inert, a write-protected file or a folder in its place is left
as it is with the reason, a quoted schema is named as text, RC numbers are ASCII digits of sane length, and a
command whose write failed exits non-zero saying which part happened."""

from __future__ import annotations

import os
import stat

from cockpit.actions.rc_tag import next_rc_tag
from cockpit.domain.text import is_inert
from cockpit.services.rc_pattern import rc_tags_matching
from cockpit.services.release_discovery import rc_tags, version_in_flight
from cockpit.state.store import StateStore, describe_state_file

HOSTILE = "ok\x1b]52;c;aGVsbG8=\x07 \x1b[2J\x00\u202eevil\x85 done"


def test_notes_and_names_read_back_from_the_file_or_typed_are_inert(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(
        'schema = 1\n[signoffs.docs]\ndone = true\nwho = "bob\\u001b[31m"\nwhen = "2026-12-06T10:00:00Z"\n'
        'note = "n\\u202e"\n[notes]\nperf = "x\\u001b]52;c;Zm9v\\u0007"\n'
    )
    store = StateStore(path)
    try:
        signoffs = store.signoffs()
        assert all(is_inert(s.who) and is_inert(s.note) for s in signoffs.values())
        assert signoffs["docs"].who.startswith("bob") and "\x1b" not in signoffs["docs"].who
        store.set_note("perf", HOSTILE)
        store.set_signoff("docs", done=True, who=HOSTILE, note=HOSTILE)
        assert all(is_inert(s.who) and is_inert(s.note) for s in store.signoffs().values())
        assert "\x1b" not in path.read_text() and "\x00" not in path.read_text()
    finally:
        store.close()


def test_a_write_protected_state_file_is_opened_read_only_and_left_as_it_is(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text('schema = 1\n[notes]\nperf = "kept"\n')
    path.chmod(0o444)
    before = path.read_bytes()
    store = StateStore(path)
    try:
        assert store.read_only
        why = store.why_read_only
        assert why is not None and why.summary == "state file write-protected"
        assert "mode 0444" in str(why) and "chmod u+w" in str(why)
        assert store.notes() == {"perf": "kept"}
    finally:
        store.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o444 and path.read_bytes() == before


def test_a_folder_where_the_state_file_should_be_is_named_with_the_remedy(tmp_path):
    folder = tmp_path / "state.toml"
    folder.mkdir()
    store = StateStore(folder)
    try:
        why = store.why_read_only
        assert why is not None and why.summary == "state path is a folder"
        assert "cockpit-state.toml" in str(why) and "permission" not in str(why)
    finally:
        store.close()


def test_a_quoted_schema_is_named_as_a_text(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text('schema = "1"\n')
    store = StateStore(path)
    try:
        assert "'schema' is the text '1', expected the number 1" in store.problem
    finally:
        store.close()
    assert "'schema' is the text '1', expected the number 1" in describe_state_file(path)


def test_rc_numbers_are_ascii_digits_of_sane_length():
    tags = ["v2.5.0-rc1", "v2.5.0-rc2", "v2.5.0-rc\u0669", "v2.5.0-rc" + "9" * 20, "v2.5.0-rc\uff13"]
    assert next_rc_tag("2.5.0", tags) == "v2.5.0-rc3"
    assert rc_tags("2.5.0", tags) == ["v2.5.0-rc1", "v2.5.0-rc2"]
    assert rc_tags_matching(tags, "2.5.0", "v{version}-rc{n}") == ["v2.5.0-rc1", "v2.5.0-rc2"]
    assert version_in_flight(["v2.\u0665.0-rc1", "v2.4.0-rc1"]) == "2.4.0"
