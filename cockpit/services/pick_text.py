"""The small readers the cherry-pick request parser shares: PR references, issue links, hint words.

Every pattern here runs on one whitespace-normalised line (single spaces) and stays linear on
hostile input.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from cockpit.domain.picks import PRRef

T = TypeVar("T")

BOLD = r"(?:\*\*|__)?"
BULLET = re.compile(r"^\s*[-*+]\s+")
GH_URL = re.compile(
    r"\b(?P<scheme>https?)://(?P<host>[^\s/]+)/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/(?P<kind>pulls?|issues)/"
    r"(?P<num>\d{1,9})(?!\d)[^\s)\]>]*",
    re.IGNORECASE,
)
ANY_URL = re.compile(r"\bhttps?://[^\s)\]>]+", re.IGNORECASE)
SHORT_REF = re.compile(r"(?<![\w/&.-])(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<num>\d{1,9})(?!\d)")
NA = re.compile(r"^\W*(?:n/?a|none|not\s+applicable)\b", re.IGNORECASE)
FIXES_REF = re.compile(r"\b(?:fix(?:es|ed)?|closes|resolves)\s*:?\s*#(?P<num>\d{1,9})(?!\d)", re.IGNORECASE)
HINT = re.compile(
    r"\b(?:(?P<dnm>do\s*n[o']?t[\s-]+merge|do-not-merge)|(?P<nm>not\s+merged)"
    r"|(?P<word>merged|reverted|closing|closed))\b",
    re.IGNORECASE,
)
BRACKETED_HINT = re.compile(r"[(\[]\s*(?:" + HINT.pattern + r")\s*[)\]]", re.IGNORECASE)
# Words a release manager's note is made of when it says nothing but its hint ("merged", "- REVERTED -").
HINT_ONLY_PUNCTUATION = " *_-\u2013\u2014:,;.!()[]"


def unique(values: Iterable[T]) -> tuple[T, ...]:
    """The values in first-seen order, each once."""
    return tuple(dict.fromkeys(values))


def mask_urls(text: str) -> str:
    """``text`` with every URL blanked out, positions kept (so references can still be ordered)."""
    return ANY_URL.sub(lambda m: " " * len(m.group(0)), text)


def outside_urls(text: str, change: Callable[[str], str]) -> str:
    """Apply ``change`` to the text between URLs only: links are kept exactly as written."""
    out, last = [], 0
    for m in ANY_URL.finditer(text):
        out += [change(text[last : m.start()]), m.group(0)]
        last = m.end()
    out.append(change(text[last:]))
    return "".join(out)


def pull_refs_at(line: str, repository: str, *, min_digits: int = 1) -> list[tuple[int, int, PRRef]]:
    """``(start, end, PRRef)`` of every pull-request link and ``#N`` / ``owner/repo#N`` in ``line``, in order.

    PRs of ``repository`` get ``PRRef.repository == ""``. Issue links are not PR references.
    """
    home = repository.casefold()
    found: list[tuple[int, int, PRRef]] = []
    for m in GH_URL.finditer(line):
        if m.group("kind").lower() != "issues":
            repo = f"{m.group('owner')}/{m.group('repo')}"
            found.append((m.start(), m.end(), PRRef(int(m.group("num")), "" if repo.casefold() == home else repo)))
    for m in SHORT_REF.finditer(mask_urls(line)):
        if len(m.group("num")) >= min_digits:
            repo = m.group("repo") or ""
            found.append((m.start(), m.end(), PRRef(int(m.group("num")), "" if repo.casefold() == home else repo)))
    return sorted(found, key=lambda hit: hit[0])


def title_suffixes(line: str, refs: list[tuple[int, int, PRRef]]) -> set[int]:
    """Where the ``(#N)`` title suffixes among ``refs`` of ``line`` start: a ``#N`` in parentheses
    beside another reference is a PR title's suffix ("[release/2.5] Fix the hang (#151410) <url>"),
    naming the trunk PR the titled one picks, not a PR of its own."""
    if len(refs) < 2:
        return set()
    return {
        start
        for start, end, _ref in refs
        if line[start : start + 1] == "#" and line[start - 1 : start] == "(" and line[end : end + 1] == ")"
    }


def issue_url(m: re.Match[str]) -> str:
    """An issue link of ``GH_URL`` in one spelling: scheme and host lower-cased, no trailing parts."""
    where = f"{m.group('scheme').lower()}://{m.group('host').lower()}"
    return f"{where}/{m.group('owner')}/{m.group('repo')}/issues/{m.group('num')}"


def issue_urls(text: str) -> list[str]:
    """Every issue link in ``text``, normalised by ``issue_url``."""
    return [issue_url(m) for m in GH_URL.finditer(text) if m.group("kind").lower() == "issues"]


def fixes_refs(text: str) -> list[str]:
    """Issue links and ``fixes #N`` / ``closes #N`` written in ``text``."""
    return [*issue_urls(text), *(f"#{m.group('num')}" for m in FIXES_REF.finditer(ANY_URL.sub(" ", text)))]


def hints(text: str) -> list[str]:
    """Every hint word in ``text`` (outside URLs), lower-cased: merged, reverted, closing, closed, ..."""
    out = []
    for m in HINT.finditer(ANY_URL.sub(" ", text)):
        if m.group("dnm"):
            out.append("do not merge")
        elif m.group("nm"):
            out.append("not merged")
        else:
            out.append(m.group("word").lower())
    return out


def note_hints(line: str) -> list[str]:
    """Hints a release manager plainly appended: a line of nothing but hint words, a bracketed
    ``(merged)``, or a shouted ``MERGED``. Hint words inside prose ("merged last week") are not hints.
    """
    text = ANY_URL.sub(" ", line)
    if not HINT.sub(" ", text).strip(HINT_ONLY_PUNCTUATION):
        return hints(text)
    found = [h for m in BRACKETED_HINT.finditer(text) for h in hints(m.group(0))]
    shouted = [m.group(0) for m in HINT.finditer(BRACKETED_HINT.sub(" ", text)) if m.group(0).isupper()]
    return found + [h for word in shouted for h in hints(word)]
