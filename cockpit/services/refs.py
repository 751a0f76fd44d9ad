"""Reading references out of commit messages: PR numbers, PR URLs, pick trailers, reverts, fixes.

Every rule here is exact where ``github_analyze.py --missing-in-branch`` was loose: numbers are
whole (``#12`` never matches ``#123`` nor ``abc#12``; ``/pull/1234`` never matches ``/pull/12345``)
and URLs count only for the release's own repository. Nothing here raises on odd input.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cockpit.domain.commits import CommitRecord, EvidenceKind

_MENTION = re.compile(r"(?<![\w&/#])#(\d+)(?!\w)")
_QUALIFIED = re.compile(r"(?<![\w/.-])([\w.-]+/[\w.-]+)#(\d+)(?!\w)")
_TRAILER = re.compile(r"\(cherry picked from commit ([0-9a-fA-F]{40})\)")
_REVERTS = re.compile(r"This reverts commit ([0-9a-fA-F]{7,40})(?![0-9a-fA-F])")
_BULLET = re.compile(r"^\s*[*-]\s+.*\(#(\d+)\)\s*$", re.MULTILINE)
_PREFIX = re.compile(r"^(?:\s*\[[^\]]*\]\s*)+")
_QUOTED_REVERT = re.compile(r'^Revert\s+"(.*)"\s*(?:\(#\d+\)\s*)*$')


def _split_suffix(subject: str) -> tuple[str, tuple[int, ...]]:
    """(title, numbers) of a subject ending in ``(#N)`` groups; string scanning, no regex (hot path)."""
    rest = subject.rstrip()
    found: list[int] = []
    while rest.endswith(")"):
        start = rest.rfind("(#")
        digits = rest[start + 2 : -1] if start >= 0 else ""
        if not (digits.isascii() and digits.isdigit()):
            break
        found.append(int(digits))
        rest = rest[:start].rstrip()
    found.reverse()
    return rest, tuple(found)


def subject_prs(subject: str) -> tuple[int, ...]:
    """PR numbers of the subject's trailing ``(#N)`` suffix, in order: ``Title (#N) (#M)`` -> (N, M)."""
    return _split_suffix(subject)[1]


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


def _own_pull_number(url: str, repository: str) -> int | None:
    """N when ``url`` is exactly ``http(s)://<host>/<repository>/pull/N`` (string checks: hot path)."""
    usual = f"https://github.com/{repository}/pull/"
    if url.startswith(usual):  # the merge bot's own spelling: the checks below would all pass
        digits = url[len(usual) :]
        return int(digits) if digits.isascii() and digits.isdigit() else None
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    if not sep or scheme.lower() not in ("http", "https") or not host or not slash or host.split() != [host]:
        return None
    prefix = f"{repository}/pull/"
    if len(path) <= len(prefix) or path[: len(prefix)].lower() != prefix.lower():
        return None
    digits = path[len(prefix) :]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def resolved_pr(body: str, repository: str) -> int | None:
    """The PR of the merge bot's ``Pull Request resolved: <url>`` line, if it names ``repository``."""
    at = body.find("Pull Request resolved:")
    while at >= 0:
        line_start = body.rfind("\n", 0, at) + 1
        line_end = body.find("\n", at)
        words = body[at + len("Pull Request resolved:") : line_end if line_end >= 0 else len(body)].split()
        if not body[line_start:at].strip() and words:
            number = _own_pull_number(words[0].rstrip(".,;)"), repository)
            if number is not None:
                return number
        at = body.find("Pull Request resolved:", at + 1)
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
    subject = commit.subject
    if subject.startswith("Revert"):
        return True
    return subject[:1] in "[ \t" and _PREFIX.sub("", subject).startswith("Revert")


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
    """Matched at a keyword's position in the lower-cased message."""
    url = r"|https?://[^\s/]+/" + re.escape(repository.lower()) + r"/issues/(\d+)" if repository else ""
    return re.compile(r"(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?):?\s+(?:#(\d+)" + url + r")(?!\w)")


def _fixes_in(lowered: str, repository: str) -> Iterator[tuple[int, int]]:
    """(position, issue) of each fix keyword's reference in the lower-cased text.

    Keywords are found with ``str.find`` and the pattern is only tried there: a regex scan of
    every body was the slowest step of a 100k-commit diff.
    """
    pattern = _fixes_pattern(repository)
    for word in ("fix", "clos", "resolv"):
        at = lowered.find(word)
        while at >= 0:
            before = lowered[at - 1] if at else " "
            if not (before.isalnum() or before == "_"):
                match = pattern.match(lowered, at)
                if match:
                    yield at, int(next(g for g in match.groups() if g))
            at = lowered.find(word, at + 1)


def fixed_issues(message: str, repository: str) -> set[int]:
    """Issues a commit says it fixes: ``Fixes #N``, ``Closes <repo>/issues/N`` (case-insensitive)."""
    return {n for _, n in _fixes_in(message.lower(), repository)}


def fixed_issues_each(messages: Sequence[str], repository: str) -> dict[int, set[int]]:
    """``fixed_issues`` of many messages in one pass: position in ``messages`` -> issues, for those with any.

    The messages are searched joined by ``"\0\n"``, which no match can cross (the pattern's gaps
    are whitespace or non-slash runs: a NUL is no whitespace, the newline ends the run), and which
    looks to a keyword like the start of a text; so each answer is ``fixed_issues``' own, found
    without a Python loop over every message.
    """
    lowered = [m.lower() for m in messages]
    starts, at = [], 0
    for text in lowered:
        starts.append(at)
        at += len(text) + 2
    found: dict[int, set[int]] = {}
    for pos, n in _fixes_in("\0\n".join(lowered), repository):
        found.setdefault(bisect_right(starts, pos) - 1, set()).add(n)
    return found


def normalized_subject(subject: str) -> str:
    """A subject without ``[release/..]`` prefixes and ``(#N)`` suffixes, for spotting re-titled picks."""
    title = _split_suffix(_PREFIX.sub("", subject) if subject[:1] in "[ \t" else subject)[0]
    return " ".join(title.split()).lower()


@dataclass(frozen=True)
class BranchRefs:
    """What a release-branch commit says about where it came from.

    ``kinds`` lists every kind of evidence the commit carries for each PR (a kept ``-x`` pick has
    its ``(#N)`` suffix AND the exact ``Pull Request resolved`` URL); ``prs`` is the first of them.
    """

    kinds: dict[int, tuple[EvidenceKind, ...]]
    picked_from: tuple[str, ...] = ()
    reverts: str | None = None

    @property
    def prs(self) -> dict[int, EvidenceKind]:
        return {n: kinds[0] for n, kinds in self.kinds.items()}

    @property
    def any(self) -> bool:
        return bool(self.kinds or self.picked_from)


def branch_refs(commit: CommitRecord, repository: str) -> BranchRefs:
    """Every reference a release-branch commit carries, each with the kind of evidence it is.

    A commit with its own identity (a ``(#N)`` suffix, a resolved URL or a pick trailer) was copied
    from a PR whose body may mention other PRs; those mentions are not evidence. Only a bare commit's
    body mentions count. A revert's quoted title names the PR it undoes, so only its own suffix counts.
    """
    kinds: dict[int, tuple[EvidenceKind, ...]] = {}

    def add(n: int, kind: EvidenceKind) -> None:
        if kind not in kinds.get(n, ()):
            kinds[n] = kinds.get(n, ()) + (kind,)

    trailers = picked_from(commit.body)
    suffix = subject_prs(commit.subject)
    for n in suffix:
        add(n, EvidenceKind.PR_NUMBER)
    if is_revert(commit):
        return BranchRefs(kinds, trailers, revert_target(commit))
    resolved = resolved_pr(commit.body, repository)
    for n in mentioned_prs(commit.subject, repository):
        add(n, EvidenceKind.PR_NUMBER)
    for n in bulk_pick_prs(commit.body):
        add(n, EvidenceKind.BULK_PICK)
    if resolved is not None:
        add(resolved, EvidenceKind.PR_URL)
    if not suffix and resolved is None and not trailers:
        for n in pr_urls(commit.body, repository):
            add(n, EvidenceKind.PR_URL)
        for n in mentioned_prs(commit.body, repository):
            add(n, EvidenceKind.PR_NUMBER)
    return BranchRefs(kinds, trailers, None)


def all_prs(commit: CommitRecord, repository: str) -> set[int]:
    """Every PR a commit refers to in any way (for an RC delta's list of PRs)."""
    found = set(subject_prs(commit.subject)) | mentioned_prs(commit.subject, repository)
    found |= pr_urls(commit.body, repository) | set(bulk_pick_prs(commit.body))
    return found
