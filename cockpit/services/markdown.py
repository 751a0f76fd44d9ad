"""Outside text made safe to paste into GitHub: the one escaper and capper every Markdown output uses.

A report pasted into the tracker must show what titles, names and messages say and do nothing
else. Each outside string goes through ``md_text`` (or ``md_code``, ``md_login``, ``md_link``):

- one line (whitespace runs, newlines included, become one space), so it cannot end a table row,
  open a list or start a heading;
- capped at ``FIELD_LIMIT`` characters (a 100 KB title shows its first 300 and ``… (cut)``);
- Markdown punctuation that could build something (``\\ ` * _ [ ] ( ) ! | ~ $``) is
  backslash-escaped, so no link, image, emphasis, strike-through, code span or math is made from
  outside text; a leading heading or list marker (``# ``, ``- ``, ``+ ``, ``1. ``) is escaped too;
- HTML is shown, never interpreted: ``&``, ``<`` and ``>`` become ``&amp;``, ``&lt;``, ``&gt;``
  (no ``<img onerror>``, ``<script>``, ``<details>`` and no entity trickery such as ``&#64;``);
- an ``@mention`` (``@login``, ``@org/team``) is put in a code span: it reads as the name it is,
  and GitHub does not notify anyone about text in code. A backslash would not do (GitHub finds
  mentions after Markdown is rendered, so ``\\@alice`` still pings) and an invisible joiner would
  hide what was done.

``cap_comment`` keeps a whole document under GitHub's 65,536-character comment limit, cutting at
a line and saying so in a last line that starts with ``… (cut)``.
"""

from __future__ import annotations

import re
from typing import Any

FIELD_LIMIT = 300  # a title, a name, a subject
SENTENCE_LIMIT = 1000  # a gate summary or an error: our words around outside text
GITHUB_COMMENT_LIMIT = 65_536
COMMENT_LIMIT = 65_000  # what a document may use: room left for a line a caller wraps around it
CUT = "… (cut)"

_MENTION = re.compile(r"(?<![A-Za-z0-9])@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][A-Za-z0-9_.-]*)?")
_ESCAPES = str.maketrans(
    {
        **{c: "\\" + c for c in "\\`*_[]()!|~$"},
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
    }
)
_LEADING_MARK = re.compile(r"^(?:#{1,6}|[-+]|\d{1,9}(?=\.))(?= |\.? |\.?$)")
_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in " \"'()<>[]\\`|"})


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def _capped(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[:limit].rstrip(), True


def _escape(text: str) -> str:
    parts, last = [], 0
    for match in _MENTION.finditer(text):
        parts.append(text[last : match.start()].translate(_ESCAPES))
        parts.append(f"`{match.group()}`")
        last = match.end()
    parts.append(text[last:].translate(_ESCAPES))
    return "".join(parts)


def md_text(text: Any, *, limit: int = FIELD_LIMIT) -> str:
    """``text`` as inert inline Markdown: one line, at most ``limit`` characters, nothing active.

    Safe inside a table cell, a list item or emphasis; see the module docstring for the rules.
    """
    line, cut = _capped(_one_line(text), limit)
    escaped = _escape(line)
    if _LEADING_MARK.match(escaped):  # a heading or list marker, should the text ever start a line
        escaped = re.sub(r"^(\d+)", r"\1\\", escaped) if escaped[0].isdigit() else "\\" + escaped
    return f"{escaped} {CUT}" if cut else escaped


def md_code(text: Any, *, limit: int = FIELD_LIMIT) -> str:
    """``text`` (a sha, a file name, a branch) as a code span, shown verbatim and pinging nobody.

    Backquotes and pipes are dropped (neither occurs in the names this is for, and either would
    end the span or the table cell); an empty name is shown as ``(none)``.
    """
    line, cut = _capped(_one_line(str(text).replace("`", "").replace("|", "")), limit)
    span = f"`{line}`" if line else "`(none)`"
    return f"{span} {CUT}" if cut else span


def md_login(name: Any) -> str:
    """A GitHub login as a code span (``@alice`` in code): shown, but no notification is sent."""
    login = _one_line(name).replace(" ", "").lstrip("@")
    return md_code(f"@{login}", limit=60) if login else "`(unknown)`"


def md_link(label: str, url: Any) -> str:
    """``label`` (Markdown the caller made: its own words, or ``md_text`` of outside text) linked to
    ``url`` when that is an http(s) URL, with nothing in it that could end the link early; any
    other URL (``javascript:``, ``data:``, empty, absurdly long) leaves the label unlinked."""
    target = _one_line(url)
    if not re.match(r"https?://[^\s/]+", target, re.IGNORECASE) or len(target) > 2 * FIELD_LIMIT:
        return label
    return f"[{label}]({target.translate(_URL_UNSAFE)})"


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def cap_comment(markdown: str, *, limit: int = COMMENT_LIMIT, whole: str = "") -> str:
    """``markdown`` if it fits in ``limit`` characters, else its first lines and a ``… (cut)`` line.

    Lengths are counted in UTF-16 code units, which is never fewer than GitHub's count of
    characters. ``whole`` says where the uncut output is (e.g. "`cockpit report --format json`").
    """
    if _utf16_length(markdown) <= limit:
        return markdown
    where = f"; {whole} has all of it" if whole else ""
    note = f"\n{CUT}: this is longer than a GitHub comment may be ({GITHUB_COMMENT_LIMIT:,} characters){where}.\n"
    budget = limit - _utf16_length(note)
    head = markdown[:budget]
    while (excess := _utf16_length(head) - budget) > 0:  # characters beyond the BMP count twice
        head = head[:-excess]
    head = head[: head.rfind("\n") + 1] if "\n" in head else ""
    return head.rstrip("\n") + "\n" + note
