"""What ``git merge-tree --write-tree --stdin -z --messages`` and ``git diff-tree -z --name-status`` print, read.

Pure (no git run here): ``cockpit.adapters.git_scratch`` runs git and hands the bytes over. Paths
are whatever people named their files, so they are made inert as they are read; object ids are
checked to be hex before anything uses them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cockpit.adapters.git_log import decode
from cockpit.domain.text import inert
from cockpit.errors import GitError

_OID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_STATUS = re.compile(r"[ACDMRTUXB][0-9]*")


@dataclass(frozen=True)
class MergeOutcome:
    """One in-memory merge: clean or not, the tree git wrote, the paths left conflicted."""

    clean: bool
    tree: str
    conflicts: tuple[str, ...] = ()


def is_oid(text: str) -> bool:
    """Whether ``text`` is a full object id (SHA-1 or SHA-256), lower-case hex."""
    return _OID.fullmatch(text) is not None


def parse_merges(raw: bytes, expected: int) -> list[MergeOutcome]:
    """The outcomes of ``expected`` merges, in the order they were asked.

    Each merge prints: its status (``1`` clean, ``0`` conflicted), the tree, the conflicted
    entries (``mode oid stage<TAB>path``) up to an empty field, then the messages (a path count,
    the paths, a kind, the text) up to an empty field. A conflict git reports only in a message
    (a rename into a directory that moved, say) is named by the message's paths.
    """
    fields = decode(raw).split("\0")
    out: list[MergeOutcome] = []
    pos = 0

    def take() -> str:
        nonlocal pos
        if pos >= len(fields):
            raise GitError("predicting picks failed: git merge-tree stopped in the middle of its answer")
        pos += 1
        return fields[pos - 1]

    for _ in range(expected):
        status, tree = take(), take()
        if status not in ("0", "1") or not is_oid(tree):
            raise GitError(f"predicting picks failed: unexpected answer from git merge-tree ({inert(status)[:40]!r})")
        entries: list[str] = []
        while (entry := take()) != "":
            _, tab, path = entry.partition("\t")
            if tab and path not in entries:
                entries.append(path)
        noted: list[str] = []
        while (count := take()) != "":
            if not count.isdigit():
                raise GitError("predicting picks failed: unexpected message from git merge-tree")
            paths = [take() for _ in range(int(count))]
            kind = take()
            take()  # the message's text
            if kind.startswith("CONFLICT"):
                noted += [p for p in paths if p not in noted]
        conflicts = entries or ([] if status == "1" else noted)
        out.append(MergeOutcome(status == "1", tree, tuple(inert(p) for p in conflicts)))
    return out


def parse_changed_paths(raw: bytes) -> dict[str, frozenset[str]]:
    """``diff-tree --stdin -r -z -M --name-status`` output: each commit's changed paths (both
    names of a rename or copy). A commit with no change prints nothing and is absent."""
    fields = decode(raw).split("\0")
    found: dict[str, set[str]] = {}
    current: set[str] | None = None
    pos = 0
    while pos < len(fields):
        token = fields[pos]
        pos += 1
        if not token:
            continue
        if is_oid(token):
            current = found.setdefault(token, set())
        elif _STATUS.fullmatch(token) and current is not None:
            names = 2 if token[0] in "RC" else 1
            current.update(inert(p) for p in fields[pos : pos + names])
            pos += names
        else:
            raise GitError(f"reading changed paths failed: unexpected field from git diff-tree ({inert(token)[:40]!r})")
    return {sha: frozenset(paths) for sha, paths in found.items()}
