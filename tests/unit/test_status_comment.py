"""The status comment a release manager publishes on the tracker: what the team reads (Markdown that
pings nobody and fits in one comment) and what the cockpits read back (a hidden block treated as
hostile input), and how two managers' sign-offs merge without losing one."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockpit.domain.github import IssueComment
from cockpit.domain.status import PublishedStep, SharedSignoff, StatusInput
from cockpit.services.markdown import GITHUB_COMMENT_LIMIT
from cockpit.services.signoff_record import render_record, team_signoffs
from cockpit.services.status_block import BLOCK_OPEN, decode_block, shown_signoff
from cockpit.services.status_comment import (
    age_text,
    changes_since,
    is_status_comment,
    marker,
    preview_diff,
    published_status,
    render_status,
    visible_part,
)
from cockpit.services.status_read import read_status, with_team_signoffs
from tests.hostile_text import MARKDOWN_ATTACKS, PAYLOAD, active_characters
from tests.unit.test_paste_ready_markdown import MADE
from tests.unit.test_report_render import picture

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def status_input(**changes) -> StatusInput:
    p = picture(**changes)
    return StatusInput(p.version, p.repository, p.branch, p.gates, p.checklist, p.verdict)


def signed(step_id: str, who: str, minute: int, *, done: bool = True, note: str = "") -> SharedSignoff:
    return SharedSignoff(step_id, done, who, f"2026-12-01T09:{minute:02d}:00Z", note)


def status(signoffs=None, **changes):
    return published_status(status_input(**changes), signoffs or {}, by="alice", at=NOW)


def test_the_comment_starts_with_its_marker_and_carries_verdict_gates_checklist_and_who_published():
    body = render_status(status({"perf": signed("perf", "Rosa Marquez", 5)}), None)
    assert body.startswith(marker("2.5.0") + "\n") and is_status_comment(body, "2.5.0")
    assert not is_status_comment(body, "2.6.0")
    assert "status: NO-GO" in body and "| RC artifacts valid | ❌ red | 1 problem: 1 missing |" in body
    assert "Published by `@alice` at 2026-12-01 10:00:00 UTC" in body
    assert re.search(
        r"\| Performance run shows no regression \| ✅ done \| Rosa Marquez \| 2026-12-01 09:05:00 \|", body
    )
    assert "first publish of this status" in body


def test_an_override_is_marked_in_the_checklist():
    override = dataclasses.replace(signed("perf", "Rosa", 5), override=True, note="perf box down, accepted")
    body = render_status(status({"perf": override}), None)
    assert re.search(r"\| Performance run shows no regression \| ✅ done ⚠️ override \| Rosa \|", body)


@pytest.mark.parametrize("shape", MARKDOWN_ATTACKS, ids=list(MARKDOWN_ATTACKS))
def test_hostile_text_in_a_summary_a_signer_or_a_note_makes_nothing_and_pings_nobody(shape):
    attack = f"Fix loader {MARKDOWN_ATTACKS[shape]} | ok |\n## owned"
    sign = SharedSignoff("perf", True, attack, "2026-12-01T09:05:00Z", attack)
    gates = picture().gates
    hostile_gate = dataclasses.replace(gates["rc_artifacts"], summary=f"1 missing: {attack}")
    body = render_status(status({"perf": sign}, gates={**gates, "rc_artifacts": hostile_gate}), None)
    shown = visible_part(body)
    assert not re.search(MADE[shape], shown), f"{shape} came through: {shown}"
    assert "\n## owned" not in shown
    rows = [line for line in shown.splitlines() if line.startswith("| Performance run")]
    assert len(rows) == 1 and rows[0].replace("\\|", "").count("|") == 6, "still five cells"
    gate_rows = [line for line in shown.splitlines() if line.startswith("| RC artifacts valid")]
    assert len(gate_rows) == 1 and gate_rows[0].replace("\\|", "").count("|") == 4, "still three cells"


def test_a_huge_picture_still_fits_in_one_github_comment_with_its_data_block_whole():
    huge = "x" * 900
    signoffs = {f"s{n}": SharedSignoff(f"s{n}", True, "Rosa", "2026-12-01T09:05:00Z", huge) for n in range(150)}
    steps = tuple(PublishedStep(f"s{n}", "Promotion", f"Step {n} " + huge[:200], True) for n in range(150))
    body = render_status(dataclasses.replace(status(signoffs), steps=steps), None)
    assert len(body.encode("utf-16-le")) // 2 <= GITHUB_COMMENT_LIMIT
    assert "… (cut)" in visible_part(body)
    decoded, problems = decode_block(body, release="2.5.0", now=NOW)
    assert decoded is not None and len(decoded.signoffs) == 150 and problems == []


def test_the_data_block_reads_back_what_was_published():
    published = status({"perf": signed("perf", "Rosa", 5, note="ran on the A100 box")})
    decoded, problems = decode_block(render_status(published, None), release="2.5.0", now=NOW)
    assert problems == [] and decoded is not None
    assert decoded.signoffs == published.signoffs and decoded.steps == published.steps
    assert [(g.name, g.status) for g in decoded.gates] == [(g.name, g.status) for g in published.gates]
    assert (decoded.published_by, decoded.published_at, decoded.go) == ("alice", "2026-12-01T10:00:00Z", False)


def block_of(data) -> str:
    raw = base64.b64encode(json.dumps(data).encode()).decode()
    return f"{marker('2.5.0')}\nhello\n{BLOCK_OPEN}\n{raw}\n-->\n"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("no block at all", "no data block"),
        (f"{BLOCK_OPEN}\n!!!notbase64!!!\n-->", "no data block"),
        (f"{BLOCK_OPEN}\nAAAA=\n-->", "not base64 of JSON"),
        (f"{BLOCK_OPEN}\n{'A' * 50_000}\n-->", "over 48,000"),
        (block_of([1, 2]), "not version 1"),
        (block_of({"v": 1, "release": "9.9.9"}), "for release '9.9.9'"),
    ],
    ids=["missing", "not base64", "not JSON", "oversized", "not a table", "another release"],
)
def test_an_unusable_block_is_ignored_with_a_message_naming_what_was_wrong(body, said):
    decoded, problems = decode_block(body, release="2.5.0", now=NOW)
    assert decoded is None and len(problems) == 1 and said in problems[0]


def test_forged_or_malformed_sign_offs_are_skipped_one_by_one_and_the_good_ones_kept():
    signoffs = {
        "perf": {"done": True, "who": "Rosa", "when": "2026-12-01T09:05:00Z"},
        "future": {"done": True, "who": "Mallory", "when": "2027-06-01T00:00:00Z"},
        "Bad Id!": {"done": True, "who": "Mallory", "when": "2026-12-01T09:05:00Z"},
        "nodone": {"done": "yes", "who": "Mallory", "when": "2026-12-01T09:05:00Z"},
        "longname": {"done": True, "who": "M" * 500, "when": "2026-12-01T09:05:00Z"},
        "badtime": {"done": True, "who": "Mallory", "when": "yesterday"},
        "escape": {"done": True, "who": "Eve" + PAYLOAD[:80], "when": "2026-12-01T09:05:00Z"},
    }
    decoded, problems = decode_block(
        block_of({"v": 1, "release": "2.5.0", "signoffs": signoffs}), release="2.5.0", now=NOW
    )
    assert decoded is not None and set(decoded.signoffs) == {"perf", "escape"}
    assert active_characters(decoded.signoffs["escape"].who) == []
    text = "\n".join(problems)
    assert "'future': dated 2027-06-01T00:00:00Z, in the future; taken for forged" in text
    assert "'Bad Id!': not a step id" in text and "'nodone': expected a table with done" in text
    assert "'longname': 'who' is not a name" in text and "'badtime': 'when' is not a UTC time" in text


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
        max_leaves=20,
    )
)
def test_any_json_in_the_block_gives_a_status_or_a_message_never_a_crash(value):
    data = {"v": 1, "release": "2.5.0", "signoffs": value, "gates": value, "steps": value, "reasons": value}
    decoded, problems = decode_block(block_of(data), release="2.5.0", now=NOW)
    assert decoded is not None or problems


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_any_text_as_a_comment_body_never_crashes_the_reader(body):
    decoded, problems = decode_block(BLOCK_OPEN + body, release="2.5.0", now=NOW)
    assert decoded is None or isinstance(problems, list)


def test_of_several_managers_entries_the_first_signature_stands_and_absence_never_unsigns():
    team = team_signoffs(
        [{"perf": signed("perf", "rosa", 7)}, {"perf": signed("perf", "bo", 3), "tag": signed("tag", "bo", 2)}]
    )
    assert team["perf"].who == "bo" and set(team) == {"perf", "tag"}


def test_an_unsign_made_later_than_the_signature_is_the_teams_word():
    unsigned = signed("perf", "bo", 9, done=False)
    assert team_signoffs([{"perf": signed("perf", "rosa", 1)}, {"perf": unsigned}])["perf"] == unsigned


def test_the_cockpit_shows_a_step_signed_by_another_manager_as_signed_by_that_person():
    from cockpit.domain.checklist import Signoff

    entries = {"perf": signed("perf", "bo", 4)}
    published = status(entries)
    comment = IssueComment(7, "bo", render_status(published, None), author_association="MEMBER", created_at=NOW)
    record = IssueComment(6, "bo", render_record("2.5.0", "bo", entries), author_association="MEMBER", created_at=NOW)
    read = read_status([comment, record], "2.5.0", NOW)
    local = {"tag_final_rc": Signoff("tag_final_rc", True, "Rosa", "2026-11-30T11:57:36Z")}
    shown = with_team_signoffs(local, read)
    assert shown["perf"].who == "bo" and shown["perf"].done and shown["tag_final_rc"].who == "Rosa"
    assert read.problems == () and read.blocking == ()


def test_a_status_comment_by_a_passer_by_is_ignored_with_a_message():
    forged = render_status(status({"perf": signed("perf", "Mallory", 4)}), None)
    comment = IssueComment(8, "mallory", forged, author_association="NONE", created_at=NOW)
    read = read_status([comment], "2.5.0", NOW)
    assert (
        read.status is None and "not count its author as a member or collaborator (NONE); ignored" in read.problems[0]
    )


def test_of_several_status_comments_the_oldest_is_read_and_the_others_named():
    body = render_status(status(), None)
    older = IssueComment(5, "bo", body, author_association="MEMBER", created_at=NOW - timedelta(hours=1))
    newer = IssueComment(9, "rosa", body, author_association="OWNER", created_at=NOW)
    read = read_status([newer, older], "2.5.0", NOW)
    assert read.comment_id == 5 and read.extra_comments == (9,) and "comment 5 (the oldest)" in read.problems[0]


def test_what_changed_since_the_last_publish_names_gate_moves_and_new_sign_offs():
    before = status()
    gates = picture().gates
    green = dataclasses.replace(gates["rc_artifacts"], status=gates["pypi_not_published"].status)
    after = published_status(
        dataclasses.replace(status_input(), gates={**gates, "rc_artifacts": green}),
        {"perf": signed("perf", "Rosa", 5)},
        by="bo",
        at=NOW,
    )
    lines = changes_since(before, after)
    assert "RC artifacts valid: red → green" in lines
    assert "signed: Performance run shows no regression by Rosa at 2026-12-01T09:05:00Z" in lines
    assert changes_since(after, after) == ["nothing changed"]


def test_the_preview_diff_compares_the_visible_text_only():
    old = render_status(status(), None)
    new = render_status(status({"perf": signed("perf", "Rosa", 5)}), None)
    diff = preview_diff(old, new)
    assert "+| Performance run shows no regression | ✅ done | Rosa" in diff and BLOCK_OPEN not in diff
    assert preview_diff(None, new).startswith("(no status comment yet")


def test_the_age_of_the_published_picture_reads_like_a_person_says_it():
    assert age_text("2026-12-01T09:48:00Z", NOW) == "12 min ago"
    assert age_text("2026-12-01T07:00:00Z", NOW) == "3 h ago" and age_text("garbage", NOW) == "at an unknown time"


def test_two_views_of_one_step_show_the_first_signature_or_else_the_latest_word():
    rosa, bo = signed("perf", "Rosa", 7), signed("perf", "Bo", 3)
    assert shown_signoff(rosa, bo) == bo
    undo = signed("perf", "Rosa", 8, done=False)
    assert shown_signoff(undo, bo) == undo
