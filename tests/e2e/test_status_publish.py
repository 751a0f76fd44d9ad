"""Two release managers share one picture through the status comment on the tracker: what one signs
and publishes, the other's cockpit shows after a refresh; publishing at the same time loses no
signature; a crash after the POST never makes a second comment; a viewer reads it with GETs only."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import replace

import pytest

import cockpit.actions.publish as publishing
from cockpit.actions.publish import ACTION_ID, publish
from cockpit.bootstrap import build_backend
from cockpit.cli.main import main
from cockpit.domain.checklist import StepKind
from cockpit.domain.status import StatusInput, StatusPublication
from cockpit.errors import GitHubError
from cockpit.sandbox.world_tracker import TEAM_STEP
from cockpit.services.status_block import decode_block
from cockpit.services.status_comment import is_status_comment, marker

TOKENS = {"tok-alice-0123456789abcdef": "alice", "tok-bob-0123456789abcdef": "bob"}
ALICE, BOB = list(TOKENS)


@pytest.fixture
def team(sandbox, tmp_path, monkeypatch):
    """The sandbox's GitHub knowing two managers by their tokens; each opens a cockpit with its own state file."""
    sandbox.github.users = dict(TOKENS)
    monkeypatch.setattr(publishing, "SETTLE_S", 0.02)  # the emulator answers in milliseconds
    opened = []

    def open_cockpit(name: str, token: str | None, **kwargs):
        config = replace(sandbox.config, state_path=tmp_path / f"{name}.state.toml")
        backend = build_backend(config, token=token, **kwargs)
        opened.append(backend)
        return backend

    yield open_cockpit
    for backend in opened:
        backend.state.close()


def picture(backend) -> StatusPublication:
    """What the overview publishes: the gates it has (none loaded here), the checklist, the verdict."""
    rel = backend.config.release
    checklist = backend.load_checklist({})
    return StatusPublication(
        StatusInput(rel.version, rel.repository, rel.branch, {}, checklist, backend.go_no_go({}, checklist))
    )


def manual_steps(backend) -> list[str]:
    """The manual steps nobody has signed yet (the world's second manager signed ``TEAM_STEP`` on the tracker)."""
    return [s.id for s in backend.checklist_steps() if s.kind is StepKind.MANUAL and s.id != TEAM_STEP]


def status_comments(sandbox) -> list:
    world = sandbox.world
    with sandbox.github.lock:
        comments = sandbox.github.repos[world.repository.lower()].comments_on(world.tracker_issue)
        return [c for c in comments if is_status_comment(c.body, world.version)]


def published(sandbox):
    (comment,) = status_comments(sandbox)
    status, problems = decode_block(comment.body, release=sandbox.world.version)
    assert status is not None, problems
    return comment, status


def writes(sandbox) -> list[tuple[str, str]]:
    return [(e["method"], e["path"]) for e in sandbox.github.log() if e["method"] not in ("GET", "HEAD")]


def test_manager_b_sees_the_two_steps_manager_a_signed_after_one_refresh(sandbox, team):
    alice = team("alice", ALICE)
    first, second = manual_steps(alice)[:2]
    for step in (first, second):
        assert alice.actions.run("checklist.toggle", step, confirmed=True).ok
    result = alice.actions.run(ACTION_ID, picture(alice), confirmed=True)
    assert result.ok and result.message.startswith("status posted:"), result.message

    comment, status = published(sandbox)
    assert comment.author == "alice" and "Published by `@alice`" in comment.body
    assert {k: (s.done, s.who) for k, s in status.signoffs.items()} == {
        first: (True, "alice"),
        second: (True, "alice"),
        TEAM_STEP: (True, "ktanaka"),
    }, "a shared sign-off carries the GitHub login that published it, not the clone's git name"

    bob = team("bob", BOB)
    before = {v.step.id: v for v in bob.load_checklist({}).steps}
    assert not before[first].done, "nothing is read before the first load of the tracker"
    bob.load_picks()  # one refresh: the cherry-pick load reads the tracker's comments
    after = {v.step.id: v for v in bob.load_checklist({}).steps}
    assert after[first].done and after[first].signoff.who == "alice"
    assert after[second].done and after[second].signoff.who == "alice"
    assert bob.state.signoffs() == {}, "shown, not copied into bob's own state file"
    picks = bob.load_picks()
    assert all("release-cockpit" not in r.request.body for r in picks.rows), "the status comment is no pick request"


