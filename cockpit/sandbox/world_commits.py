"""Write a ``HistoryPlan`` as git commits: the merge bot's messages, picks, reverts and RC tags."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cockpit.sandbox.gitgen import FastImport, clone_with_branches, init_bare, run_git
from cockpit.sandbox.world_names import CORE, GITHUB, HOUR, MERGEBOT, RELEASE_MANAGERS
from cockpit.sandbox.world_plan import BranchCommit, HistoryPlan, TrunkCommit

ShaOf = Callable[[int], str]


def pr_url(number: int, repository: str = CORE) -> str:
    return f"{GITHUB}/{repository}/pull/{number}"


def trunk_message(plan: HistoryPlan, commit: TrunkCommit, sha_of: ShaOf) -> str:
    """The merge bot's message: ``Title (#N)``, body, ``Pull Request resolved:``, ``Approved by:``.

    The bot's reverts read ``Revert "<subject>"`` / ``This reverts commit <sha>.`` instead.
    """
    if commit.reverts is not None:
        target = plan.trunk[commit.reverts]
        url = pr_url(target.pr) if target.pr is not None else ""
        return (
            f'Revert "{target.subject}"\n\nThis reverts commit {sha_of(commit.reverts)}.\n\n'
            f"Reverted {url} on behalf of {GITHUB}/{commit.approver} due to breaking "
            f"test_ops on linux-jammy-py3.10 ([comment]({url}#issuecomment-{2300000000 + commit.index}))\n"
        )
    parts = [commit.subject, "", commit.paragraph, ""]
    if commit.extra:
        parts += [*commit.extra, ""]
    if commit.pr is not None:
        parts.append(f"Pull Request resolved: {pr_url(commit.pr)}")
    parts.append(f"Approved by: {GITHUB}/{commit.approver}")
    return "\n".join(parts) + "\n"


def branch_message(plan: HistoryPlan, commit: BranchCommit, sha_of: ShaOf) -> str:
    """A release-branch commit's message, by the shape it plants (see ``BranchCommit.role``)."""
    trunk = [plan.trunk[i] for i in commit.picks]
    m, version, branch = commit.release_pr, plan.version, plan.branch_name
    if commit.role in ("x_pick", "conflict", "revert_pick", "pr_plain", "pr_trailer", "noref"):
        return _quoting_message(plan, commit, trunk[0], sha_of)
    if commit.role == "bulk":
        bullets = "\n".join(f"* {t.subject}" for t in trunk)
        return f"Cherry-pick changes for {version} (#{m})\n\nThis picks the following fixes:\n\n{bullets}\n"
    if commit.role == "version_bump":
        return f"Bump version to {version} (#{m})\n\nSet version.txt to {version} on {branch}.\n"
    if commit.role == "pin":
        return (
            f"[{branch}] Update triton pin to release/3.1.x (#{m})\n\n"
            "The release wheels require triton's release branch; the pin names its commit.\n"
        )
    if commit.role == "keep_message":
        return (
            f"[{branch}] Keep the 2.x error message for a None input\n\n"
            f"Release-only: downstream tests of {version} match the old wording.\n"
        )
    if commit.role == "branch_fix":
        return (
            f"Fix segfault in torchlet.load on truncated archives (#{m})\n\n"
            f"The archive reader did not check for a short read. Fixed directly on {branch}.\n\n"
            f"Approved by: {GITHUB}/{RELEASE_MANAGERS[1].login}\n"
        )
    raise ValueError(f"unknown release-branch commit role {commit.role!r}")


def _quoting_message(plan: HistoryPlan, commit: BranchCommit, first: TrunkCommit, sha_of: ShaOf) -> str:
    """The message of a branch commit that quotes the trunk commit it picks."""
    m, branch = commit.release_pr, plan.branch_name
    if commit.role == "pr_plain":
        return f"{first.subject} (#{m})\n\n{first.paragraph}\n\nApproved by: {GITHUB}/{commit.committer.login}\n"
    if commit.role == "pr_trailer":
        body = trunk_message(plan, first, sha_of).split("\n", 2)[2]
        return f"{first.subject} (#{m})\n\n{body}\n(cherry picked from commit {sha_of(first.index)})\n"
    if commit.role == "noref":
        return f"Backport {first.title} to {branch}\n\n{first.paragraph}\n"
    return f"{trunk_message(plan, first, sha_of)}\n(cherry picked from commit {sha_of(first.index)})\n"


