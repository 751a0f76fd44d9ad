"""Requests read from prose in the pick analysis: flagged until a release manager confirms the
reading (kept in the state file), their roles settled by the PRs' base branches once loaded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import IssueComment, PullRequest, PullState
from cockpit.domain.picks import PickFlag, PickStatus, PRRef, ReadingConfirmation
from cockpit.services.pick_parser import parse_request
from cockpit.services.pick_readings import confirmations_for, reading_key, reading_of
from cockpit.services.pick_rows import analyze_picks
from cockpit.services.picks import mentioned_pull_numbers, needed_pull_numbers, picks_gate
from cockpit.state.store import StateStore

REPO = "acme/torchlet"
BRANCH = "release/2.5"
NOW = datetime(2026, 10, 20, 12, 0, tzinfo=UTC)
ASK = "Could #22909 be accepted in v2.5.0 as well? It only touches the docs build."


def pr(number, state=PullState.MERGED, base="main"):
    return PullRequest(number, f"Fix {number}", state, base, f"b-{number}", f"https://x/pull/{number}", repository=REPO)


def said(body, comment_id=7):
    return parse_request(
        IssueComment(id=comment_id, author="dev", body=body, created_at=NOW - timedelta(days=1)), repository=REPO
    )


def rows_for(requests, pulls, confirmations=None):
    rows, _ = analyze_picks(
        requests,
        pulls={p.number: p for p in pulls},
        release_branch=BRANCH,
        repository=REPO,
        now=NOW,
        trunk_branch="main",
        confirmations=confirmations,
    )
    return rows


def test_a_prose_request_whose_pr_targets_main_is_a_trunk_pr_read_from_prose_until_confirmed():
    (row,) = rows_for([said(ASK)], [pr(22909)])
    assert row.request.trunk_prs == (PRRef(22909),) and row.request.mentioned_prs == ()
    assert row.status is PickStatus.NO_RELEASE_PR
    assert PickFlag.READ_FROM_PROSE in row.flags
    assert row.notes[0].startswith("read from prose (trunk #22909)")
    assert "trunk #22909: no release pr, read from prose" in picks_gate([row], ()).details


def test_a_confirmed_reading_takes_the_flag_away_and_says_who_confirmed_it():
    request = said(ASK)
    confirmed = {7: ReadingConfirmation("rm", "2026-10-20T11:00:00Z", "trunk #22909")}
    (row,) = rows_for([request], [pr(22909)], confirmed)
    assert PickFlag.READ_FROM_PROSE not in row.flags
    assert row.notes[0] == "read from prose; rm confirmed this reading (2026-10-20T11:00:00Z)"


def test_a_confirmation_of_another_reading_holds_no_longer_and_both_readings_are_shown():
    confirmed = {7: ReadingConfirmation("rm", "2026-10-20T11:00:00Z", "mentioned #22909")}
    (row,) = rows_for([said(ASK)], [pr(22909)], confirmed)
    assert PickFlag.READ_FROM_PROSE in row.flags
    assert any("rm confirmed was 'mentioned #22909'; it now reads 'trunk #22909'" in n for n in row.notes)


def test_a_prose_request_whose_pr_targets_the_release_branch_is_its_release_pr():
    (row,) = rows_for([said(ASK)], [pr(22909, PullState.OPEN, BRANCH)])
    assert (
        row.request.release_prs
        == (
            PRRef(
                22909,
            ),
        )
        and row.status is PickStatus.UNDER_REVIEW
    )
    assert any("#22909 targets release/2.5, so it is taken as a release PR" in n for n in row.notes)


def test_a_free_form_trunk_pr_that_targets_the_release_branch_is_corrected_to_the_release_pr():
    (row,) = rows_for([said("main PR: #8301\nCat: bug fix")], [pr(8301, PullState.OPEN, BRANCH)])
    assert row.request.trunk_prs == () and row.request.release_prs == (PRRef(8301),)
    assert PickFlag.READ_FROM_PROSE not in row.flags  # a label said it, not a sentence


def test_a_prose_request_whose_pr_is_not_loaded_stays_free_form_and_flagged():
    (row,) = rows_for([said(ASK)], [])
    assert row.status is PickStatus.FREE_FORM
    assert set(row.flags) == {PickFlag.FREE_FORM, PickFlag.READ_FROM_PROSE}
    assert picks_gate([row], ()).status is GateStatus.RED


def test_the_loader_reads_mentioned_prs_one_by_one_for_their_base_branch():
    requests = [said(ASK), said("main PR: #8301\nrelease PR: #8315", 8)]
    assert needed_pull_numbers(requests, REPO) == {22909, 8301, 8315}
    assert mentioned_pull_numbers(requests, REPO) == {22909}


def test_a_confirmation_is_kept_in_the_state_file_and_read_back_for_its_repository(tmp_path):
    store = StateStore(tmp_path / "state.toml", clock=lambda: NOW)
    request = said(ASK)
    key = reading_key(REPO, request.comment_id)
    store.confirm_pick_reading(key, reading=reading_of(request, REPO), who="rm")
    store.confirm_pick_reading(reading_key("acme/vision", 7), reading="trunk #1", who="rm")
    found = confirmations_for(StateStore(store.path, read_only=True).pick_readings(), REPO)
    assert found == {7: ReadingConfirmation("rm", "2026-10-20T12:00:00Z", "mentioned #22909")}
    store.confirm_pick_reading(key, reading=None, who="rm")
    assert confirmations_for(store.pick_readings(), REPO) == {}


def test_a_hand_edited_confirmation_with_wrong_keys_is_not_counted(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(
        'schema = 1\n[pick_readings."acme/torchlet#comment-7"]\nconfirmed = "yes"\nreading = "trunk #1"\n'
        '[pick_readings."acme/torchlet#comment-8"]\nconfirmed = true\n'
        '[pick_readings."acme/torchlet#comment-9"]\nconfirmed = true\nreading = "trunk #9"\nwho = "\\u001b[2Jrm"\n',
        encoding="utf-8",
    )
    found = confirmations_for(StateStore(path, read_only=True).pick_readings(), REPO)
    assert list(found) == [9] and "\x1b" not in found[9].who
