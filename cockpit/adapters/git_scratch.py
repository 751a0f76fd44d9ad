"""Cherry-picks tried in memory, by git itself, without touching the clone.

``git merge-tree --write-tree`` of git 2.39 cannot be told the merge base (``--merge-base`` came
in 2.40), so each pick of commit C onto a tree T is asked as a merge of C with a temporary commit
whose tree is T and whose parent is C's parent: git then finds C's parent as the base itself, and
the merge is exactly the three-way merge ``git cherry-pick`` makes (base C^, ours T, theirs C).

The temporary commits, and every tree and blob the merges write, go to a temporary object
directory that borrows the clone's objects through alternates (``GIT_OBJECT_DIRECTORY`` and
``GIT_ALTERNATE_OBJECT_DIRECTORIES``); it is deleted at the end. No ref, index, worktree or object
file of the clone is written. That is why it is allowed in a read-only session too.

Per batch of merges: one ``git index-pack`` for the temporary commits (``temporary_commits``), one
``git merge-tree --stdin`` for the merges. Changed paths: one ``git diff-tree --stdin`` for every commit asked.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from cockpit.adapters.git_log import decode
from cockpit.adapters.git_merge_parse import MergeOutcome, is_oid, parse_changed_paths, parse_merges
from cockpit.errors import GitError

# A fixed identity and date: the temporary commits never leave the temporary directory, and a
# user's git config without user.email must not stop a prediction.
_WHO = "Release Cockpit <cockpit@localhost> 0 +0000"
Runner = Callable[..., tuple[int, bytes]]


class ScratchMerges:
    """A temporary object directory borrowing the clone's objects; use it in a ``with`` block.

    ``run`` is the clone's git runner (``GitRepo._run``'s signature: purpose, args, ok=, istream=,
    env=); ``objects`` the clone's object directory.
    """

    def __init__(self, run: Runner, objects: Path) -> None:
        self._run_git = run
        self.objects = objects
        self.holder: Path | None = None
        self.env: dict[str, str] = {}

    def __enter__(self) -> ScratchMerges:
        self.holder = Path(tempfile.mkdtemp(prefix="cockpit-predict-"))
        scratch = self.holder / "objects"
        (scratch / "info").mkdir(parents=True)
        (scratch / "pack").mkdir()
        self.env = {"GIT_OBJECT_DIRECTORY": str(scratch), "GIT_ALTERNATE_OBJECT_DIRECTORIES": _alternate(self.objects)}
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        """Remove the scratch directory in the background: its thousands of small objects took
        a tenth of a prediction's time to delete, and nothing waits for them (the thread is not a
        daemon, so the process still removes them before it exits)."""
        if self.holder is not None:
            threading.Thread(
                target=shutil.rmtree, args=(self.holder,), kwargs={"ignore_errors": True}, name="scratch-cleanup"
            ).start()
            self.holder = None
        return None

    def git(
        self, purpose: str, args: Sequence[str], *, data: bytes = b"", extra_env: dict[str, str] | None = None
    ) -> bytes:
        """``git <args>`` with the scratch object directory (and ``extra_env``); its output."""
        if self.holder is None:
            raise GitError(f"{purpose}: the scratch object directory is not open (use it in a with block)")
        with tempfile.TemporaryFile() as stdin:
            stdin.write(data)
            stdin.seek(0)
            env = {**self.env, **extra_env} if extra_env else self.env
            status, out = self._run_git(purpose, args, ok=(0, 129), istream=stdin, env=env)
        if status == 129:  # git's answer to an option it does not know
            raise GitError(
                f"{purpose} failed: this git does not know 'git {' '.join(args[:2])}' with these options "
                "(pick predictions need git merge-tree --write-tree --stdin, in git 2.39 and later)"
            )
        return out

    def tree_of(self, rev: str) -> str:
        """The tree of commit ``rev``."""
        if not is_oid(rev):
            raise GitError(f"reading the tree of {rev!r}: expected a full commit SHA")
        tree = decode(self.git(f"reading the tree of {rev[:12]}", ["rev-parse", "--verify", f"{rev}^{{tree}}"])).strip()
        if not is_oid(tree):
            raise GitError(f"reading the tree of {rev[:12]}: git answered {tree[:40]!r}")
        return tree

    def changed_paths(self, shas: Iterable[str]) -> dict[str, frozenset[str]]:
        """Each commit's changed paths against its first parent (renames: both names), in ONE call.
        A commit that changes nothing maps to an empty set."""
        wanted = [s for s in dict.fromkeys(shas) if is_oid(s)]
        if not wanted:
            return {}
        raw = self.git(
            "reading the paths each pick changes",
            ["diff-tree", "--stdin", "-r", "-z", "-M", "--name-status", "--no-ext-diff", "--no-textconv"],
            data=("\n".join(wanted) + "\n").encode(),
        )
        found = parse_changed_paths(raw)
        return {sha: found.get(sha, frozenset()) for sha in wanted}

    def picks(self, steps: Sequence[tuple[str, str, str]]) -> list[MergeOutcome]:
        """``(onto_tree, commit, parent)`` each: what cherry-picking ``commit`` (whose parent is
        ``parent``) onto a branch whose tree is ``onto_tree`` gives, all in ONE ``merge-tree``."""
        if not steps:
            return []
        for tree, commit, parent in steps:
            if not (is_oid(tree) and is_oid(commit) and is_oid(parent)):
                raise GitError(f"predicting the pick of {commit[:12]!r}: expected full object ids")
        bases = self.temporary_commits([(tree, parent) for tree, _, parent in steps])
        lines = "".join(f"{base} {commit}\n" for base, (_, commit, _) in zip(bases, steps, strict=True))
        raw = self.git(
            f"predicting {len(steps)} cherry-picks",
            ["merge-tree", "--write-tree", "--stdin", "-z", "--messages"],
            data=lines.encode(),
        )
        return parse_merges(raw, len(steps))

    def temporary_commits(self, specs: Sequence[tuple[str, str]]) -> list[str]:
        """Write one commit per ``(tree, parent)`` into the scratch directory; return their ids.

        They go in as ONE pack, built here and indexed by ``git index-pack --stdin``: 300 loose
        objects (a file and often a folder each) cost a fifth of a prediction on a busy disk, and
        ``git hash-object`` as much. git checks every object of the pack as it indexes it.
        """
        hashing = hashlib.sha1 if all(len(tree) == 40 for tree, _ in specs) else hashlib.sha256
        made, entries = [], []
        for tree, parent in specs:
            body = f"tree {tree}\nparent {parent}\nauthor {_WHO}\ncommitter {_WHO}\n\nprediction\n".encode()
            made.append(hashing(b"commit %d\0" % len(body) + body).hexdigest())
            entries.append(_pack_entry(1, body))  # 1: a commit
        pack = b"PACK" + struct.pack(">II", 2, len(entries)) + b"".join(entries)
        self.git("writing temporary commits", ["index-pack", "--stdin"], data=pack + hashing(pack).digest())
        return made


def _alternate(objects: Path) -> str:
    """The clone's object directory as one entry of ``GIT_ALTERNATE_OBJECT_DIRECTORIES``: a path
    holding the list separator (``:``) or starting with a quote is given C-quoted, as git reads it."""
    path = str(objects)
    if os.pathsep not in path and not path.startswith('"'):
        return path
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pack_entry(kind: int, data: bytes) -> bytes:
    """One undeltified object of a pack: its kind and size (a variable-length header), then its data
    compressed (gitformat-pack: "Object entries")."""
    size = len(data)
    header = bytearray([(kind << 4) | (size & 0x0F)])
    size >>= 4
    while size:
        header[-1] |= 0x80
        header.append(size & 0x7F)
        size >>= 7
    return bytes(header) + zlib.compress(data, 1)
