"""Reading references out of commit messages: PR numbers, PR URLs, pick trailers, reverts, fixes.

Every rule here is exact where ``github_analyze.py --missing-in-branch`` was loose: numbers are
whole (``#12`` never matches ``#123`` nor ``abc#12``; ``/pull/1234`` never matches ``/pull/12345``)
and URLs count only for the release's own repository. Nothing here raises on odd input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cockpit.domain.commits import CommitRecord, EvidenceKind

_SUFFIX = re.compile(r"(?:\s*\(#\d+\))+\s*$")
_SUFFIX_NUMBER = re.compile(r"\(#(\d+)\)")
_MENTION = re.compile(r"(?<![\w&/#])#(\d+)(?!\w)")
_QUALIFIED = re.compile(r"(?<![\w/.-])([\w.-]+/[\w.-]+)#(\d+)(?!\w)")
_RESOLVED = re.compile(r"^\s*Pull Request resolved:\s*(\S+)", re.MULTILINE)
_TRAILER = re.compile(r"\(cherry picked from commit ([0-9a-fA-F]{40})\)")
_REVERTS = re.compile(r"This reverts commit ([0-9a-fA-F]{7,40})(?![0-9a-fA-F])")
_BULLET = re.compile(r"^\s*[*-]\s+.*\(#(\d+)\)\s*$", re.MULTILINE)
_PREFIX = re.compile(r"^(?:\s*\[[^\]]*\]\s*)+")
_QUOTED_REVERT = re.compile(r'^Revert\s+"(.*)"\s*(?:\(#\d+\)\s*)*$')
_FIX_WORD = r"(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)"


def subject_prs(subject: str) -> tuple[int, ...]:
    """PR numbers of the subject's trailing ``(#N)`` suffix, in order: ``Title (#N) (#M)`` -> (N, M)."""
    if not subject.rstrip().endswith(")"):
        return ()
    match = _SUFFIX.search(subject)
    return tuple(int(n) for n in _SUFFIX_NUMBER.findall(match.group(0))) if match else ()


def mentioned_prs(text: str, repository: str = "") -> set[int]:
    """Whole-word ``#N`` references, plus ``owner/name#N`` when it names ``repository``."""
    found = {int(n) for n in _MENTION.findall(text)}
    if repository and "/" in text:
        home = repository.lower()
        found.update(int(n) for repo, n in _QUALIFIED.findall(text) if repo.lower() == home)
    return found


@lru_cache(maxsize=16)
def _url_pattern(repository: str, kind: str) -> re.Pattern[str]:
    return re.compile(r"https?://[^\s/]+/" + re.escape(repository) + "/" + kind + r"/(\d+)(?!\w)", re.IGNORECASE)


def pr_urls(text: str, repository: str) -> set[int]:
    """PR numbers of exact ``https://<host>/<repository>/pull/N`` URLs anywhere in ``text``."""
    if not repository or "/pull/" not in text:
        return set()
    return {int(n) for n in _url_pattern(repository, "pull").findall(text)}


def resolved_pr(body: str, repository: str) -> int | None:
    """The PR of the merge bot's ``Pull Request resolved: <url>`` line, if it names ``repository``."""
    if "Pull Request resolved" not in body:
        return None
    for url in _RESOLVED.findall(body):
        match = _url_pattern(repository, "pull").fullmatch(url.rstrip(".,;)"))
        if match:
            return int(match.group(1))
    return None


def trunk_prs(commit: CommitRecord, repository: str) -> set[int]:
    """The PR a trunk commit landed: its resolved URL line and the last number of its subject suffix."""
    found: set[int] = set()
    suffix = subject_prs(commit.subject)
    if suffix:
        found.add(suffix[-1])
    resolved = resolved_pr(commit.body, repository)
    if resolved is not None:
        found.add(resolved)
    return found


def picked_from(body: str) -> tuple[str, ...]:
    """Shas of ``(cherry picked from commit <40-hex>)`` trailers, lower case."""
    if "cherry picked" not in body:
        return ()
    return tuple(s.lower() for s in _TRAILER.findall(body))


def is_revert(commit: CommitRecord) -> bool:
    """A revert as the merge bot and ``git revert`` write it (optionally with a ``[release/..]`` prefix)."""
    return _PREFIX.sub("", commit.subject).startswith("Revert")


