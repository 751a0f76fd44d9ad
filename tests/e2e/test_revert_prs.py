"""Missing reverts become PRs (#29 section 2): the preview says what happens to each revert owed and sends
nothing; one confirmation pushes each pick (``-x``) to the fork and opens one PR onto the release branch,
with the tracker's request when asked; asked again, nothing is made twice; the clone is left as it was;
a read-only session refuses before anything is pushed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cockpit.cli.main import main

pytestmark = pytest.mark.slow


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture()
def release(sandbox, world_clone_copy, tmp_path):
    """A config on a private copy of the clone, with a bare fork as the remote 'fork'."""
    clone = world_clone_copy / "torchlet"
    fork = tmp_path / "fork.git"
    git(tmp_path, "init", "-q", "--bare", str(fork))
    git(clone, "remote", "add", "fork", str(fork))
    text = sandbox.config_path.read_text().replace(sandbox.world.clone_path, str(clone))
    path = tmp_path / "cockpit-fork.toml"
    path.write_text(text)
    return path, clone, fork


def pulls_onto(sandbox, branch: str):
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    return [p for p in state.pulls.values() if p.base == branch and p.head_ref.startswith("cherry-pick-revert-")]


def test_the_reverts_owed_are_previewed_then_opened_once_as_prs_from_the_fork(sandbox, release, capsys):
    path, clone, fork = release
    world = sandbox.world
    owed = {r["revert_sha"]: r for r in world.truth["reverts_owed"]}
    branch, tracker = world.release_branch, world.tracker_issue
    before = git(clone, "for-each-ref"), git(clone, "count-objects", "-v"), (clone / ".git" / "index").exists()

    assert main(["revert-prs", "--config", str(path)]) == 0
    shown = capsys.readouterr().out
    for sha, r in owed.items():
        assert f"{sha[:12]} " in shown and f"cherry-pick-revert-{r['pr']}-2.5" in shown
    assert "nothing was sent" in shown and git(fork, "for-each-ref") == "" and not pulls_onto(sandbox, branch)

    assert main(["revert-prs", "--config", str(path), "--yes", "--comment"]) == 0, capsys.readouterr().err
    assert f"opened {len(owed)} PR(s) onto {branch}" in capsys.readouterr().out
    head = git(clone, "rev-parse", f"origin/{branch}").strip()
    opened = pulls_onto(sandbox, branch)
    assert len(opened) == len(owed)
    for pull in opened:
        sha = next(s for s, r in owed.items() if f"-{r['pr']}-" in pull.head_ref)
        assert pull.title.startswith(f"[{branch}] Revert ") and sha in pull.body and "only landed on main" in pull.body
        message = git(fork, "log", "-1", "--format=%B", pull.head_ref)
        assert f"(cherry picked from commit {sha})" in message
        assert git(fork, "rev-parse", f"{pull.head_ref}~1").strip() == head
    asked = [
        c for c in sandbox.github.repos[world.repository.lower()].comments_on(tracker) if "cherry-pick revert" in c.body
    ]
    assert len(asked) == len(owed) and all("Link to release branch PR:" in c.body for c in asked)
    assert "refs/heads/release" not in git(fork, "for-each-ref")  # never the release branch

    assert main(["revert-prs", "--config", str(path), "--yes", "--comment"]) == 0
    again = capsys.readouterr().out
    assert "no PR to open" in again and again.count("reused") == len(owed)
    assert len(pulls_onto(sandbox, branch)) == len(owed)
    after = git(clone, "for-each-ref"), git(clone, "count-objects", "-v"), (clone / ".git" / "index").exists()
    assert after == before  # refs, object count, index: the clone is as it was


def test_a_read_only_session_refuses_before_anything_is_pushed(sandbox, release, capsys):
    path, _, fork = release
    assert main(["revert-prs", "--config", str(path), "--yes", "--read-only"]) == 1
    assert "read-only session" in capsys.readouterr().err
    assert git(fork, "for-each-ref") == "" and not pulls_onto(sandbox, sandbox.world.release_branch)
