"""Killed at random in the middle of each outward action, restarted, retried once as the user would (issue 30):
the world has exactly the intended change once, the audit log has its intent and its outcome, the state file
parses. Thirty seeded kills an action, in-process (``tests/kills.py``), over the real adapters on the sandbox
GitHub and a copied clone and remote."""

from __future__ import annotations

import subprocess
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from cockpit.actions import milestone, picks, publish, rc_tag, release_merge, release_workflows
from cockpit.actions.checklist import StepRun
from cockpit.actions.dispatching import GIVE_UP_S
from cockpit.bootstrap import build_backend
from cockpit.domain.status import StatusInput, StatusPublication
from cockpit.services.dispatch_form import StartRequest
from cockpit.services.status_block import decode_block
from cockpit.services.status_comment import is_status_comment
from tests.kills import KILLS, Session, kill_points, kill_then_retry, open_session, told_done

pytestmark = pytest.mark.slow


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def base(sandbox, world_clone_copy, tmp_path):
    """The real backend's adapters on the sandbox and on a private copy of the clone and its remote."""
    clone = next(p for p in world_clone_copy.iterdir() if p.is_dir() and (p / ".git").is_dir())
    remote = next(p for p in world_clone_copy.iterdir() if p.name.endswith(".git"))
    git(clone, "remote", "set-url", "origin", str(remote))
    config = replace(sandbox.config, git=replace(sandbox.config.git, clone=clone), state_path=tmp_path / "base.toml")
    backend = build_backend(config)
    yield backend
    backend.state.close()


def count_points(base, path: Path, modules, act) -> int:
    """How many kill points one whole run of ``act`` passes (on a target of its own)."""
    session = open_session(base, path, modules)
    try:
        act(session)
    finally:
        session.store.close()
    return session.switch.passed


def ran(result) -> None:
    assert result.ok, result.message


def landed(wheres: list[str], *points: str) -> None:
    """The kills landed on the points that matter (before and after the request that changes the world)."""
    assert len(wheres) == KILLS
    missing = set(points) - set(wheres)
    assert not missing, f"no kill landed {sorted(missing)}; landed: {sorted(set(wheres))}"


# --- comment -------------------------------------------------------------------------------------------


def test_a_reply_killed_anywhere_is_posted_exactly_once(sandbox, base, tmp_path):
    tracker = base.config.release.tracker_issue
    state = sandbox.github.repos[sandbox.world.repository.lower()]

    def text(n: int) -> str:
        return f"@someone thanks, merged into the branch ({n})"

    def act(n: int):
        return lambda s: ran(s.actions.run("picks.reply", text(n), confirmed=True))

    def retry(n: int):
        return lambda s, told: act(n)(s) or True  # told or not, the user presses r again: the key keeps it one

    points = kill_points(count_points(base, tmp_path / "count.toml", [picks], act(-1)), seed=301)
    wheres = []
    for n, at in enumerate(points):
        out = kill_then_retry(base, tmp_path / f"c{n}.toml", [picks], "picks.reply", act(n), at=at, retry=retry(n))
        bodies = [c.body for c in state.comments_on(tracker) if c.body.startswith(text(n) + "\n")]
        assert len(bodies) == 1, (at, out.where, bodies)
        if out.where == "after github.create_comment":
            assert told_done(out.told), out.told
        wheres.append(out.where)
    landed(wheres, "before github.create_comment", "after github.create_comment")


# --- de-milestone --------------------------------------------------------------------------------------


def test_an_item_taken_out_of_the_milestone_is_never_left_without_its_audit_entry(sandbox, base, tmp_path):
    """Issue 30: 38 of 40 kills left an item out of the milestone on GitHub and nothing in the audit log."""
    base.load_milestone()
    ms, items = base.shared.milestone.last[0], list(base.shared.milestone.last[1])
    assert len(items) > KILLS + 1
    state = sandbox.github.repos[sandbox.world.repository.lower()]

    def in_milestone(number: int) -> bool:
        return state.items[number].milestone == ms.number

    def act(item):
        return lambda s: ran(s.actions.run("milestone.remove", item, confirmed=True))

    def retry(item):
        def again(s: Session, told: list[str]) -> bool:
            if told_done(told) or not in_milestone(item.number):  # the pane no longer lists it
                return False
            act(item)(s)
            return True

        return again

    points = kill_points(count_points(base, tmp_path / "count.toml", [milestone], act(items[-1])), seed=302)
    wheres = []
    for n, (at, item) in enumerate(zip(points, items, strict=False)):
        out = kill_then_retry(
            base, tmp_path / f"m{n}.toml", [milestone], "milestone.remove", act(item), at=at, retry=retry(item)
        )
        assert not in_milestone(item.number), (at, out.where)
        if out.told:
            assert f"#{item.number}" in out.told[0] and "looked:" in out.told[0]
        if out.where == "after github.set_milestone":
            assert told_done(out.told) and not out.retried, out.told  # told, and not removed a second time
        wheres.append(out.where)
    landed(wheres, "before github.set_milestone", "after github.set_milestone")


