"""What the cockpit pushes to the demo's remote is what the emulated GitHub then reports (issue 32: an RC tag
the cockpit pushed was unknown to it, 422, and the CI pane's row for it stayed UNKNOWN)."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

from cockpit.sandbox.github_state import RepoState


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], check=True, capture_output=True, text=True).stdout.strip()


def test_a_tag_pushed_to_the_worlds_remote_resolves_to_its_commit_with_that_commits_check_runs(
    sandbox_world, world_clone_copy
):
    remote = world_clone_copy / Path(sandbox_world.remote_path).name
    clone = world_clone_copy / Path(sandbox_world.clone_path).name
    repo = copy.deepcopy(sandbox_world.repos[sandbox_world.repository])
    state = RepoState(repo, remote)
    assert state.resolve_ref("v2.5.0-rc9") is None  # not pushed yet: GitHub answers 422 for it
    head = repo.branches["release/2.5"]
    git(clone, "tag", "-a", "v2.5.0-rc9", head, "-m", "v2.5.0-rc9")
    git(clone, "push", str(remote), "v2.5.0-rc9")
    assert state.resolve_ref("v2.5.0-rc9") == head  # an annotated tag names its commit
    assert repo.tags["v2.5.0-rc9"] == head  # kept: the tag list shows it too
    assert state.checks_by_sha.get(head), "the commit's check runs are the tag's"


def test_a_ref_name_that_is_no_ref_is_not_given_to_git():
    state = RepoState(copy.deepcopy(_empty_repo()), Path("/nonexistent"))
    for bad in ("--upload-pack=x", "a..b", "", "-h", "v1 rc"):
        assert state.pushed(bad) is None


def _empty_repo():
    from cockpit.sandbox.model import SbRepo

    return SbRepo("acme/empty")
