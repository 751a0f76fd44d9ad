"""Never drop what cannot be read (issue 30): a publish that finds a sign-off comment or the status comment
unreadable or edited by hand stops before it writes anything, saying what and where; the last good copy
of each person's sign-offs stays in the state file; republishing from what is known is the user's
explicit choice, and then nobody's sign-off is lost and there is still one status comment."""

from __future__ import annotations

from dataclasses import replace

from cockpit.actions.publish import ACTION_ID
from cockpit.sandbox.world_tracker import TEAM_STEP
from cockpit.services.signoff_record import DATA_OPEN, is_record
from tests.e2e.test_status_publish import ALICE, BOB, manual_steps, picture, published, status_comments, team, writes

__all__ = ["team"]


def tracker(sandbox):
    world = sandbox.world
    return sandbox.github.repos[world.repository.lower()].comments_on(world.tracker_issue)


def record_of(sandbox, login: str):
    (found,) = [c for c in tracker(sandbox) if c.author == login and is_record(c.body, sandbox.world.version)]
    return found


def two_managers_signed(sandbox, team):
    alice, bob = team("alice", ALICE), team("bob", BOB)
    first, second = manual_steps(alice)[:2]
    assert alice.actions.run("checklist.toggle", first, confirmed=True).ok
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok
    assert bob.actions.run("checklist.toggle", second, confirmed=True).ok
    assert bob.actions.run(ACTION_ID, picture(bob), confirmed=True).ok
    return alice, bob, first, second


def test_an_unreadable_sign_off_comment_stops_the_publish_and_the_last_good_copy_republishes_it(sandbox, team):
    alice, _bob, first, second = two_managers_signed(sandbox, team)
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok  # alice now knows bob's record
    with sandbox.github.lock:  # someone cuts the end of bob's data block
        bobs = record_of(sandbox, "bob")
        bobs.body = bobs.body.split(DATA_OPEN, 1)[0] + DATA_OPEN + "\neyJ2IjoxLCJyZWxl\n-->\n"
    before = writes(sandbox)
    result = alice.actions.run(ACTION_ID, picture(alice), confirmed=True)
    assert not result.ok and "stopped before writing anything" in result.message
    assert f"the sign-off comment {bobs.id} of @bob" in result.message and "--replace-unreadable" in result.message
    assert writes(sandbox) == before, "nothing was written to GitHub"
    assert "bob" in alice.state.path.read_text() and second in alice.state.path.read_text(), "bob's copy is kept"

    repaired = alice.actions.run(ACTION_ID, replace(picture(alice), repair=True), confirmed=True)
    assert repaired.ok and "@bob's sign-offs from the last good copy" in repaired.message, repaired.message
    _, status = published(sandbox)
    assert {k: (s.done, s.who) for k, s in status.signoffs.items()} == {
        first: (True, "alice"),
        second: (True, "bob"),
        TEAM_STEP: (True, "ktanaka"),
    }
    assert len(status_comments(sandbox)) == 1


def test_text_added_before_the_status_marker_stops_the_publish_and_the_repair_edits_the_same_comment(sandbox, team):
    _alice, bob, first, second = two_managers_signed(sandbox, team)
    with sandbox.github.lock:
        (status_comment,) = status_comments(sandbox)
        status_comment.body = "Looks good to me!\n" + status_comment.body
    result = bob.actions.run(ACTION_ID, picture(bob), confirmed=True)
    assert not result.ok and f"the status comment {status_comment.id} has text before its marker" in result.message
    assert bob.actions.run(ACTION_ID, replace(picture(bob), repair=True), confirmed=True).ok
    (again,) = status_comments(sandbox)
    assert again.id == status_comment.id and not again.body.startswith("Looks good")
    _, status = published(sandbox)
    assert {k for k, s in status.signoffs.items() if s.done} == {first, second, TEAM_STEP}


def test_her_own_sign_off_comment_changed_by_someone_else_stops_her_publish(sandbox, team):
    alice, _bob, first, _second = two_managers_signed(sandbox, team)
    with sandbox.github.lock:  # a maintainer rewrites alice's record as a cockpit would, unsigning her step
        alices = record_of(sandbox, "alice")
        from cockpit.domain.status import SharedSignoff
        from cockpit.services.signoff_record import render_record

        unsigned = SharedSignoff(first, False, "alice", "2026-01-01T00:00:00Z")
        alices.body = render_record(sandbox.world.version, "alice", {first: unsigned})
    result = alice.actions.run(ACTION_ID, picture(alice), confirmed=True)
    assert not result.ok and f"your sign-off comment {alices.id} was changed since this cockpit" in result.message
