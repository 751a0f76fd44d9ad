"""Every ref resolves one way: the local branch, else the configured remote's (an ordinary clone)."""

from __future__ import annotations

import subprocess

import pytest

from cockpit.adapters.git import GitRepo
from cockpit.errors import GitError
from cockpit.services.clone_refs import find_ref, rc_tags, release_refs, require_ref
from tests.gitrepo import RepoBuilder


@pytest.fixture
def upstream(tmp_path):
    """main with a cut, release/1.0 and orig/release/1.0 from it, one pick and an RC tag."""
    repo = RepoBuilder(tmp_path / "upstream")
    repo.pr("Base", 1, {"a.txt": "a\n"})
    cut = repo.head()
    repo.pr("Trunk change", 2, {"b.txt": "b\n"})
    repo.branch("orig/release/1.0", cut)
    repo.checkout("release/1.0", new_from=cut)
    repo.commit("Bump version to 1.0.0", files={"version.txt": "1.0.0\n"})
    repo.tag("v1.0.0-rc1")
    repo.checkout("main")
    return repo, cut


def clone_of(upstream, tmp_path) -> GitRepo:
    path = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(upstream.path), str(path)], check=True, capture_output=True)
    return GitRepo(path, read_only=True)


def test_an_ordinary_clone_reads_the_release_branch_and_its_cut_from_origin(upstream, tmp_path):
    repo, cut = upstream
    clone = clone_of(repo, tmp_path)
    refs = release_refs(clone, main="main", branch="release/1.0", remote="origin")
    assert refs.main.ref == "main" and not refs.main.remote_only
    assert refs.branch.ref == "origin/release/1.0" and refs.branch.remote_only
    assert refs.branch.sha == repo.head("release/1.0") and refs.cut == cut
    assert rc_tags(clone.tags(), "1.0.0") == ["v1.0.0-rc1"], "git clone brings the RC tags along"


def test_a_local_branch_wins_over_the_remotes(upstream, tmp_path):
    repo, cut = upstream
    clone = clone_of(repo, tmp_path)
    subprocess.run(["git", "-C", str(clone.path), "branch", "release/1.0", cut], check=True)
    found = find_ref(clone, "release/1.0", "origin")
    assert found is not None and found.ref == "release/1.0" and found.sha == cut


def test_a_ref_on_neither_side_says_how_to_fetch_it(upstream, tmp_path):
    clone = clone_of(upstream[0], tmp_path)
    with pytest.raises(
        GitError, match=r"no branch 'release/9\.9' \(nor 'origin/release/9\.9'\).*git fetch origin release/9\.9"
    ):
        require_ref(clone, "release/9.9", "origin")


def test_rc_tags_sort_by_number_and_ignore_other_versions():
    tags = ["v1.0.0-rc10", "v1.0.0-rc2", "v1.0.0-rc1", "v1.0.1-rc1", "v1.0.0", "v1.0.0-rc3-fix"]
    assert rc_tags(tags, "1.0.0") == ["v1.0.0-rc1", "v1.0.0-rc2", "v1.0.0-rc10"]
