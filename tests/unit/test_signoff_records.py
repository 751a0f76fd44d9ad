"""A sign-off belongs to the GitHub account that wrote it: each manager's sign-offs live in a comment her
own account authored, an entry claiming to be someone else's is shown as unverified and never counted,
and a comment that cannot be read, or was edited by hand, is named as blocking instead of being
read as empty (issue 30). The comments are GitHub's real comment JSON, checked against its published
REST description, parsed by the adapter's own parser."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

import pytest

from cockpit.adapters.github_parse import comment_from
from cockpit.domain.status import SharedSignoff
from cockpit.services.signoff_record import DATA_OPEN, render_record, team_from_json, team_to_json
from cockpit.services.status_block import BLOCK_OPEN
from cockpit.services.status_comment import published_status, render_status
from cockpit.services.status_read import read_status
from tests.adapters import github_shapes as shapes
from tests.github_description import check_response
from tests.unit.test_status_comment import status_input

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
RELEASE = "2.5.0"


def entry(step: str, who: str, minute: int, *, done: bool = True) -> SharedSignoff:
    return SharedSignoff(step, done, who, f"2026-12-01T09:{minute:02d}:00Z")


def github_comment(cid: int, login: str, body: str, association: str = "MEMBER"):
    """A tracker comment as GitHub sends it (``user.login``, ``author_association``, ``body``, ``id``,
    ``html_url``, ``updated_at``), checked against the REST description, read by the adapter."""
    data = {**shapes.comment(cid, body, login), "author_association": association}
    path = f"/repos/pytorch/pytorch/issues/comments/{cid}"
    assert check_response("GET", path, 200, json.dumps(data)) == []
    return comment_from(data)


def record(cid: int, login: str, entries: dict[str, SharedSignoff]):
    return github_comment(cid, login, render_record(RELEASE, login, entries))


def status_comment(cid: int, login: str, signoffs: dict[str, SharedSignoff]):
    body = render_status(published_status(status_input(), signoffs, by=login, at=NOW), None)
    return github_comment(cid, login, body)


ALICE = {"perf": entry("perf", "alice", 5)}
BOB = {"tag": entry("tag", "bob", 7)}


def honest_tracker():
    team = {**ALICE, **BOB}
    return [record(1, "alice", ALICE), record(2, "bob", BOB), status_comment(3, "alice", team)]


def test_each_managers_own_comment_is_the_only_source_of_her_sign_offs():
    read = read_status(honest_tracker(), RELEASE, NOW)
    assert read.team == {**ALICE, **BOB} and read.blocking == () and read.unverified == ()
    assert read.status is not None and read.status.signoffs == read.team


def reencoded(body: str, change) -> str:
    """``body`` (a record) with its data block decoded, changed by ``change`` and encoded again: a forger's edit."""
    head, rest = body.split(DATA_OPEN + "\n", 1)
    raw = "".join(rest.rsplit("-->", 1)[0].split())
    data = json.loads(base64.b64decode(raw))
    change(data)
    packed = base64.b64encode(json.dumps(data, separators=(",", ":")).encode()).decode()
    return f"{head}{DATA_OPEN}\n{packed}\n-->\n"


def test_an_entry_done_by_bob_planted_in_alices_comment_is_unverified_and_not_counted():
    forged = reencoded(
        render_record(RELEASE, "alice", ALICE),
        lambda d: d["signoffs"].update({"rc_ok": {"done": True, "who": "bob", "when": "2026-12-01T09:30:00Z"}}),
    )
    read = read_status([github_comment(1, "alice", forged), record(2, "bob", BOB)], RELEASE, NOW)
    assert "rc_ok" not in read.team and read.team == BOB, "nothing of the forged comment is counted"
    assert [(u.step_id, u.who) for u in read.unverified] == [("rc_ok", "bob")]
    assert any("claiming to be @bob's" in b for b in read.blocking)


def test_a_later_unsign_by_bob_in_the_status_comment_is_unverified_and_bobs_own_comment_stands():
    forged_unsign = entry("tag", "bob", 40, done=False)
    tracker = honest_tracker()[:2] + [status_comment(3, "alice", {**ALICE, "tag": forged_unsign})]
    read = read_status(tracker, RELEASE, NOW)
    assert read.team["tag"] == BOB["tag"], "bob's signature stands: only his own comment speaks for him"
    assert read.status is not None and read.status.signoffs["tag"] == BOB["tag"], "the viewer shows bob's own word"
    assert read.unverified == (forged_unsign,)
    assert any("'tag' unsigned as @bob" in p and "not counted" in p for p in read.problems)