def revert_target(commit: CommitRecord) -> str | None:
    """The sha (possibly abbreviated) a revert undoes: ``This reverts commit <sha>.`` in the body."""
    if not is_revert(commit):
        return None
    match = _REVERTS.search(commit.body)
    return match.group(1).lower() if match else None


def reverted_title(subject: str) -> str | None:
    """The quoted title of ``Revert "<title>"`` (with any ``[release/X.Y]`` prefix removed)."""
    match = _QUOTED_REVERT.match(_PREFIX.sub("", subject))
    return match.group(1) if match else None


def bulk_pick_prs(body: str) -> tuple[int, ...]:
    """PRs listed as ``* Title (#N)`` bullets, when there are at least two: a bulk pick's body."""
    if "(#" not in body:
        return ()
    numbers = tuple(dict.fromkeys(int(n) for n in _BULLET.findall(body)))
    return numbers if len(numbers) >= 2 else ()


@lru_cache(maxsize=16)
def _fixes_pattern(repository: str) -> re.Pattern[str]:
    url = r"https?://[^\s/]+/" + re.escape(repository) + r"/issues/(\d+)" if repository else r"(?!x)x"
    return re.compile(r"\b" + _FIX_WORD + r":?\s+(?:#(\d+)|" + url + r")(?!\w)", re.IGNORECASE)


def fixed_issues(message: str, repository: str) -> set[int]:
    """Issues a commit says it fixes: ``Fixes #N``, ``Closes <repo>/issues/N`` (case-insensitive)."""
    lowered = message.lower()
    if "fix" not in lowered and "clos" not in lowered and "resolv" not in lowered:
        return set()
    return {int(a or b) for a, b in _fixes_pattern(repository).findall(message)}


def normalized_subject(subject: str) -> str:
    """A subject without ``[release/..]`` prefixes and ``(#N)`` suffixes, for spotting re-titled picks."""
    stripped = _PREFIX.sub("", subject)
    match = _SUFFIX.search(stripped) if stripped.rstrip().endswith(")") else None
    if match:
        stripped = stripped[: match.start()]
    return " ".join(stripped.split()).lower()


@dataclass(frozen=True)
class BranchRefs:
    """What a release-branch commit says about where it came from."""

    prs: dict[int, EvidenceKind]
    picked_from: tuple[str, ...] = ()
    reverts: str | None = None

    @property
    def any(self) -> bool:
        return bool(self.prs or self.picked_from)


def branch_refs(commit: CommitRecord, repository: str) -> BranchRefs:
    """Every reference a release-branch commit carries, each with the kind of evidence it is.

    A commit with its own identity (a ``(#N)`` suffix, a resolved URL or a pick trailer) was copied
    from a PR whose body may mention other PRs; those mentions are not evidence. Only a bare commit's
    body mentions count. A revert's quoted title names the PR it undoes, so only its own suffix counts.
    """
    prs: dict[int, EvidenceKind] = {}
    trailers = picked_from(commit.body)
    suffix = subject_prs(commit.subject)
    for n in suffix:
        prs[n] = EvidenceKind.PR_NUMBER
    if is_revert(commit):
        return BranchRefs(prs, trailers, revert_target(commit))
    resolved = resolved_pr(commit.body, repository)
    for n in mentioned_prs(commit.subject, repository):
        prs.setdefault(n, EvidenceKind.PR_NUMBER)
    for n in bulk_pick_prs(commit.body):
        prs.setdefault(n, EvidenceKind.BULK_PICK)
    if resolved is not None:
        prs.setdefault(resolved, EvidenceKind.PR_URL)
    if not suffix and resolved is None and not trailers:
        for n in pr_urls(commit.body, repository):
            prs.setdefault(n, EvidenceKind.PR_URL)
        for n in mentioned_prs(commit.body, repository):
            prs.setdefault(n, EvidenceKind.PR_NUMBER)
    return BranchRefs(prs, trailers, None)


def all_prs(commit: CommitRecord, repository: str) -> set[int]:
    """Every PR a commit refers to in any way (for an RC delta's list of PRs)."""
    found = set(subject_prs(commit.subject)) | mentioned_prs(commit.subject, repository)
    found |= pr_urls(commit.body, repository) | set(bulk_pick_prs(commit.body))
    return found
