"""The git adapter against real temporary repositories: reads in one call, writes that never lose work."""

from __future__ import annotations

import subprocess

import pytest

from cockpit.adapters.git import GitRepo, parse_log
from cockpit.errors import GitError, ReadOnlyError
from gitrepo import RepoBuilder


@pytest.fixture()
def repo(tmp_path):
    r = RepoBuilder(tmp_path / "clone")
    r.base = r.commit("Initial commit", files={"README": "hello\n"})
    r.fix = r.pr("Fix crash", 12, {"crash.py": "fixed\n"})
    r.branch("release/1.0", r.base)
    return r


def counted(repo: GitRepo, monkeypatch) -> list[list[str]]:
    """Record every command the adapter starts through GitPython."""
    seen: list[list[str]] = []
    original = type(repo._git).execute

    def execute(self, command, *args, **kwargs):
        seen.append(list(command))
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(type(repo._git), "execute", execute)
    return seen


def test_a_missing_path_is_one_clear_line(tmp_path):
    with pytest.raises(GitError) as err:
        GitRepo(tmp_path / "nowhere")
    assert "no such directory" in str(err.value) and "\n" not in str(err.value)


def test_a_directory_that_is_no_clone_is_one_clear_line(tmp_path):
    with pytest.raises(GitError, match="not a git repository"):
        GitRepo(tmp_path)


def test_log_reads_a_range_in_one_git_call(repo, monkeypatch):
    for n in range(30):
        repo.pr(f"Change {n}", 100 + n, {f"f{n}.py": f"{n}\n"})
    git = GitRepo(repo.path)
    calls = counted(git, monkeypatch)
    commits = git.log(f"{repo.base}..main")
    assert len(calls) == 1 and calls[0][1] == "log"
    assert len(commits) == 31
    newest = commits[0]
    assert newest.subject == "Change 29 (#129)"
    assert "Pull Request resolved: https://github.com/acme/torchlet/pull/129" in newest.body
    assert newest.author == "Dev Eloper" and newest.authored_at > 0
    assert newest.parents == (commits[1].sha,)


def test_log_survives_a_message_that_is_not_utf8(repo):
    repo.commit("", raw=b"Fix caf\xe9 (#13)\n\nbody \xff\xfe here\n")
    [commit] = GitRepo(repo.path).log("HEAD~1..HEAD")
    assert commit.subject == "Fix caf\ufffd (#13)"
    assert "\ufffd" in commit.body


def test_log_greps_literal_text(repo):
    repo.pr("Other", 1234, {"o.py": "o\n"})
    git = GitRepo(repo.path)
    assert [c.sha for c in git.log("main", grep=["(#12)", "(#99)"], fixed_strings=True)] == [repo.fix]
    # a substring grep also finds /pull/1234: the engine re-checks every hit exactly
    assert len(git.log("main", grep=["/acme/torchlet/pull/12"], fixed_strings=True)) == 2


def test_a_bad_revision_names_the_range_and_gits_message(repo):
    with pytest.raises(GitError) as err:
        GitRepo(repo.path).log("nope..main")
    assert "reading history nope..main failed: fatal:" in str(err.value)


def test_an_option_disguised_as_a_revision_is_refused(repo):
    with pytest.raises(GitError, match="not starting with '-'"):
        GitRepo(repo.path).log("--output=/tmp/x")


def test_parse_log_skips_garbage():
    assert parse_log(b"\0junk\0" + b"x" * 40 + b"\x1f\x1fme\x1fnot-a-time\x1fsubject\x1f\0")[0].authored_at == 0
    assert parse_log(b"") == []


def test_patch_ids_in_one_pipeline_match_a_pick_and_skip_merges_and_empty_commits(repo, monkeypatch):
    repo.checkout("release/1.0")
    pick = repo.pick(repo.fix, subject="Backport", body="", trailer=False)
    edited = repo.pick(
        repo.fix, subject="Backport edited", body="", trailer=False, edit={"crash.py": "fixed differently\n"}
    )
    empty = repo.commit("Empty")
    repo.checkout("side", new_from="release/1.0")
    repo.commit("Side change", files={"side.py": "side\n"})
    repo.checkout("release/1.0")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge side", "side")
    merge = repo.head()
    git = GitRepo(repo.path)
    calls = counted(git, monkeypatch)
    ids = git.patch_ids([repo.fix, pick, edited, empty, merge, repo.base])
    assert [c[1] for c in calls] == ["diff-tree", "patch-id"]
    assert ids[repo.fix] == ids[pick] != ids[edited]
    assert repo.base in ids  # a root commit has a patch too
    assert empty not in ids and merge not in ids
    assert git.patch_ids([]) == {}