def test_bob_unticks_a_step_alice_signed_and_the_next_publish_carries_it(sandbox, team):
    alice, bob = team("alice", ALICE), team("bob", BOB)
    step = manual_steps(alice)[0]
    alice.actions.run("checklist.toggle", step, confirmed=True)
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok
    bob.load_picks()
    time.sleep(1.1)  # sign-off times are in seconds: bob's untick comes later than alice's tick
    assert "reopened" in bob.actions.run("checklist.toggle", step, confirmed=True).message
    result = bob.actions.run(ACTION_ID, picture(bob), confirmed=True)
    assert result.ok and "edited" in result.message, result.message
    _, status = published(sandbox)
    assert (status.signoffs[step].done, status.signoffs[step].who) == (False, "bob")
    assert "conflict" not in result.message

    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok  # alice changed nothing since
    _, status = published(sandbox)
    assert not status.signoffs[step].done, "alice's unchanged old tick does not undo bob's later untick"


def record_status_writes(sandbox) -> list[tuple[int, set[str]]]:
    """(comment id, the steps it left signed) of each status comment write, in the order the emulator
    applied them."""
    emulator, release = sandbox.github, sandbox.world.version
    serve, written = emulator.serve, []

    def recording(request):
        with emulator.lock:  # one request at a time, so the list is in the order GitHub applied them
            response = serve(request)
            if request.method in ("POST", "PATCH") and response.status in (200, 201):
                answer = json.loads(response.body)
                status, _ = decode_block(answer["body"], release=release)
                if status is not None:
                    written.append((answer["id"], {k for k, s in status.signoffs.items() if s.done}))
            return response

    emulator.serve = recording
    return written


