"""The field grammar of a cherry-pick request: the labels each field is written with, and which
field a label names.

A request has three fields: the trunk PR, the release PR and the category. ``GRAMMAR`` declares,
for each, the words that name it and the labels real trackers use (the tracker's template says
"Link to landed trunk PR (if applicable):"; older and newer ones "landed master PR", "Link to
merged main PR", "Link to (a) cherry-pick PR"; the domain libraries "Original PR(s)", "Master PR",
"PR", "Backport PR (link)", "2.8 backport PR link", "Reason to backport", "Why"). A label is read
from its words, so every spelling made of the known words works, in any case, bold or bulleted,
with a release number in front, while a prose line that happens to hold a colon does not. A label
may also stand alone on its line without a colon ("Original PR link", the value on the lines
below) or, when it names a PR, be followed by the value without one ("Master PR #6263").

Where a field's value is (inline, bullets, the next lines up to the next label) is the parser's
business (``pick_parser``); the words alone are here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from cockpit.services.pick_text import BOLD

TRUNK, RELEASE, CATEGORY = "trunk", "release", "category"
REASON = "reason"
"""The field of a reason label ("Reason to backport:", "Why:"): the category of a comment that has
no category label, and plain text beside one that has (the template's "Criteria Category" wins)."""


@dataclass(frozen=True)
class FieldGrammar:
    """One field: the words that name it (any one of them does) and the labels seen on real trackers."""

    field: str
    words: frozenset[str]
    labels: tuple[str, ...]


# In this order: the first field whose words a label holds is the one it names ("Criteria category
# and reasons" is a category, "Reason to backport" a reason, "Link to landed master PR" trunk).
GRAMMAR = (
    FieldGrammar(
        CATEGORY,
        frozenset({"criteria", "category", "categories", "cat"}),
        ("Criteria Category", "Criteria category and reasons", "Category", "Cat"),
    ),
    FieldGrammar(
        REASON,
        frozenset({"reason", "reasons", "why", "justification"}),
        ("Reason", "Reason to backport", "Why", "Justification"),
    ),
    FieldGrammar(
        TRUNK,
        frozenset({"trunk", "main", "master", "upstream", "original", "landed"}),
        (
            "Link to landed trunk PR (if applicable)",
            "Link to landed master PR",
            "landed master PR",
            "Link to merged main PR",
            "Link to landed main PR",
            "Original PR(s)",
            "Original PR link",
            "Master PR",
            "main PR",
            "main PRs",
            "upstream PR",
            "PR",
        ),
    ),
    FieldGrammar(
        RELEASE,
        frozenset({"release", "cherry", "cherrypick", "cherrypicks", "pick", "picks", "backport", "backports"}),
        (
            "Link to release branch PR",
            "Link to a cherry-pick PR",
            "Link to cherry-pick PR",
            "Backport PR (link)",
            "Backport PR",
            "Backport link",
            "Cherry-pick (PR)",
            "Cherry pick PR",
            "Cherrypick",
            "2.8 backport PR link",
            "release PR",
        ),
    ),
)
_WORDS = {g.field: g.words for g in GRAMMAR}
# "PR:" or "Pull request:" alone names the PR to pick: the trunk PR.
_PR_ONLY = frozenset({"pr", "prs", "pull", "request", "requests"})
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
        "if",
        "applicable",
        "optional",
        "url",
        "urls",
        "merged",
    }
)
_VOCABULARY = frozenset().union(*_WORDS.values(), _FILLER)
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
            "original",
        }
    )
    | _WORDS[CATEGORY]
    | _WORDS[REASON]
)
# A label without a colon is followed by its value only when it names a PR ("Master PR #6263");
# "cherry pick #12" is a verb, not a label.
_NOUNS = frozenset({"pr", "prs", "link", "links", "pull"})
_RELEASE_NUMBER = r"(?:\[?v?\d{1,3}(?:\.\d{1,3}){1,2}(?:\.x)?\]?\s+)?"
_NAME = _RELEASE_NUMBER + r"(?P<key>[A-Za-z][A-Za-z()/ -]{0,80}?)"
_KEY = re.compile(r"(?:[-*+]\s+)?(?:#{1,6}\s+)?" + BOLD + r"\s*" + _NAME + r"\s*" + BOLD + r"\s*:\s*" + BOLD)
_BARE_KEY = re.compile(
    r"(?:[-*+]\s+)?(?:#{1,6}\s+)?" + BOLD + r"\s*" + _NAME + r"\s*" + BOLD + r"(?:\s*$|\s+(?P<value>(?=#\d|https?://)))"
)
# A line that only introduces what follows ("Main PRs to pick this week:"), read only in free-form comments.
_HEADING = re.compile(
    r"(?:[-*+]\s+)?(?:#{1,6}\s+)?" + BOLD + r"\s*(?P<key>[^:#]{1,120}?)\s*" + BOLD + r"\s*:\s*" + BOLD + r"\s*$"
)
_HEADING_RELEASE = re.compile(r"\b(?:release(?:\s+branch)?|cherry\s?picks?|backports?)\s+(?:prs?|pull\s+requests?)\b")
_FIRST_WORD = re.compile(r"[-*+#_\s]*\[?v?(\d|[A-Za-z]+)")
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
    for grammar in GRAMMAR:
        if grammar.words.intersection(words):
            return grammar.field
    return TRUNK if words and _PR_ONLY.intersection(words) and set(words) <= _PR_ONLY | _FILLER else None