def test_a_comment_claiming_to_be_bobs_record_but_written_by_mallory_counts_nothing_for_bob():
    mallorys = github_comment(9, "mallory", render_record(RELEASE, "bob", {"rc_ok": entry("rc_ok", "bob", 9)}))
    read = read_status([*honest_tracker(), mallorys], RELEASE, NOW)
    assert "rc_ok" not in read.team and ("rc_ok", "bob") in {(u.step_id, u.who) for u in read.unverified}


def test_a_passer_bys_record_is_ignored():
    passer = github_comment(9, "mallory", render_record(RELEASE, "mallory", {"rc_ok": entry("rc_ok", "mallory", 9)}))
    passer_read = read_status([*honest_tracker(), github_comment(9, "mallory", passer.body, "NONE")], RELEASE, NOW)
    assert "rc_ok" not in passer_read.team and passer_read.blocking == ()


def _block_lines(body: str, opener: str) -> tuple[str, list[str], str]:
    head, rest = body.split(opener + "\n", 1)
    lines = rest.rstrip("\n").split("\n")
    return head + opener + "\n", lines[:-1], "\n" + lines[-1] + "\n"


def _truncated(body: str, opener: str) -> str:
    head, lines, tail = _block_lines(body, opener)
    return head + "\n".join(lines)[:-10] + tail


def _junk_line(body: str, opener: str) -> str:
    head, lines, tail = _block_lines(body, opener)
    return head + "\n".join([*lines, "not base64 at all!"]) + tail


def _not_json(body: str, opener: str) -> str:
    head, _, tail = _block_lines(body, opener)
    return head + base64.b64encode(b"{not json").decode() + tail


TAMPERS = {
    "truncated block": _truncated,
    "not base64": lambda b, o: b.replace(o + "\n", o + "\n***"),
    "not JSON": _not_json,
    "one junk line": _junk_line,
    "block missing": lambda b, o: b.split(o, 1)[0],
    "text added before": lambda b, o: "LGTM from me too\n" + b,
    "text added after": lambda b, o: b + "\nthanks!",
    "a second block before the marker": lambda b, o: f"{o}\ne30=\n-->\n{b}",
    "visible part edited": lambda b, o: b.replace("| ✅ done |", "| ⬜ open |", 1).replace(
        "signed at", "approved at", 1
    ),
}


@pytest.mark.parametrize("tamper", TAMPERS, ids=list(TAMPERS))
def test_a_tampered_sign_off_comment_is_blocking_and_none_of_it_is_counted(tamper):
    tampered = github_comment(2, "bob", TAMPERS[tamper](render_record(RELEASE, "bob", BOB), DATA_OPEN))
    tracker = [record(1, "alice", ALICE), tampered, status_comment(3, "alice", {**ALICE, **BOB})]
    read = read_status(tracker, RELEASE, NOW)
    assert read.team == ALICE
    assert len(read.blocking) == 1 and "the sign-off comment 2 of @bob" in read.blocking[0]


@pytest.mark.parametrize("tamper", TAMPERS, ids=list(TAMPERS))
def test_a_tampered_status_comment_is_still_the_one_status_comment_and_is_blocking(tamper):
    body = render_status(published_status(status_input(), {**ALICE, **BOB}, by="alice", at=NOW), None)
    tracker = [
        record(1, "alice", ALICE),
        record(2, "bob", BOB),
        github_comment(3, "alice", TAMPERS[tamper](body, BLOCK_OPEN)),
    ]
    read = read_status(tracker, RELEASE, NOW)
    assert read.comment_id == 3, "found by its marker anywhere: a publish edits it, never posts a second"
    assert read.team == {**ALICE, **BOB}, "the sign-offs come from the records, whatever the status comment says"
    assert read.blocking and all(b.startswith("the status comment 3") for b in read.blocking)


def test_the_last_good_copies_round_trip_through_the_state_file_and_drop_entries_claiming_someone_else():
    copies = {"alice": ALICE, "bob": BOB}
    assert team_from_json(team_to_json(copies)) == copies
    assert team_from_json(team_to_json({"alice": {**ALICE, **BOB}})) == {"alice": ALICE}
    assert team_from_json("not json") == {} and team_from_json(None) == {}
