"""The git adapter names a clone's remotes and their default branches (what ``cockpit init`` reads)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cockpit.adapters.git import GitRepo


def git(path: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True)


def test_remotes_with_their_urls_and_the_default_branch_git_clone_recorded(tmp_path):
    remote = tmp_path / "upstream.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "master", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "init", "-q", "-b", "master", str(seed))
    git(seed, "commit", "-q", "--allow-empty", "-m", "initial")
    git(seed, "push", "-q", str(remote), "master")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-o", "upstream", str(remote), str(clone))
    git(clone, "remote", "add", "origin", "git@github.com:someone/torchlet.git")

    repo = GitRepo(clone, read_only=True)
    assert repo.remotes() == {"upstream": str(remote), "origin": "git@github.com:someone/torchlet.git"}
    assert repo.remote_head("upstream") == "master"
    assert repo.remote_head("origin") is None, "never fetched: no origin/HEAD"
    assert repo.remote_head("nowhere") is None


def test_a_clone_without_remotes_has_none(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main", str(tmp_path / "lonely"))
    assert GitRepo(tmp_path / "lonely").remotes() == {}