def test_two_managers_publishing_fifty_times_at_once_lose_no_signature(sandbox, team, monkeypatch):
    monkeypatch.setattr(publishing, "SETTLE_S", 0.05)
    written = record_status_writes(sandbox)
    managers = [team("alice", ALICE), team("bob", BOB)]
    steps = manual_steps(managers[0])
    signed: dict[str, set[str]] = {"alice": set(), "bob": set()}
    confirmed: list[tuple[int, str, frozenset[str]]] = []  # (writes so far, who, what their publish had made sure of)
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def work(backend, name: str, seed: int) -> None:
        rng = random.Random(seed)
        try:
            start.wait()
            for _ in range(50):
                step = rng.choice(steps)
                backend.state.set_signoff(step, done=True, who=name)
                signed[name].add(step)
                for again in range(3):  # as its message says: try again (two cockpits in a tight loop on a busy
                    try:  # machine can each change the comment under the other's eight attempts)
                        publish(backend, picture(backend))
                        break
                    except GitHubError as exc:
                        if "kept changing" not in str(exc) or again == 2:
                            raise
                with sandbox.github.lock:
                    confirmed.append((len(written), name, frozenset(signed[name])))
        except BaseException as exc:
            failures.append(exc)

    began = time.monotonic()
    threads = [threading.Thread(target=work, args=(m, n, s)) for m, n, s in zip(managers, signed, (1, 2), strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert failures == [] and time.monotonic() - began < 30
    comment, status = published(sandbox)  # exactly one status comment, even though both started with none
    everyone = signed["alice"] | signed["bob"]
    assert len(everyone) > 5
    assert {k for k, s in status.signoffs.items() if s.done} == everyone | {TEAM_STEP}
    for step in signed["alice"] - signed["bob"]:
        assert status.signoffs[step].who == "alice"
    for count, name, sure in confirmed:  # no later write ever dropped a signature a publish had confirmed
        for later, (comment_id, kept) in enumerate(written[count - 1 :], start=count - 1):
            if comment_id == comment.id:  # not the duplicate a cockpit posted at the same moment and deleted
                assert sure <= kept, f"write {later} dropped {sorted(sure - kept)} that {name}'s publish had confirmed"


class Crash(BaseException):
    """The process dies: nothing after this line runs."""


def crash_at_the_ledger(monkeypatch, backend) -> None:
    """The process dies when the publish writes the state file: after its comments are written."""

    def crash(*args, **kwargs):
        raise Crash

    monkeypatch.setattr(type(backend.state), "ledger_put", crash)


def test_a_crash_between_the_post_and_the_state_write_never_makes_a_second_comment(sandbox, team, monkeypatch):
    alice = team("alice", ALICE)
    alice.actions.run("checklist.toggle", manual_steps(alice)[0], confirmed=True)
    crash_at_the_ledger(monkeypatch, alice)
    with pytest.raises(Crash):
        publish(alice, picture(alice))
    monkeypatch.undo()
    assert len(status_comments(sandbox)) == 1
    alice.state.close()

    again = team("alice-restarted", ALICE)
    again.state.set_signoff(manual_steps(again)[1], done=True, who="alice")
    result = again.actions.run(ACTION_ID, picture(again), confirmed=True)
    assert result.ok and "edited" in result.message, result.message
    assert len(status_comments(sandbox)) == 1
    assert [m for m, _ in writes(sandbox)] == ["POST", "POST", "PATCH", "PATCH"], "her record and the status, edited"


def test_a_publish_killed_after_its_edit_applies_her_sign_off_next_time_without_a_conflict_with_herself(
    sandbox, team, monkeypatch
):
    alice = team("alice", ALICE)
    first, second = manual_steps(alice)[:2]
    alice.actions.run("checklist.toggle", first, confirmed=True)
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok
    time.sleep(1.1)  # a later sign-off time than the first publish's
    alice.actions.run("checklist.toggle", second, confirmed=True)
    crash_at_the_ledger(monkeypatch, alice)
    with pytest.raises(Crash):  # her record and the status were edited; the state file never heard of it
        publish(alice, picture(alice))
    monkeypatch.undo()

    result = alice.actions.run(ACTION_ID, picture(alice), confirmed=True)
    assert result.ok and "conflict" not in result.message and "changed" not in result.message, result.message
    _, status = published(sandbox)
    assert {k for k, s in status.signoffs.items() if s.done} == {first, second, TEAM_STEP}


def test_a_read_only_session_refuses_to_publish_and_sends_only_gets(sandbox, team, capsys):
    viewer = team("viewer", ALICE, read_only=True)
    result = viewer.actions.run(ACTION_ID, picture(viewer), confirmed=True)
    assert not result.ok and "read-only" in result.message
    with pytest.raises(Exception, match="read-only"):
        publish(viewer, picture(viewer))
    code = main(["publish", "--read-only", "--config", str(sandbox.config_path)])
    assert code == 1 and "read-only" in capsys.readouterr().err
    assert writes(sandbox) == [] and status_comments(sandbox) == []


def test_the_token_never_appears_in_the_comment_nor_in_the_state_file(sandbox, team):
    alice = team("alice", ALICE)
    alice.state.set_signoff(manual_steps(alice)[0], done=True, who="alice", note=f"token {ALICE}")
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok
    comment, status = published(sandbox)
    assert ALICE not in comment.body and ALICE not in str(status)
    assert ALICE not in alice.state.path.read_text()


def test_a_passer_by_comment_with_the_marker_is_not_the_teams_status(sandbox, team):
    world = sandbox.world
    with sandbox.github.lock:
        state = sandbox.github.repos[world.repository.lower()]
        forged = state.add_comment(99_000_001, world.tracker_issue, "mallory", f"{marker(world.version)}\nall signed")
        forged.association = "NONE"
    alice = team("alice", ALICE)
    result = alice.actions.run(ACTION_ID, picture(alice), confirmed=True)
    assert result.ok and "posted" in result.message and "mallory" in result.message
    assert ("PATCH", f"/repos/{world.repository}/issues/comments/99000001") not in writes(sandbox)


def test_dry_run_prints_the_markdown_and_the_diff_and_sends_nothing(sandbox, team, capsys):
    code = main(["publish", "--dry-run", "--config", str(sandbox.config_path)])
    out = capsys.readouterr().out
    assert code == 0 and "--- Markdown ---" in out and f"## Release {sandbox.world.version} status: NO-GO" in out
    assert "(then the marker and the hidden sign-off block:" in out and "<!--" not in out
    assert "(no status comment yet: this publish creates it)" in out
    assert writes(sandbox) == []


def test_anyone_with_read_access_sees_the_published_picture_and_its_age(sandbox, team, tmp_path, capsys):
    alice = team("alice", ALICE)
    alice.state.set_signoff(manual_steps(alice)[0], done=True, who="Alice Example")
    assert alice.actions.run(ACTION_ID, picture(alice), confirmed=True).ok
    rel = sandbox.config.release
    viewer_config = tmp_path / "viewer" / "cockpit.toml"
    viewer_config.parent.mkdir()
    viewer_config.write_text(
        f'[release]\nversion = "{rel.version}"\nrepository = "{rel.repository}"\ntracker_issue = {rel.tracker_issue}\n'
        f'[github]\napi_url = "{sandbox.github_url}"\nauth = "none"\n'
    )
    capsys.readouterr()
    assert main(["view", "--config", str(viewer_config)]) == 0
    out = capsys.readouterr().out
    assert f"Release {rel.version} ({rel.repository}): NO-GO" in out
    assert "published just now by alice" in out and "signed by alice" in out
    assert list((tmp_path / "viewer").iterdir()) == [viewer_config], "no state file, no lock"
    assert main(["view", "--from-tracker", "--config", str(sandbox.config_path)]) == 0
    assert [m for m, _ in writes(sandbox)] == ["POST", "POST"], "alice's sign-off comment and the status; viewers read"
