"""Finding a release's issues and PRs by the title forms the release team really uses.

A form is a title with placeholders: ``{version}`` (``2.5.1``) and ``{version_short}`` (``2.5``), such as
``[v.{version}] Release Tracker`` or ``Release {version_short} go live. Update release matrix``. A title
matches a form when they agree ignoring case and runs of spaces; a trailing `` (#N)`` (the merge bot's
suffix) is allowed, and ``*`` stands for any text (the glob patterns older configs wrote, such as
``*{version}*validation*``, keep working). The PyTorch forms are the profile's ``titles.*`` values; a
config may give its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")
_PLACEHOLDER = re.compile(r"\{(version|version_short)\}")


def short_version(version: str) -> str:
    """``2.5.1`` -> ``2.5``; a version without a second dot is returned as it is."""
    parts = version.split(".")
    return ".".join(parts[:2]) if len(parts) >= 2 else version


def form_pattern(form: str, version: str) -> re.Pattern[str]:
    """The regular expression a title must fully match to be ``form`` for ``version``.

    Raises ``ValueError`` naming an unknown placeholder (``{verison}``), so a misspelt override is
    reported rather than matching nothing.
    """
    unknown = [m for m in re.findall(r"\{(\w*)\}", form) if m not in ("version", "version_short")]
    if unknown:
        raise ValueError(
            f"title form {form!r}: unknown placeholder {{{unknown[0]}}} (use {{version}} or {{version_short}})"
        )
    values = {"version": version, "version_short": short_version(version)}
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(form):
        out.append(_literal(form[pos : m.start()]))
        out.append(re.escape(values[m.group(1)]))
        pos = m.end()
    out.append(_literal(form[pos:]))
    return re.compile(r"\s*" + "".join(out) + r"(?:\s*\(#\d+\))?\s*", re.IGNORECASE)


def _literal(text: str) -> str:
    """The fixed text of a form: words in order, any run of spaces between them; ``*`` any text."""
    if "*" in text:
        return ".*".join(_literal(part) for part in text.split("*"))
    words = text.split()
    if not words:
        return r"\s*" if text else ""
    lead = r"\s*" if text[0].isspace() else ""
    tail = r"\s*" if text[-1].isspace() else ""
    return lead + r"\s+".join(re.escape(w) for w in words) + tail


def matches_form(title: str, forms: Sequence[str], version: str) -> bool:
    """Whether ``title`` is one of ``forms`` for ``version``."""
    return any(form_pattern(form, version).fullmatch(title) for form in forms)


def filled(form: str, version: str) -> str:
    """``form`` with ``{version}`` and ``{version_short}`` written out for ``version`` (none: as it is)."""
    if not version:
        return form
    values = {"version": version, "version_short": short_version(version)}
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], form)


def described(forms: Sequence[str], version: str) -> str:
    """``'A' or 'B'``: the forms for ``version``, as a message names them."""
    return " or ".join(repr(filled(form, version)) for form in forms)


def search_words(form: str, version: str) -> str:
    """The fixed text of ``form`` for ``version`` as quoted search phrases (GitHub's issue search);
    the form itself filters what the search returns."""
    parts = [p.strip().replace('"', " ") for p in filled(form, version).split("*")]
    return " ".join(f'"{p}"' for p in parts if p.strip())


def newest_titled(items: Iterable[tuple[int, str, T]], forms: Sequence[str], version: str) -> T | None:
    """Of ``(number, title, item)`` triples, the item with the highest number whose title matches a form."""
    found = [(number, item) for number, title, item in items if matches_form(title, forms, version)]
    return max(found, key=lambda pair: pair[0])[1] if found else None