# --- RC tag and its push -------------------------------------------------------------------------------


def remote_tags(remote: Path) -> dict[str, str]:
    """Tag -> commit in the bare remote (annotated tags peeled), read there: cheaper than ``ls-remote``."""
    out = git(remote, "for-each-ref", "--format=%(refname:short) %(*objectname) %(objectname)", "refs/tags")
    return {name: (peeled or sha) for name, peeled, sha in (line.split(" ") for line in out.splitlines())}


def forget_tags(clone: Path, remote: Path, names) -> None:
    for name in names:
        git(remote, "update-ref", "-d", f"refs/tags/{name}")
        git(clone, "update-ref", "-d", f"refs/tags/{name}")


@pytest.mark.parametrize("start", ["tag", "push"])
def test_an_rc_tagging_killed_anywhere_makes_one_tag_pushed_and_the_step_signed(base, tmp_path, start):
    """Issue 30: a kill while tagging left two RC tags on one commit, or a local tag never pushed, and the step
    unsigned although the remote had the tag. ``push``: the kill lands in a retry that pushes a tag the clone
    already has (the cockpit was killed after ``git tag``)."""
    clone = base.config.git.clone
    remote = Path(git(clone, "remote", "get-url", "origin").strip())
    head = git(clone, "rev-parse", "origin/release/2.5").strip()
    before = remote_tags(remote)
    step = next(s for s in base.checklist_steps() if s.id == "tag_final_rc")
    new = "v2.5.0-rc3"
    assert new not in before

    def setup() -> None:
        if start == "push":
            git(clone, "tag", "-a", new, "origin/release/2.5", "-m", f"acme/torchlet {new}")

    def act(s: Session) -> None:
        ran(s.actions.run("checklist.rc_tag", StepRun(step), confirmed=True))

    def retry(s: Session, told: list[str]) -> bool:
        act(s)  # the step is not signed: the user tags again, and the tag on the remote is adopted
        return True

    setup()
    points = kill_points(
        count_points(base, tmp_path / "count.toml", [rc_tag], act), seed=303 if start == "tag" else 304
    )
    forget_tags(clone, remote, [new])
    wheres = []
    for n, at in enumerate(points):
        setup()
        path = tmp_path / f"t{n}.toml"
        out = kill_then_retry(base, path, [rc_tag], "checklist.rc_tag", act, at=at, retry=retry)
        after = remote_tags(remote)
        assert {t: after[t] for t in after.keys() - before.keys()} == {new: head}, (at, out.where)
        assert not (clone / ".git" / "refs" / "tags" / "v2.5.0-rc4").exists(), (at, out.where)  # made as a loose ref
        signed = signoffs_in(path)["tag_final_rc"]
        assert signed["done"] is True and new in signed["note"], (at, out.where)
        if out.where == "after git.push":
            assert told_done(out.told), out.told  # the remote had the tag: said so, and the retry signed it
        forget_tags(clone, remote, [new])
        wheres.append(out.where)
    landed(wheres, "before git.push", "after git.push", *(["after git.tag"] if start == "tag" else []))


