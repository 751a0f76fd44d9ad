"""Free-form requests in the pick pane's analysis: the release manager sees the PRs they name,
with roles where the words or the PRs' own target branches tell them, and has to read the rest."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.github import IssueComment, PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickStatus, PRRef
from cockpit.domain.reports import ChecklistReport, GoNoGo, PicksReport, ReleasePicture
from cockpit.services.pick_parser import parse_request
from cockpit.services.pick_rows import analyze_picks
from cockpit.services.picks import blocking_flags, picks_gate, row_label
from cockpit.services.report_render import render_json, render_markdown

REPO = "acme/torchlet"
BRANCH = "release/2.5"
NOW = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)


def pr(number, state=PullState.MERGED, base="main"):
    return PullRequest(
        number,
        f"Fix {number}",
        state,
        base,
        f"b-{number}",
        f"https://github.com/{REPO}/pull/{number}",
        created_at=NOW - timedelta(days=1),
        repository=REPO,
    )


def said(body, comment_id=1):
    return parse_request(
        IssueComment(id=comment_id, author="dev", body=body, created_at=NOW - timedelta(days=1)), repository=REPO
    )


def rows_for(requests, pulls):
    rows, unrequested = analyze_picks(
        requests, pulls={p.number: p for p in pulls}, release_branch=BRANCH, repository=REPO, now=NOW
    )
    return rows, unrequested


def test_a_task_list_of_prs_without_roles_shows_as_free_form_and_must_be_read():
    (row,), _ = rows_for([said("- [ ] #442\n- [ ] #464")], [])
    assert row.status is PickStatus.FREE_FORM and row.flags == (PickFlag.FREE_FORM,)
    assert row.request.mentioned_prs == (PRRef(442), PRRef(464))
    assert any("mentions #442 #464" in note for note in row.notes)
    assert blocking_flags(row) == (PickFlag.FREE_FORM,) and row.pending
    gate = picks_gate((row,), ())
    assert gate.status is GateStatus.RED and "free-form #442 #464: free form" in gate.details


def test_a_mentioned_pr_onto_the_release_branch_is_taken_as_the_release_pr():
    (row,), unrequested = rows_for([said("- [ ] #442\n- [ ] #464")], [pr(442, PullState.MERGED, BRANCH)])
    assert row.status is PickStatus.ACCEPTED
    assert row.request.release_prs == (PRRef(442),) and row.request.mentioned_prs == (PRRef(464),)
    assert any("#442 targets release/2.5" in note for note in row.notes)
    assert any("mentions #464" in note for note in row.notes)
    assert unrequested == ()


def test_a_free_form_request_whose_words_give_roles_is_checked_like_a_template_one():
    request = said("main PR: #7931\ncherry-pick: #7944\nCat: bug fix")
    (row,), _ = rows_for([request], [pr(7931, PullState.OPEN), pr(7944, PullState.OPEN, BRANCH)])
    assert row.status is PickStatus.UNDER_REVIEW and PickFlag.TRUNK_NOT_MERGED in row.flags
    assert row.notes[0].startswith("free-form request: roles read from its words")
    assert row_label(row) == "#7944"


def test_prose_asking_to_pick_a_main_pr_has_no_release_pr_yet():
    (row,), _ = rows_for([said("We want to cherrypick https://github.com/acme/torchlet/pull/7990")], [pr(7990)])
    assert row.status is PickStatus.NO_RELEASE_PR and row.request.trunk_prs == (PRRef(7990),)


def test_a_second_free_form_ask_for_the_same_main_pr_is_a_duplicate():
    first = said("main PR: #7931\ncherry-pick: #7944", 1)
    again = said("Please pick #7931 from main", 2)
    rows, _ = rows_for([first, again], [pr(7931), pr(7944, PullState.OPEN, BRANCH)])
    assert PickFlag.DUPLICATE in rows[1].flags


def test_a_question_or_a_quoted_template_naming_a_pr_does_not_block_the_gate():
    question = said("@lena can you open the release PR for https://github.com/acme/torchlet/pull/153120?", 1)
    quoted = said(
        "> Link to landed trunk PR (if applicable):\n> * https://github.com/acme/torchlet/pull/5\n\nmerged, thanks!", 2
    )
    rows, _ = rows_for([question, quoted], [])
    assert [r.status for r in rows] == [PickStatus.UNPARSED, PickStatus.UNPARSED]
    assert not any(blocking_flags(r) for r in rows)
    assert all(r.notes == ("a reply, question, quoted template or bot message: not a request",) for r in rows)
    assert picks_gate(rows, ()).status is GateStatus.GREEN


def test_the_report_names_a_free_form_request_and_the_prs_it_mentions():
    rows, unrequested = rows_for([said("- [ ] #442\n- [ ] #464")], [])
    picks = PicksReport(900, "Tracker", rows, unrequested, picks_gate(rows, unrequested))
    picture = ReleasePicture(
        version="2.5.0",
        repository=REPO,
        branch=BRANCH,
        gates={"picks_clear": picks.gate},
        checklist=ChecklistReport((), Gate("checklist", "Checklist", GateStatus.GREEN, "")),
        verdict=GoNoGo(False, (picks.gate,)),
        picks=picks,
    )
    line = next(x for x in render_markdown(picture).splitlines() if "#442" in x)
    assert "free_form" in line and line.endswith("mentions #442, #464")
    (row,) = json.loads(render_json(picture))["picks"]["rows"]
    assert row["status"] == "free_form" and row["request"]["mentioned_prs"] == [
        {"number": 442, "repository": ""},
        {"number": 464, "repository": ""},
    ]
