"""Read cherry-pick request comments of the release tracker issue into ``PickRequest``s.

A request has three fields (trunk PR, release PR, category), each opened by a label of the field
grammar (``pick_labels``: the synonyms of each field). A field's value is on the label's line, on
the bullet lines below it, or on the lines below it up to a blank line or the next label; other
"key:" lines ("Status:", "Issue fixed:") end a field. A "Reason:" is the category when no category
label says it, and a bare criteria line ("Critical fix for ...") is the category when no label does.
The template's own wording makes a template request; other labels make a free-form one, as do
task lists and prose ("could #N also be included in 2.5?"), whose sentences are kept so a person
confirms the reading. PRs no word places are kept as mentioned. Replies, questions, quotes of
someone else's text and bot messages are not requests; a comment that is nothing but a quote is
read as what it quotes. People write every which way, so the parser is forgiving and never
raises: the body is always stored verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any

from cockpit.domain.github import IssueComment
from cockpit.domain.picks import PickRequest, PRRef
from cockpit.domain.text import inert
from cockpit.services.pick_command import (  # re-exported: older callers import the command from here
    BOT_CLASSES as BOT_CLASSES,
)
from cockpit.services.pick_command import (
    CLASSES_NEEDING_FIXES as CLASSES_NEEDING_FIXES,
)
from cockpit.services.pick_command import (
    PickCommandError as PickCommandError,
)
from cockpit.services.pick_command import (
    bot_command as bot_command,
)
from cockpit.services.pick_command import (
    suggest_class as suggest_class,
)
from cockpit.services.pick_labels import CATEGORY, REASON, RELEASE, TRUNK, Label, heading_at, label_at, segments
from cockpit.services.pick_prose import (
    asks_for_picks,
    asks_in_release,
    is_list_item,
    not_a_request,
    prose_refs_at,
    sentence_at,
    sentences,
)
from cockpit.services.pick_text import (
    ANY_URL,
    BOLD,
    BRACKETED_HINT,
    BULLET,
    HINT,
    HINT_ONLY_PUNCTUATION,
    NA,
    fixes_refs,
    hints,
    issue_urls,
    mask_urls,
    note_hints,
    outside_urls,
    pull_refs_at,
    title_suffixes,
    unique,
)

# Comments longer than this are stored whole but only their head is read: real requests are short.
MAX_PARSE_CHARS = 100_000

# Extra "key:" lines people add below the fields; they end the field above them.
_EXTRA = re.compile(
    r"^\s*(?:[-*+]\s+)?" + BOLD + r"\s*(?P<key>issues?(?:\s+(?:fixed|link|resolved))?|fix(?:es|ed)?"
    r"|related\s+issues?|original\s+issue|note|warning|cc|status)\s*" + BOLD + r"\s*:"
    r"|^(?:fix(?:es|ed)?|closes|resolves)\s+(?:#\d|https?://)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^\s*(?:[-*+]\s+)?" + BOLD + r"(?P<num>\d{2,9})" + BOLD + r"\s*$")
_QUOTE = re.compile(r"(?:>\s?)+")
# What is left of a quoted line that holds only PR links once the links are blanked out.
_ONLY_REFS = re.compile(r"(?:[-*+]\s+)?(?:[\s,;&]|\band\b|(?<![\w/&.-])(?:[\w.-]+/[\w.-]+)?#\d{1,9}\b)*")
# The bot writes the category as "<Class> - <issue url>" (or "Docs - "): the link is the issue it fixes.
_BOT_CATEGORY = re.compile(r"(?P<cls>[A-Za-z][\w /]*?)\s+[-\u2013\u2014](?:\s+(?P<url>\S+))?\s*")
# A criteria class opening a line with no label above it: the category ("Critical fix for a crash ...").
_BARE_CATEGORY = re.compile(
    r"(?:[-*+]\s+)?(?:critical(?:\s+fix(?:es)?)?|regression(?:\s+fix(?:es)?)?|docs?|documentation(?:\s+fix(?:es)?)?"
    r"|fix(?:es)?\s+(?:for\s+)?(?:a\s+)?new\s+feature|fixnewfeature|release[\s-]only(?:\s+change)?"
    r"|(?:test|ci|build)(?:\s*/\s*(?:ci|test|build|infra))?\s+fix(?:es)?)\b",
    re.IGNORECASE,
)
_CONNECTOR_WORDS = frozenset({"", "issue", "issues", "issue fixed", "fix", "fixes", "fixed", "see", "for", "closes"})


def parse_request(comment: IssueComment, *, repository: str, release: str = "") -> PickRequest:
    """Parse one tracker comment; never raises. ``parsed`` is False when no request was found.

    PRs of ``repository`` get ``PRRef.repository == ""``; other repositories keep their name.
    Hints (merged, reverted, do not merge, closing, closed) come from text outside the fields.
    ``release`` (the tracker's version, "2.5.0"): a prose request naming a release by its number
    must name this one ("in 2.5"); without it any release number does.
    """
    body = comment.body if isinstance(comment.body, str) else ""
    unparsed = PickRequest(
        comment_id=comment.id,
        author=comment.author or "",
        body=body,
        parsed=False,
        created_at=comment.created_at,
        updated_at=comment.updated_at,
        html_url=comment.html_url or "",
    )
    try:
        return replace(unparsed, **{"parsed": True, **read_request(body[:MAX_PARSE_CHARS], repository or "", release)})
    except Exception:  # a comment must never break the pane; show it unparsed
        return unparsed


def parse_requests(comments: Iterable[IssueComment], *, repository: str, release: str = "") -> tuple[PickRequest, ...]:
    """Every comment of the tracker, in order, as a ``PickRequest`` (unparsed ones included)."""
    return tuple(parse_request(c, repository=repository, release=release) for c in comments)


@dataclass
class _Reading:
    """A comment's lines sorted into the fields their labels open, and the rest."""

    fields: dict[str, list[str]] = field(default_factory=lambda: {TRUNK: [], RELEASE: [], CATEGORY: [], REASON: []})
    template: bool = False  # a trunk or release label in the template's own wording
    outside: list[str] = field(default_factory=list)  # lines in no field, quotes left out
    unquoted: list[str] = field(default_factory=list)
    quotes: bool = False
    reasons: list[str] = field(default_factory=list)  # the lines of reason fields, also kept in ``outside``


def _lines(body: str) -> list[tuple[str, bool]]:
    """``(text, quoted)`` per line; one space per whitespace run keeps every pattern linear."""
    out = []
    for raw in body.splitlines():
        line = " ".join(raw.split())
        quote = _QUOTE.match(line)
        if quote:
            line = line[quote.end() :].strip()
        out += [(part, bool(quote)) for part in (segments(line) if line else [line])]
    return out


def _labels(lines: list[tuple[str, bool]]) -> list[Label | None]:
    """The label each line opens, if any (an extra "key:" line such as "Status:" opens none)."""
    return [(_short_line_label(line) if len(line) <= 200 else _line_label(line)) if line else None for line, _ in lines]


def _line_label(line: str) -> Label | None:
    return None if _EXTRA.match(line) else label_at(line)


# A tracker repeats its label lines in every request ("Link to release branch PR:", "Criteria
# Category:"); a short line's label is read once. Labels are immutable, so sharing them is safe.
_short_line_label = lru_cache(maxsize=4096)(_line_label)


def _read(lines: list[tuple[str, bool]], labels: list[Label | None], *, headings: bool) -> _Reading:
    reading = _Reading()
    current: str | None = None
    has_value = after_blank = inline = False
    for (line, quoted), label in zip(lines, labels, strict=True):
        reading.quotes |= quoted
        if not quoted:
            reading.unquoted.append(line)
        if label is None and headings and line and not _EXTRA.match(line):
            label = heading_at(line)
        if quoted and (label or current not in (TRUNK, RELEASE) or not _ONLY_REFS.fullmatch(mask_urls(line))):
            current = None  # a quote of someone else's text; only a quoted PR link under one's own label is read
            continue
        if label:
            current = label.field
            reading.template |= label.template and current != CATEGORY
            if label.rest:
                reading.fields[current].append(label.rest)
            if current == REASON and not quoted:
                reading.outside.append(line)  # as before reasons were labels: its text still tells hints and fixes
                reading.reasons.append(line)
            has_value = inline = bool(label.rest)
            after_blank = False
        elif current is None:
            reading.outside.append(line)
        elif not line:
            after_blank = has_value
        elif _EXTRA.match(line) or ((after_blank or inline) and not BULLET.match(line)):
            current = None
            if not quoted:
                reading.outside.append(line)
        else:
            reading.fields[current].append(line)
            if current == REASON and not quoted:
                reading.outside.append(line)
                reading.reasons.append(line)
            has_value, after_blank = True, False
    return reading


def read_request(body: str, repository: str, release: str = "") -> dict[str, Any]:
    """What a comment's text says, as ``PickRequest`` keyword arguments (``parsed``, ``trunk_prs``, ...).

    ``parse_request`` is the entry to use: it adds the comment's metadata and, should this ever
    raise on some text (a bug), still returns the comment as unparsed.
    """
    lines = _lines(body)
    if all(quoted for text, quoted in lines if text) and any(text for text, _ in lines):
        lines = [(text, False) for text, _ in lines]  # a quote with nothing added: read what it quotes
    labels = _labels(lines)
    reading = _read(lines, labels, headings=False)
    if reading.template:
        return _template_request(reading, repository)
    return _free_form_request(_read(lines, labels, headings=True), repository, release)


def _template_request(reading: _Reading, repository: str) -> dict[str, Any]:
    fields = reading.fields
    trunk_prs, trunk_issues, trunk_rest = _pull_refs(fields[TRUNK], repository)
    release_prs, release_issues, release_rest = _pull_refs(fields[RELEASE], repository, release=True)
    category, category_fixes, category_hints = _category(_category_lines(reading))
    trunk_na = not trunk_prs and bool(NA.match(trunk_rest))
    if not (trunk_prs or release_prs or trunk_na or category):
        # Fields left empty: the template pasted or quoted. Words but no PR: someone must read it.
        return {"parsed": False, "not_a_request": not any(fields.values())}
    outside_text = "\n".join(reading.outside)
    fixes = [*trunk_issues, *release_issues, *category_fixes, *fixes_refs(outside_text)]
    found_hints = [*hints(outside_text), *hints(trunk_rest), *hints(release_rest), *category_hints]
    return {
        "trunk_prs": trunk_prs,
        "release_prs": release_prs,
        "category": category,
        "trunk_na": trunk_na,
        "parsed": True,
        "hints": unique(found_hints),
        "fixes": unique(fixes),
    }


def _free_form_request(reading: _Reading, repository: str, version: str = "") -> dict[str, Any]:
    roles: dict[str, list[PRRef]] = {TRUNK: [], RELEASE: [], "": []}
    for name in (TRUNK, RELEASE):
        named = [(role, ref) for line in reading.fields[name] for role, ref in _field_refs(line, name, repository)]
        for role, ref in named:
            roles[role or name].append(ref)  # a word beside the PR ("release PR #5") beats the label above it
        if not named:
            roles[name] += [PRRef(int(m.group("num"))) for m in map(_BARE_NUMBER.match, reading.fields[name]) if m]
    labelled = any(roles.values())
    text = "\n".join(reading.unquoted)
    asks = asks_for_picks(text)
    reasons = set(reading.reasons)  # the category's text, whatever PRs it names
    prose: list[str] = []
    listed = False
    asking: dict[str, bool] = {}
    for line in reading.outside:
        if line in reasons:
            continue
        item = is_list_item(line)
        refs = prose_refs_at(line, repository)
        spans = sentences(line) if refs and not item else []
        for start, role, ref in refs:
            sentence = sentence_at(spans, start) if spans else ""
            if sentence and sentence not in asking:
                asking[sentence] = asks_in_release(sentence, version)
            if role or asks or item or asking.get(sentence, False):
                roles[role or ""].append(ref)
                listed |= item
                if sentence:
                    prose.append(sentence)
    trunk, release = unique(roles[TRUNK]), unique(roles[RELEASE])
    mentioned = tuple(ref for ref in unique(roles[""]) if ref not in trunk and ref not in release)
    first = next((line for line in reading.unquoted if line), "")
    trunk_rest = " ".join(mask_urls(line) for line in reading.fields[TRUNK])
    trunk_na = not trunk and bool(NA.match(trunk_rest))
    if not (trunk or release or mentioned):
        return {"parsed": False, "not_a_request": reading.quotes or not_a_request(first, text, roles_told=False)}
    asks_release = any(asking.get(sentence, False) for sentence in prose)
    if not_a_request(first, text, roles_told=bool(trunk or release), asks_release=asks_release):
        return {"parsed": False, "not_a_request": True}
    category, category_fixes, category_hints = _category(_category_lines(reading))
    return {
        "trunk_prs": trunk,
        "release_prs": release,
        "mentioned_prs": mentioned,
        "category": category,
        "trunk_na": trunk_na,
        "parsed": True,
        "free_form": True,
        "prose": () if labelled or listed else tuple(inert(s) for s in unique(prose)),
        "hints": unique([*category_hints, *(h for line in reading.unquoted for h in note_hints(line))]),
        "fixes": unique([*category_fixes, *(f for line in reading.unquoted for f in fixes_refs(line))]),
    }


def _field_refs(line: str, name: str, repository: str) -> list[tuple[str | None, PRRef]]:
    """The PRs of one line under a free-form label, with the role a word beside them gives; in a
    release field without the title suffixes (see ``title_suffixes``)."""
    found = prose_refs_at(line, repository)
    suffixes = title_suffixes(line, pull_refs_at(line, repository, min_digits=2)) if name == RELEASE else set()
    return [(role, ref) for start, role, ref in found if start not in suffixes]


def _category_lines(reading: _Reading) -> list[str]:
    """The category's lines: under a category label, else under a reason label, else the first bare
    criteria line outside the fields ("Critical fix for ..." below the PR fields)."""
    for lines in (reading.fields[CATEGORY], reading.fields[REASON]):
        if any(lines):
            return lines
    bare = next((line for line in reading.outside if _BARE_CATEGORY.match(line) and not pull_refs_at(line, "")), None)
    return [bare] if bare else []


def _pull_refs(lines: list[str], repository: str, *, release: bool = False) -> tuple[tuple[PRRef, ...], list[str], str]:
    """PR references of a template field, the issue links found there, and the leftover text.

    In the release field a ``(#N)`` beside the release PR's link is its title's suffix (the trunk
    PR it picks), not a second release PR.
    """
    prs: list[PRRef] = []
    issues: list[str] = []
    leftovers: list[str] = []
    for line in lines:
        issues += issue_urls(line)
        found = pull_refs_at(line, repository)
        suffixes = title_suffixes(line, found) if release else set()
        prs += [ref for start, _end, ref in found if start not in suffixes]
        leftovers.append(" ".join(_SHORT_REF_OR_URL.sub(" ", line).split()))
    if not prs:
        prs += [PRRef(int(m.group("num"))) for m in map(_BARE_NUMBER.match, lines) if m]
    return unique(prs), issues, "\n".join(x for x in leftovers if x)


_SHORT_REF_OR_URL = re.compile(ANY_URL.pattern + r"|(?<![\w/&.-])(?:[\w.-]+/[\w.-]+)?#\d{1,9}(?!\d)", re.IGNORECASE)


def _category(lines: list[str]) -> tuple[str, list[str], list[str]]:
    """The category text with its links kept, issue links written into it, and hints.

    The bot's ``Regression - <issue url>`` is the class alone (the link goes to the fixes); a line
    that is only a link ("Fixes <url>") is not category text.
    """
    fixes: list[str] = []
    found_hints: list[str] = []
    parts: list[str] = []
    for line in lines:
        fixes += issue_urls(line)
        text = BULLET.sub("", line, count=1)
        bot = _BOT_CATEGORY.fullmatch(text)
        if bot and (not bot.group("url") or issue_urls(bot.group("url"))):
            text = bot.group("cls")
        plain = ANY_URL.sub(" ", text)
        if HINT.search(plain) and not HINT.sub(" ", plain).strip(HINT_ONLY_PUNCTUATION):
            found_hints += hints(plain)  # a line of only "merged" / "REVERTED" under the category
            continue
        here: list[str] = []
        text = outside_urls(text, partial(_without_hints, found=here))
        found_hints += here
        text = " ".join(text.split()).strip(" -\u2013\u2014:,;")
        if " ".join(re.split(r"\W+", ANY_URL.sub(" ", text).casefold())).strip() not in _CONNECTOR_WORDS:
            parts.append(text)  # a line of only links ("Fixes <url>") is no category text
    return "; ".join(unique(parts)), fixes, found_hints


def _without_hints(piece: str, found: list[str]) -> str:
    """A piece of category text without its bracketed or shouted hints (collected into ``found``)."""
    for m in BRACKETED_HINT.finditer(piece):
        found += hints(m.group(0))
    piece = BRACKETED_HINT.sub(" ", piece)
    found += [h for m in HINT.finditer(piece) if m.group(0).isupper() for h in hints(m.group(0))]
    piece = HINT.sub(lambda m: " " if m.group(0).isupper() else m.group(0), piece)
    return re.sub(r"[(\[]\s*[)\]]", " ", piece).replace("**", " ")