def signoffs_in(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["signoffs"]


# --- merge ---------------------------------------------------------------------------------------------


def test_a_merge_killed_anywhere_merges_the_release_pr_once(sandbox, base, tmp_path):
    base.load_picks()
    number = sandbox.world.truth["merges"]["ready"]
    row = next(r for r in base.shared.picks.rows if [p.number for p in r.request.release_prs] == [number])
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    pull = state.pulls[number]
    untouched = (pull.state, pull.merged, pull.merged_at, pull.closed_at, pull.merge_commit_sha, pull.updated_at)
    branch_head = state.repo.branches[pull.base]

    def reopen() -> None:
        with sandbox.github.lock:
            merged = pull.merge_commit_sha
            pull.state, pull.merged, pull.merged_at, pull.closed_at, pull.merge_commit_sha, pull.updated_at = untouched
            state.pull_by_merge_sha.pop(merged, None)
            state.repo.branches[pull.base] = branch_head

    def merges() -> int:
        return sum(1 for e in sandbox.github.log() if e["method"] == "PUT" and e["path"].endswith(f"/{number}/merge"))

    def act(s: Session) -> None:
        with s.switch.paused():
            s.actions.dry_run("picks.merge", row)  # the preview the confirmation shows
        ran(s.actions.run("picks.merge", row, confirmed=True))

    def retry(s: Session, told: list[str]) -> bool:
        s.actions.dry_run("picks.merge", row)
        if s.actions.refusal("picks.merge", row) is not None:  # merged already: not offered again
            assert pull.merged
            return False
        act(s)
        return True

    points = kill_points(count_points(base, tmp_path / "count.toml", [release_merge], act), seed=305)
    reopen()
    wheres = []
    for n, at in enumerate(points):
        mark = merges()
        out = kill_then_retry(base, tmp_path / f"g{n}.toml", [release_merge], "picks.merge", act, at=at, retry=retry)
        assert pull.merged and merges() - mark == 1, (at, out.where, merges() - mark)
        if out.where == "after github.merge_pull":
            assert told_done(out.told) and not out.retried, out.told
        reopen()
        wheres.append(out.where)
    landed(wheres, "before github.merge_pull", "after github.merge_pull")


# --- dispatch ------------------------------------------------------------------------------------------


def test_a_dispatch_killed_anywhere_makes_one_run(sandbox, base, tmp_path):
    step = next(s for s in base.checklist_steps() if s.id == "stage_pypi_run")
    path = tmp_path / "dispatch.toml"  # the journal goes from one kill to the next: each run is owned by its dispatch

    def dispatches() -> int:
        return sum(1 for e in sandbox.github.log() if e["method"] == "POST" and e["path"].endswith("/dispatches"))

    def act(s: Session) -> None:
        with s.switch.paused():  # the form the user opened
            form = release_workflows.start_form(s.ports, step)
        ran(s.actions.run("workflow.dry_run", StartRequest(form, form.values, dry_run=True), confirmed=True))

    def retry(s: Session, told: list[str]) -> bool:
        if told_done(told):  # told the run it made: not started again
            return False
        act(s)
        return True

    points = kill_points(count_points(base, path, [release_workflows], act), seed=306)
    wheres = []
    for n, at in enumerate(points):
        mark = dispatches()
        path = carry_journal(path, tmp_path / f"d{n}.toml")
        out = kill_then_retry(
            base,
            path,
            [release_workflows],
            "workflow.dry_run",
            act,
            at=at,
            retry=retry,
            later=GIVE_UP_S + 60.0,  # the user comes back after a dispatch with no run is given up
        )
        assert dispatches() - mark == 1, (at, out.where, out.told)
        if out.where in ("after actions.dispatch", "before state.complete_dispatch"):
            assert told_done(out.told) and not out.retried, out.told  # its run found: not started again
        wheres.append(out.where)
    landed(wheres, "before actions.dispatch", "after actions.dispatch", "after state.journal_dispatch")


def carry_journal(old: Path, new: Path) -> Path:
    """A state file holding only ``old``'s dispatch journal (the audit log of earlier kills is not needed)."""
    import tomli_w

    data = tomllib.loads(old.read_text(encoding="utf-8"))
    new.write_text(tomli_w.dumps({"schema": data["schema"], "dispatches": data.get("dispatches", {})}), "utf-8")
    return new


# --- publish -------------------------------------------------------------------------------------------


def test_a_publish_killed_anywhere_leaves_one_status_comment_with_the_sign_off(sandbox, base, tmp_path, monkeypatch):
    monkeypatch.setattr(publish, "SETTLE_S", 0.0)  # the emulator answers in milliseconds
    rel = base.config.release
    checklist = base.load_checklist({})
    picture = StatusPublication(
        StatusInput(rel.version, rel.repository, rel.branch, {}, checklist, base.go_no_go({}, checklist))
    )
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    manual = next(s.id for s in base.checklist_steps() if s.kind.value == "manual")

    def status() -> list:
        return [c for c in state.comments_on(rel.tracker_issue) if is_status_comment(c.body, rel.version)]

    def act(s: Session) -> None:
        s.store.set_signoff(manual, done=True, who="alice", note="checked")
        ran(s.actions.run(publish.ACTION_ID, picture, confirmed=True))

    def retry(s: Session, told: list[str]) -> bool:
        ran(s.actions.run(publish.ACTION_ID, picture, confirmed=True))
        return True

    points = kill_points(count_points(base, tmp_path / "count.toml", [publish], act), seed=307)
    wheres = []
    for n, at in enumerate(points):
        out = kill_then_retry(base, tmp_path / f"p{n}.toml", [publish], publish.ACTION_ID, act, at=at, retry=retry)
        (comment,) = status()
        shown, problems = decode_block(comment.body, release=rel.version)
        assert shown is not None and shown.signoffs[manual].done, (at, out.where, problems)
        wheres.append(out.where)
    landed(wheres, "before github.edit_comment", "after github.edit_comment", "before state.ledger_put")
