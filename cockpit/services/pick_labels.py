"""The labels a cherry-pick request is written with, and which field each one names.

The tracker's template says "Link to landed trunk PR (if applicable):", "Link to release branch
PR:" and "Criteria Category:"; newer and older trackers say "landed main/master PR", "Link to (a)
cherry-pick PR", "Criteria category and reasons"; the domain libraries write "main PR:",
"cherry-pick:", "release PR:", "Cat:". A label is read from its words, so every spelling made of
the known words works, while a prose line that happens to hold a colon does not.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cockpit.services.pick_text import BOLD

TRUNK, RELEASE, CATEGORY = "trunk", "release", "category"

_KEY = re.compile(
    r"(?:[-*+]\s+)?(?:#{1,6}\s+)?" + BOLD + r"\s*(?P<key>[A-Za-z][A-Za-z()/ -]{0,80}?)\s*" + BOLD + r"\s*:\s*" + BOLD
)
# A line that only introduces what follows ("Main PRs to pick this week:"), read only in free-form comments.
_HEADING = re.compile(
    r"(?:[-*+]\s+)?(?:#{1,6}\s+)?" + BOLD + r"\s*(?P<key>[^:#]{1,120}?)\s*" + BOLD + r"\s*:\s*" + BOLD + r"\s*$"
)
_TRUNK_WORDS = frozenset({"trunk", "main", "master", "upstream", "original", "landed"})
_RELEASE_WORDS = frozenset({"release", "cherry", "cherrypick", "cherrypicks", "pick", "picks", "backport", "backports"})
_CATEGORY_WORDS = frozenset({"criteria", "category", "categories", "cat"})
_FILLER = frozenset(
    {
        "link",
        "links",
        "to",
        "the",
        "a",
        "an",
        "of",
        "for",
        "and",
        "branch",
        "pr",
        "prs",
        "pull",
        "request",
        "requests",
        "reason",
        "reasons",
        "if",
        "applicable",
        "optional",
        "url",
        "urls",
    }
)
_VOCABULARY = _TRUNK_WORDS | _RELEASE_WORDS | _CATEGORY_WORDS | _FILLER
# "Release:" or "Landed:" alone says too little to be a label ("* Release: bump the version" is a
# category line); with one of these words it is one ("release PR:", "cherry-pick:", "main:").
_DECIDING = (
    frozenset(
        {
            "pr",
            "prs",
            "pull",
            "link",
            "links",
            "trunk",
            "main",
            "master",
            "cherry",
            "cherrypick",
            "cherrypicks",
            "backport",
            "backports",
        }
    )
    | _CATEGORY_WORDS
)
_HEADING_RELEASE = re.compile(r"\b(?:release(?:\s+branch)?|cherry\s?picks?|backports?)\s+(?:prs?|pull\s+requests?)\b")
_SEPARATOR = re.compile(r"\s[/|;]\s|,\s")


class Label(NamedTuple):
    """A label found at the start of a line: the field it names, whether it is the tracker's own
    template wording, and the text after its colon."""

    field: str
    template: bool
    rest: str


def _words(key: str) -> list[str]:
    key = key.casefold().replace("(s)", "s").replace("(if applicable)", " ").replace("(optional)", " ")
    return re.sub(r"[-/()]", " ", key).split()


def _field(words: list[str]) -> str | None:
    if _CATEGORY_WORDS.intersection(words):
        return CATEGORY
    if _TRUNK_WORDS.intersection(words):
        return TRUNK
    if _RELEASE_WORDS.intersection(words):
        return RELEASE
    return None


def label_at(line: str, pos: int = 0, *, headings: bool = False) -> Label | None:
    """The label starting at ``pos`` of ``line``, or None.

    A label is made only of the known words ("main PR", "Link to a cherry-pick PR (if applicable)").
    With ``headings`` a line ending in a colon also counts when its words say trunk ("main"),
    release PR ("release PRs", "cherry-pick PRs") or category.
    """
    m = _KEY.match(line, pos)
    if m:
        words = _words(m.group("key"))
        field = _field(words) if set(words) <= _VOCABULARY and _DECIDING.intersection(words) else None
        if field:
            template = words[:2] == ["link", "to"] or "criteria" in words
            return Label(field, template, line[m.end() :].strip())
    if headings and pos == 0:
        h = _HEADING.match(line)
        key = " ".join(_words(h.group("key"))) if h else ""
        if key and len(key.split()) <= 12:
            if _CATEGORY_WORDS.intersection(key.split()):
                return Label(CATEGORY, False, "")
            if _TRUNK_WORDS.intersection(key.split()):
                return Label(TRUNK, False, "")
            if _HEADING_RELEASE.search(key):
                return Label(RELEASE, False, "")
    return None


def segments(line: str) -> list[str]:
    """``line`` cut where a new label follows a separator: "main PRs: #1 / release PR: #2" is two."""
    cuts = [m for m in _SEPARATOR.finditer(line) if label_at(line, m.end())]
    if not cuts:
        return [line]
    out, last = [], 0
    for m in cuts:
        out.append(line[last : m.start()].strip())
        last = m.end()
    out.append(line[last:].strip())
    return [s for s in out if s]
