"""A cherry-pick made and pushed to a fork without the user's checkout: git's merge in memory, a commit
written to a temporary object directory, and a push of that commit to the fork's URL.

``git cherry-pick -x`` of commit C onto the release head H is the merge ``merge-tree`` makes with
C's parent as base (``git_scratch``); the commit is then written by ``git commit-tree`` with C's
author and message plus the ``(cherry picked from commit C)`` line ``-x`` adds, and H as parent.
Its committer date is C's author date, so the same pick onto the same head is the same commit:
asked twice, the second push finds the branch already there and changes nothing. The push goes to
the fork remote's URL (not its name), so not even a remote-tracking ref of the clone is written;
the clone's worktree, index, refs and object files are never touched.
"""

from __future__ import annotations

from cockpit.adapters.git_log import decode
from cockpit.adapters.git_merge_parse import is_oid
from cockpit.adapters.git_scratch import ScratchMerges
from cockpit.domain.text import inert
from cockpit.errors import GitError


def picked_message(message: str, sha: str) -> str:
    """The message ``git cherry-pick -x`` writes: the original, then ``(cherry picked from commit <sha>)``."""
    return f"{message.rstrip()}\n\n(cherry picked from commit {sha})\n"


def pick_and_push(lab: ScratchMerges, commit: str, onto: str, *, url: str, branch: str) -> str:
    """Pick ``commit`` onto ``onto`` in memory and push the result to ``url`` as ``refs/heads/<branch>``.

    Returns the pushed commit. A conflict raises GitError naming the paths; nothing is pushed then.
    """
    if not (is_oid(commit) and is_oid(onto)):
        raise GitError(f"picking {commit[:12]!r} onto {onto[:12]!r}: expected full commit ids")
    raw = decode(
        lab.git(
            f"reading {commit[:12]}",
            ["log", "-1", "-z", "--format=%P%x00%an%x00%ae%x00%ad%x00%B", "--date=raw", commit],
        )
    )
    parents, name, email, date, message = (raw.rstrip("\0").split("\0", 4) + [""] * 5)[:5]
    if len(parents.split()) != 1:
        raise GitError(f"{commit[:12]} is a merge or a root commit: git cherry-pick cannot take it alone")
    outcome = lab.picks([(lab.tree_of(onto), commit, parents.strip())])[0]
    if not outcome.clean:
        paths = ", ".join(inert(p) for p in outcome.conflicts) or "(git named no path)"
        raise GitError(f"the cherry-pick of {commit[:12]} conflicts in {paths}: it needs a manual cherry-pick")
    ident = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    made = decode(
        lab.git(
            f"writing the pick of {commit[:12]}",
            ["commit-tree", outcome.tree, "-p", onto, "-F", "-"],
            data=picked_message(message, commit).encode(),
            extra_env=ident,
        )
    ).strip()
    if not is_oid(made):
        raise GitError(f"writing the pick of {commit[:12]}: git answered {made[:40]!r}")
    if branch.startswith("-") or not branch or "\0" in branch:
        raise GitError(f"branch {branch!r} is not usable: expected a name not starting with '-'")
    lab.git(f"pushing {branch} to the fork", ["push", "--porcelain", url, f"{made}:refs/heads/{branch}"])
    return made
