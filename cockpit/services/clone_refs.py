"""Which commit each release ref names in the clone: the one place the cockpit resolves refs.

A release manager's clone is often an ordinary ``git clone``: ``main`` is a local branch, while
``release/2.5`` and ``orig/release/2.5`` exist only as ``origin/release/2.5`` and
``origin/orig/release/2.5``. Every loader and action asks here, so they all read the same commit
for the same name: the local branch, else the configured remote's. RC tags are read from the
clone's tags (``git clone`` and ``git fetch`` bring them along).

The port is anything with ``GitRepo``'s ``rev_parse``/``merge_base``/``is_shallow``/``tags``, so
this module stays free of GitPython.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from cockpit.errors import GitError


class RefPort(Protocol):
    """The part of ``cockpit.adapters.git.GitRepo`` that names commits."""

    def rev_parse(self, ref: str) -> str | None: ...

    def merge_base(self, a: str, b: str) -> str | None: ...

    def is_shallow(self) -> bool: ...


@dataclass(frozen=True)
class ResolvedRef:
    """A configured name (``release/2.5``), where it was found (``origin/release/2.5``) and its commit."""

    name: str
    ref: str
    sha: str

    @property
    def remote_only(self) -> bool:
        """True when the clone has no local branch of that name and the remote's was used."""
        return self.ref != self.name


@dataclass(frozen=True)
class ReleaseRefs:
    """The three refs every history read starts from."""

    main: ResolvedRef
    branch: ResolvedRef
    cut: str


def find_ref(git: RefPort, name: str, remote: str) -> ResolvedRef | None:
    """``name`` as a local branch (or tag, or sha), else ``<remote>/<name>``; None when neither exists."""
    for candidate in (name, f"{remote}/{name}"):
        sha = git.rev_parse(candidate)
        if sha:
            return ResolvedRef(name, candidate, sha)
    return None


def require_ref(git: RefPort, name: str, remote: str, what: str = "branch") -> ResolvedRef:
    """Like ``find_ref``, but a missing ref is a ``GitError`` saying how to fetch it."""
    found = find_ref(git, name, remote)
    if found is None:
        raise GitError(
            f"no {what} '{name}' (nor '{remote}/{name}') in the clone: fetch it with 'git fetch {remote} {name}'"
        )
    return found


def find_cut(git: RefPort, *, main_sha: str, branch_sha: str, branch: str, remote: str, cut_override: str = "") -> str:
    """The cut: the override, else ``orig/<branch>`` (local, else on ``remote``), else the merge base."""
    if cut_override:
        sha = git.rev_parse(cut_override)
        if not sha:
            raise GitError(f"the cut '{cut_override}' (git.cut in the config) names no commit in the clone")
        return sha
    orig = find_ref(git, f"orig/{branch}", remote)
    if orig is not None:
        return orig.sha
    sha = git.merge_base(main_sha, branch_sha)
    if sha:
        return sha
    if git.is_shallow():
        raise GitError(f"the clone is shallow and lacks the cut of {branch}: run 'git fetch --unshallow {remote}'")
    raise GitError(f"{branch} shares no history with main and there is no orig/{branch}: set git.cut in the config")


def release_refs(git: RefPort, *, main: str, branch: str, remote: str, cut_override: str = "") -> ReleaseRefs:
    """``main``, the release ``branch`` and the cut, resolved; a ``GitError`` names what is missing."""
    main_ref = require_ref(git, main, remote)
    branch_ref = require_ref(git, branch, remote)
    cut = find_cut(
        git, main_sha=main_ref.sha, branch_sha=branch_ref.sha, branch=branch, remote=remote, cut_override=cut_override
    )
    return ReleaseRefs(main_ref, branch_ref, cut)


def rc_tags(tags: Mapping[str, str] | list[str], version: str) -> list[str]:
    """This release's RC tags among ``tags``, oldest first (``v2.5.0-rc1``, ``-rc2``, ..., ``-rc10``)."""
    prefix = f"v{version}-rc"
    found = [t for t in tags if t.startswith(prefix) and t[len(prefix) :].isdigit()]
    return sorted(found, key=lambda t: int(t[len(prefix) :]))
