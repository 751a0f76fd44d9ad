"""Missing reverts become PRs (#29 section 2): the preview says what happens to each revert owed and sends
nothing; one confirmation pushes the pick (``-x``) that applies to the fork and opens one PR onto the
release branch, with the tracker's request when asked, while the revert whose pick conflicts is left for a
manual cherry-pick with its paths; asked again, nothing is made twice; the clone is left as it was; a
read-only session refuses before anything is pushed."""

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
    """A config on a private copy of the clone, its remote 'fork' the copied (empty) bare fork."""
    clone, fork = world_clone_copy / "torchlet", world_clone_copy / "torchlet-fork.git"
    git(clone, "remote", "set-url", "fork", str(fork))
    path = tmp_path / "cockpit-fork.toml"
    path.write_text(sandbox.config_path.read_text().replace(sandbox.world.clone_path, str(clone)))
    return path, clone, fork


def pulls_onto(sandbox, branch: str):
    state = sandbox.github.repos[sandbox.world.repository.lower()]
    return [p for p in state.pulls.values() if p.base == branch and p.head_ref.startswith("cherry-pick-revert-")]


def test_the_reverts_owed_are_previewed_then_opened_once_and_a_conflicting_one_left_to_a_person(
    sandbox, release, capsys
):
    path, clone, fork = release
    world = sandbox.world
    opens, manual = world.truth["revert_prs"]["opens"], world.truth["revert_prs"]["manual"]
    branch, tracker = world.release_branch, world.tracker_issue
    before = git(clone, "for-each-ref"), git(clone, "count-objects", "-v"), (clone / ".git" / "index").read_bytes()

    assert main(["revert-prs", "--config", str(path)]) == 0
    shown = capsys.readouterr().out
    assert f"{opens['revert_sha'][:12]} " in shown and f"cherry-pick-revert-{opens['pr']}-2.5" in shown
    refused = next(line for line in shown.splitlines() if line.startswith(manual["revert_sha"][:12]))
    assert "needs a manual cherry-pick" in refused and manual["paths"][0] in refused
    assert "nothing was sent" in shown and git(fork, "for-each-ref") == "" and not pulls_onto(sandbox, branch)

    assert main(["revert-prs", "--config", str(path), "--yes", "--comment"]) == 0, capsys.readouterr().err
    assert f"opened 1 PR(s) onto {branch}" in capsys.readouterr().out
    head = git(clone, "rev-parse", f"origin/{branch}").strip()
    (pull,) = pulls_onto(sandbox, branch)
    assert pull.head_ref == f"cherry-pick-revert-{opens['pr']}-2.5"
    assert pull.title.startswith(f"[{branch}] Revert ") and opens["revert_sha"] in pull.body
    assert "only landed on main" in pull.body
    assert f"(cherry picked from commit {opens['revert_sha']})" in git(fork, "log", "-1", "--format=%B", pull.head_ref)
    assert git(fork, "rev-parse", f"{pull.head_ref}~1").strip() == head
    assert git(fork, "for-each-ref", "--format=%(refname)").split() == [f"refs/heads/{pull.head_ref}"]
    comments = sandbox.github.repos[world.repository.lower()].comments_on(tracker)
    (asked,) = [c for c in comments if "* cherry-pick revert" in c.body]
    assert f"/pull/{opens['pr']}" in asked.body and f"/pull/{pull.number}" in asked.body

    assert main(["revert-prs", "--config", str(path), "--yes", "--comment"]) == 0
    again = capsys.readouterr().out
    assert "no PR to open" in again and f"PR #{pull.number}" in again and "reused" in again
    assert len(pulls_onto(sandbox, branch)) == 1
    after = git(clone, "for-each-ref"), git(clone, "count-objects", "-v"), (clone / ".git" / "index").read_bytes()
    assert after == before  # refs, object count, index: the clone is as it was


def test_a_read_only_session_refuses_before_anything_is_pushed(sandbox, release, capsys):
    path, _, fork = release
    assert main(["revert-prs", "--config", str(path), "--yes", "--read-only"]) == 1
    assert "read-only session" in capsys.readouterr().err
    assert git(fork, "for-each-ref") == "" and not pulls_onto(sandbox, sandbox.world.release_branch)


@pytest.mark.anyio
async def test_p_in_the_branch_diff_previews_the_batch_confirms_once_and_opens_the_pr(sandbox, release):
    from dataclasses import replace

    from cockpit.bootstrap import build_backend
    from cockpit.ui.confirm import ConfirmScreen
    from tests.e2e.driving import running, settle

    _, clone, fork = release
    planted = sandbox.world.truth["revert_prs"]
    config = replace(sandbox.config, git=replace(sandbox.config.git, clone=clone))
    async with running(build_backend(config, read_only=False), pane="branch") as (app, pilot):
        await pilot.press("P")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen), list(app.notices.messages())
        assert "1 PR(s) to open" in app.screen.dry_run and "needs a manual cherry-pick" in app.screen.dry_run
        assert git(fork, "for-each-ref") == ""  # the preview sends nothing
        await pilot.press("y")
        await settle(app, pilot)
        assert "opened 1 PR(s)" in "\n".join(app.notices.messages())
    (pull,) = pulls_onto(sandbox, sandbox.world.release_branch)
    assert pull.head_ref == f"cherry-pick-revert-{planted['opens']['pr']}-2.5"