def fork_of(remote: Path) -> Path:
    """The release manager's (empty) fork beside the world's remote: ``torchlet-fork.git``."""
    return Path(remote).with_name("torchlet-fork.git")


def add_fork(clone: Path, fork: Path) -> None:
    """The clone's remote ``fork`` (the config's ``git.fork_remote``), where the revert PRs' branches go."""
    run_git(["remote", "add", "fork", str(fork)], cwd=clone)


def write_history(plan: HistoryPlan, dest: Path) -> tuple[Path, Path, dict[str, str]]:
    """Write the plan to ``dest/torchlet-remote.git`` (bare) and clone it to ``dest/torchlet``, whose
    remote ``fork`` is an empty bare ``dest/torchlet-fork.git``.

    Fills every commit's ``sha``; returns (clone, remote, tags as name -> commit sha).
    """
    remote = init_bare(dest / "torchlet-remote.git")
    fi = FastImport(remote)
    blobs = {key: fi.blob(text) for key, text in plan.contents.items()}
    trunk_marks: list[int] = []
    known: dict[int, str] = {}

    def sha_of(index: int) -> str:
        if index not in known:
            known[index] = fi.sha(trunk_marks[index])
        return known[index]

    def changes(items: list[tuple[str, str | None]]) -> list[tuple[str, int | None]]:
        return [(path, None if key is None else blobs[key]) for path, key in items]

    bot = MERGEBOT.identity
    for commit in plan.trunk:
        trunk_marks.append(
            fi.commit(
                "refs/heads/main",
                message=trunk_message(plan, commit, sha_of),
                author=commit.author.identity,
                author_time=commit.time,
                committer=bot,
                committer_time=commit.time,
                changes=changes(commit.changes),
            )
        )
    branch, cut_mark = plan.branch_name, trunk_marks[plan.cut]
    fi.branch(f"refs/heads/orig/{branch}", cut_mark)
    branch_marks: list[int] = []
    rc1, rc2 = (f"v{plan.version}-rc{n}" for n in (1, 2))
    for pos, bcommit in enumerate(plan.branch):
        bcommit.message = branch_message(plan, bcommit, sha_of)
        picked = plan.trunk[bcommit.picks[0]] if len(bcommit.picks) == 1 else None
        author = picked.author.identity if picked else bcommit.committer.identity
        mark = fi.commit(
            f"refs/heads/{branch}",
            message=bcommit.message,
            author=author,
            author_time=picked.time if picked else bcommit.time,
            committer=bcommit.committer.identity,
            committer_time=bcommit.time,
            changes=changes(bcommit.changes),
            parent=cut_mark if pos == 0 else None,
        )
        branch_marks.append(mark)
        if pos == plan.rc_after[0]:
            fi.annotated_tag(rc1, mark, RELEASE_MANAGERS[0].identity, bcommit.time + HOUR, f"torchlet {rc1}\n")
        if pos == plan.rc_after[1]:
            fi.branch(f"refs/tags/{rc2}", mark)
    shas = fi.close()
    for commit, mark in zip(plan.trunk, trunk_marks, strict=True):
        commit.sha = shas[mark]
    for bcommit, mark in zip(plan.branch, branch_marks, strict=True):
        bcommit.sha = shas[mark]
    clone = dest / "torchlet"
    clone_with_branches(remote, clone, [branch, f"orig/{branch}"], RELEASE_MANAGERS[0].identity)
    add_fork(clone, init_bare(fork_of(remote)))
    tags = {rc1: plan.branch[plan.rc_after[0]].sha, rc2: plan.branch[plan.rc_after[1]].sha}
    return clone, remote, tags
