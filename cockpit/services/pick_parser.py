"""Read cherry-pick request comments of the release tracker issue into ``PickRequest``s.

A request has three labelled fields ("Link to landed trunk PR (if applicable):", "Link to release
branch PR:", "Criteria Category:"), each followed by a value on the same line or by bullet lines.
People write them every which way, so the parser is forgiving and never raises: what it cannot
read is kept (the body is always stored verbatim) and shown as unparsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cockpit.domain.github import IssueComment
from cockpit.domain.picks import PickRequest, PRRef
from cockpit.errors import CockpitError

# Comments longer than this are stored whole but only their head is read: real requests are short.
MAX_PARSE_CHARS = 100_000

_BOLD = r"(?:\*\*|__)?"
_LABEL = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:#{1,6}\s+)?" + _BOLD + r"\s*(?:"
    r"(?P<trunk>link\s+to\s+(?:the\s+)?landed\s+(?:trunk|master|main)\s+(?:pr|pull\s+request)s?)"
    r"|(?P<release>link\s+to\s+(?:the\s+)?release\s+branch\s+(?:pr|pull\s+request)s?)"
    r"|(?P<category>criteria\s+category)"
    r")\s*(?:\((?:if\s+applicable|optional)\))?\s*" + _BOLD + r"\s*:\s*" + _BOLD + r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# Extra "key:" lines people add below the fields; they end the field above them.
_EXTRA = re.compile(
    r"^\s*(?:[-*+]\s+)?" + _BOLD + r"\s*(?P<key>issues?(?:\s+(?:fixed|link|resolved))?|fix(?:es|ed)?"
    r"|related\s+issues?|original\s+issue|note|warning|cc|reason|justification)\s*" + _BOLD + r"\s*:"
    r"|^(?:fix(?:es|ed)?|closes|resolves)\s+(?:#\d|https?://)",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*[-*+]\s+")
_GH_URL = re.compile(
    r"\b(?P<scheme>https?)://(?P<host>[^\s/]+)/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/(?P<kind>pulls?|issues)/"
    r"(?P<num>\d{1,9})(?!\d)[^\s)\]>]*",
    re.IGNORECASE,
)
_ANY_URL = re.compile(r"\bhttps?://[^\s)\]>]+", re.IGNORECASE)
_SHORT_REF = re.compile(r"(?<![\w/&.-])(?:(?P<repo>[\w.-]+/[\w.-]+))?#(?P<num>\d{1,9})(?!\d)")
_BARE_NUMBER = re.compile(r"^\s*(?:[-*+]\s+)?" + _BOLD + r"(?P<num>\d{2,9})" + _BOLD + r"\s*$")
_NA = re.compile(r"^\W*(?:n/?a|none|not\s+applicable)\b", re.IGNORECASE)
_FIXES_REF = re.compile(r"\b(?:fix(?:es|ed)?|closes|resolves)\s*:?\s*#(?P<num>\d{1,9})(?!\d)", re.IGNORECASE)
_HINT = re.compile(
    r"\b(?:(?P<dnm>do\s*n[o']?t[\s-]+merge|do-not-merge)|(?P<nm>not\s+merged)"
    r"|(?P<word>merged|reverted|closing|closed))\b",
    re.IGNORECASE,
)
_BRACKETED_HINT = re.compile(r"[(\[]\s*(?:" + _HINT.pattern + r")\s*[)\]]", re.IGNORECASE)
_CONNECTOR_WORDS = frozenset({"", "issue", "issues", "issue fixed", "fix", "fixes", "fixed", "see", "for", "closes"})

BOT_CLASSES = ("regression", "critical", "fixnewfeature", "docs", "release")
CLASSES_NEEDING_FIXES = frozenset({"regression", "critical", "fixnewfeature"})


class PickCommandError(CockpitError, ValueError):
    """The cherry-pick bot command cannot be composed from what was given."""

    title = "Cherry-pick"


def parse_request(comment: IssueComment, *, repository: str) -> PickRequest:
    """Parse one tracker comment; never raises. ``parsed`` is False when the template is absent.

    PRs of ``repository`` get ``PRRef.repository == ""``; other repositories keep their name.
    Hints (merged, reverted, do not merge, closing, closed) come from text outside the fields.
    """
    body = comment.body if isinstance(comment.body, str) else ""
    base = dict(
        comment_id=comment.id,
        author=comment.author or "",
        body=body,
        created_at=comment.created_at,
        updated_at=comment.updated_at,
        html_url=comment.html_url or "",
    )
    try:
        return PickRequest(**base, **_parse_body(body[:MAX_PARSE_CHARS], repository or ""))
    except Exception:  # noqa: BLE001 - a comment must never break the pane; show it unparsed
        return PickRequest(**base, parsed=False)


def parse_requests(comments: Iterable[IssueComment], *, repository: str) -> tuple[PickRequest, ...]:
    """Every comment of the tracker, in order, as a ``PickRequest`` (unparsed ones included)."""
    return tuple(parse_request(c, repository=repository) for c in comments)


def _parse_body(body: str, repository: str) -> dict:
    fields: dict[str, list[str]] = {"trunk": [], "release": [], "category": []}
    found: set[str] = set()
    outside: list[str] = []
    current: str | None = None
    has_value = after_blank = inline = False
    for raw in body.splitlines():
        # One space per whitespace run keeps every pattern below linear on hostile input.
        line = " ".join(raw.split())
        if line.startswith(">"):  # a quote of someone else's request
            current = None
            continue
        label = _LABEL.match(line)
        if label:
            current = next(k for k in fields if label.group(k))
            found.add(current)
            rest = label.group("rest").strip()
            if rest:
                fields[current].append(rest)
            has_value = inline = bool(rest)
            after_blank = False
            continue
        if current is None:
            outside.append(line)
        elif not line.strip():
            after_blank = has_value
        elif _EXTRA.match(line) or ((after_blank or inline) and not _BULLET.match(line)):
            current = None
            outside.append(line)
        else:
            fields[current].append(line.strip())
            has_value, after_blank = True, False

    if not found & {"trunk", "release"}:
        return {"parsed": False}

    trunk_prs, trunk_issues, trunk_rest = _pull_refs(fields["trunk"], repository)
    release_prs, release_issues, release_rest = _pull_refs(fields["release"], repository)
    category, category_fixes, category_hints = _category(fields["category"])
    outside_text = "\n".join(outside)
    fixes = [*trunk_issues, *release_issues, *category_fixes, *_issue_urls(outside_text)]
    fixes += [f"#{m.group('num')}" for m in _FIXES_REF.finditer(_ANY_URL.sub(" ", outside_text))]
    hints = [*_hints(outside_text), *_hints(trunk_rest), *_hints(release_rest), *category_hints]
    return {
        "trunk_prs": trunk_prs,
        "release_prs": release_prs,
        "category": category,
        "trunk_na": not trunk_prs and bool(_NA.match(trunk_rest)),
        "parsed": True,
        "hints": _unique(hints),
        "fixes": _unique(fixes),
    }


def _pull_refs(lines: list[str], repository: str) -> tuple[tuple[PRRef, ...], list[str], str]:
    """PR references of a field, the issue links found there, and the leftover text."""
    home = repository.casefold()
    prs: list[PRRef] = []
    issues: list[str] = []
    leftovers: list[str] = []
    for line in lines:
        found: list[tuple[int, PRRef]] = []
        for m in _GH_URL.finditer(line):
            repo = f"{m.group('owner')}/{m.group('repo')}"
            if m.group("kind").lower() == "issues":
                issues.append(_issue_url(m))
            else:
                found.append((m.start(), PRRef(int(m.group("num")), "" if repo.casefold() == home else repo)))
        text = _ANY_URL.sub(lambda m: " " * len(m.group(0)), line)  # keep positions for ordering
        for m in _SHORT_REF.finditer(text):
            repo = m.group("repo") or ""
            found.append((m.start(), PRRef(int(m.group("num")), "" if repo.casefold() == home else repo)))
        prs += [ref for _, ref in sorted(found, key=lambda pair: pair[0])]
        leftovers.append(" ".join(_SHORT_REF.sub(" ", text).split()))
    if not prs:
        for line in lines:
            bare = _BARE_NUMBER.match(line)
            if bare:
                prs.append(PRRef(int(bare.group("num"))))
    return _unique(prs), issues, "\n".join(x for x in leftovers if x)


def _category(lines: list[str]) -> tuple[str, list[str], list[str]]:
    """The category words, issue links written into it (the bot's ``Regression - URL``), and hints."""
    fixes: list[str] = []
    hints: list[str] = []
    parts: list[str] = []
    for line in lines:
        fixes += _issue_urls(line)
        text = _ANY_URL.sub(" ", _BULLET.sub("", line, count=1))
        if not _HINT.sub(" ", text).strip(" *_-\u2013\u2014:,;.!()[]"):
            hints += _hints(text)  # a line of only "merged" / "REVERTED" under the category
            continue
        for m in _BRACKETED_HINT.finditer(text):
            hints += _hints(m.group(0))
        text = _BRACKETED_HINT.sub(" ", text)
        for m in _HINT.finditer(text):
            if m.group(0).isupper():
                hints += _hints(m.group(0))
        text = _HINT.sub(lambda m: " " if m.group(0).isupper() else m.group(0), text)
        text = re.sub(r"[(\[]\s*[)\]]", " ", text)
        text = " ".join(text.replace("**", " ").split()).strip(" -\u2013\u2014:,;")
        if " ".join(re.split(r"\W+", text.casefold())).strip() not in _CONNECTOR_WORDS:
            parts.append(text)
    return "; ".join(_unique(parts)), fixes, hints


def _issue_url(m: re.Match[str]) -> str:
    return f"{m.group('scheme').lower()}://{m.group('host').lower()}/{m.group('owner')}/{m.group('repo')}/issues/{m.group('num')}"


def _issue_urls(text: str) -> list[str]:
    return [_issue_url(m) for m in _GH_URL.finditer(text) if m.group("kind").lower() == "issues"]


def _hints(text: str) -> list[str]:
    out = []
    for m in _HINT.finditer(_ANY_URL.sub(" ", text)):
        if m.group("dnm"):
            out.append("do not merge")
        elif m.group("nm"):
            out.append("not merged")
        else:
            out.append(m.group("word").lower())
    return out


def _unique(values: Iterable) -> tuple:
    return tuple(dict.fromkeys(values))


def suggest_class(category: str) -> str | None:
    """The bot's ``-c`` class a free-text category most likely means, or None when unclear."""
    text = " ".join(category.casefold().replace("-", " ").replace("_", " ").split())
    if "regression" in text:
        return "regression"
    if "critical" in text:
        return "critical"
    if "fixnewfeature" in text or "new feature" in text:
        return "fixnewfeature"
    if text.startswith("doc") or " doc" in text:
        return "docs"
    if "release" in text:
        return "release"
    return None


def bot_command(*, branch: str, category: str, fixes: str | None) -> str:
    """The comment that asks the bot to pick a merged trunk PR onto ``branch``.

    ``@pytorchbot cherry-pick --onto release/X.Y -c CLASS [--fixes URL]``. Raises
    ``PickCommandError`` (a ``ValueError``) for an unknown class, a malformed branch, or a
    regression/critical/fixnewfeature pick without an issue to name.
    """
    cls = "".join(category.casefold().split()).replace("-", "").replace("_", "")
    if cls not in BOT_CLASSES:
        raise PickCommandError(
            f"unknown cherry-pick class {category!r}: expected one of {', '.join(BOT_CLASSES)}"
        )
    branch = branch.strip()
    if not branch or any(ch.isspace() for ch in branch):
        raise PickCommandError(f"release branch {branch!r} is not a branch name: expected e.g. 'release/2.5'")
    fixes = (fixes or "").strip()
    if fixes and any(ch.isspace() for ch in fixes):
        raise PickCommandError(f"--fixes {fixes!r} must be one issue link without spaces")
    if cls in CLASSES_NEEDING_FIXES and not fixes:
        raise PickCommandError(
            f"a '{cls}' cherry-pick must name the issue it fixes: give the issue URL for --fixes, "
            "or choose 'docs' or 'release'"
        )
    command = f"@pytorchbot cherry-pick --onto {branch} -c {cls}"
    return f"{command} --fixes {fixes}" if fixes else command