def test_ref_queries(repo):
    git = GitRepo(repo.path)
    assert git.rev_parse("main") == repo.fix
    assert git.rev_parse("no/such/branch") is None
    assert git.ref_exists("release/1.0") and not git.ref_exists("orig/release/1.0")
    assert git.merge_base("main", "release/1.0") == repo.base
    assert git.is_ancestor(repo.base, "main") and not git.is_ancestor(repo.fix, "release/1.0")
    assert not git.is_ancestor("f" * 40, "main")
    assert git.is_shallow() is False
    assert git.remote_url("origin") is None
    assert git.current_user() == "Release Bot"


def test_tags_are_peeled_to_their_commits(repo):
    repo.tag("v1.0.0-rc1", repo.base)
    repo.git("tag", "light", repo.fix)
    assert GitRepo(repo.path).tags() == {"v1.0.0-rc1": repo.base, "light": repo.fix}


def test_a_shallow_clone_says_so(repo, tmp_path):
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(tmp_path / "shallow")], check=True)
    shallow = GitRepo(tmp_path / "shallow")
    assert shallow.is_shallow()
    assert shallow.remote_url("origin") == f"file://{repo.path}"


def test_read_only_refuses_every_write_before_running_git(repo, monkeypatch):
    git = GitRepo(repo.path, read_only=True)
    before = git.for_each_ref()
    calls = counted(git, monkeypatch)
    for write in (
        lambda: git.create_branch("pick", "main"),
        lambda: git.cherry_pick([repo.fix], branch="release/1.0"),
        lambda: git.tag("v1.0.0-rc1", "release/1.0", "RC1"),
        lambda: git.push("origin", "release/1.0"),
    ):
        with pytest.raises(ReadOnlyError):
            write()
    assert calls == []
    assert git.for_each_ref() == before


def test_create_branch_tag_and_push_to_a_remote(repo, tmp_path):
    subprocess.run(["git", "init", "-q", "--bare", str(tmp_path / "remote.git")], check=True)
    repo.git("remote", "add", "origin", str(tmp_path / "remote.git"))
    git = GitRepo(repo.path)
    git.create_branch("cherry-pick-12", "release/1.0")
    git.tag("v1.0.0-rc1", "release/1.0", "First release candidate")
    git.push("origin", "refs/tags/v1.0.0-rc1")
    git.push("origin", "cherry-pick-12")
    remote = GitRepo(tmp_path / "remote.git")
    assert remote.tags() == {"v1.0.0-rc1": repo.base}
    assert remote.rev_parse("cherry-pick-12") == repo.base


def test_a_failed_push_is_one_line_with_gits_reason(repo):
    with pytest.raises(GitError) as err:
        GitRepo(repo.path).push("nowhere", "main")
    assert str(err.value).startswith("Git: pushing main to nowhere failed: fatal:")


def test_cherry_pick_never_touches_the_users_checkout(repo):
    (repo.path / "README").write_text("work in progress\n")
    git = GitRepo(repo.path)
    head = git.cherry_pick([repo.fix], branch="release/1.0")
    assert git.rev_parse("release/1.0") == head
    [picked] = git.log("release/1.0~1..release/1.0")
    assert picked.subject == "Fix crash (#12)"
    assert f"(cherry picked from commit {repo.fix})" in picked.body
    assert (repo.path / "README").read_text() == "work in progress\n"
    assert repo.git("rev-parse", "--abbrev-ref", "HEAD") == "main"
    assert "worktree" not in repo.git("worktree", "list").split("\n", 1)[-1]


def test_a_conflicting_pick_leaves_the_branch_where_it_was(repo):
    repo.checkout("release/1.0")
    repo.commit("Release-only crash tweak", files={"crash.py": "release version\n"})
    before = repo.head()
    repo.checkout("main")
    git = GitRepo(repo.path)
    with pytest.raises(GitError) as err:
        git.cherry_pick([repo.fix], branch="release/1.0")
    assert "cherry-picking" in str(err.value) and "\n" not in str(err.value)
    assert git.rev_parse("release/1.0") == before
    assert len(repo.git("worktree", "list").splitlines()) == 1


def test_picking_onto_the_checked_out_branch_is_refused_with_gits_reason(repo):
    with pytest.raises(GitError, match="already"):
        GitRepo(repo.path).cherry_pick([repo.fix], branch="main")