def _named(words: list[str]) -> str | None:
    """The field a label made of ``words`` names, or None when they are not a label's words."""
    if words and set(words) <= _VOCABULARY and _DECIDING.intersection(words):
        return _field(words)
    return None


def label_at(line: str, pos: int = 0, *, headings: bool = False) -> Label | None:
    """The label starting at ``pos`` of ``line``, or None.

    A label is made only of the known words ("main PR", "Link to a cherry-pick PR (if applicable)").
    At the start of a line it may go without its colon when nothing follows it or a PR follows it.
    With ``headings`` a line ending in a colon also counts when its words say trunk ("main"),
    release PR ("release PRs", "cherry-pick PRs") or category.
    """
    m = _KEY.match(line, pos)
    if m:
        words = _words(m.group("key"))
        field = _named(words)
        if field:
            template = words[:2] == ["link", "to"] or "criteria" in words
            return Label(field, template, line[m.end() :].strip())
    if pos == 0 and _may_be_bare(line):
        bare = _bare_label(line)
        if bare:
            return bare
    return heading_at(line) if headings and pos == 0 else None


def heading_at(line: str) -> Label | None:
    """A line that introduces what follows ("Main PRs to pick this week:") read as the label of
    the field its words say: trunk ("main"), release PR ("release PRs", "cherry-pick PRs") or category."""
    h = _HEADING.match(line)
    key = " ".join(_words(h.group("key"))) if h else ""
    if key and len(key.split()) <= 12:
        if _WORDS[CATEGORY].intersection(key.split()):
            return Label(CATEGORY, False, "")
        if _WORDS[TRUNK].intersection(key.split()):
            return Label(TRUNK, False, "")
        if _HEADING_RELEASE.search(key):
            return Label(RELEASE, False, "")
    return None


def _may_be_bare(line: str) -> bool:
    """A cheap look before ``_BARE_KEY``: a label alone ends in a letter, ")" or bold, one with a
    value holds a PR reference, and either starts with a word of the grammar (or a release number).
    Most lines fail one of these and need no further regular expression."""
    if not (line[-1:].isalpha() or line[-1:] in ")*_" or "#" in line or "http" in line):
        return False
    first = _FIRST_WORD.match(line)
    return first is not None and (first.group(1)[0].isdigit() or first.group(1).casefold() in _VOCABULARY)


def _bare_label(line: str) -> Label | None:
    """A label without its colon: alone on its line ("Original PR link"), or naming a PR and
    followed by one ("Master PR #6263", "Backport PR https://...")."""
    m = _BARE_KEY.match(line)
    if not m:
        return None
    words = _words(m.group("key"))
    if m.group("value") is not None and (len(words) < 2 or not _NOUNS.intersection(words)):
        return None
    field = _named(words)
    if not field:
        return None
    template = words[:2] == ["link", "to"] or "criteria" in words
    return Label(field, template, line[m.end() :].strip())


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
