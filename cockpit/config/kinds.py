"""The kinds of value a key of ``cockpit.toml`` may hold, and ``key``, which declares one key of the schema.

A kind reads one TOML value: it checks it, makes its text inert (``cockpit.domain.text``) and returns what
the cockpit uses, or raises the one-line error naming the key and what was expected. ``expected`` is the
same words in the error, the README's reference and the ``cockpit init`` comments.

Kinds and ``Key`` are plain slotted classes, not dataclasses: they are made once, at import, and each
dataclass would cost the first screen its generated methods.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import MISSING, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

from cockpit.config.where import Where
from cockpit.domain.release import is_valid_version
from cockpit.domain.text import inert

_PLACEHOLDER = re.compile(r"\{(\w*)\}")


class Kind:
    """One kind of value; subclasses set ``expected`` and override ``read``."""

    __slots__ = ()
    expected = "a value"
    described = ""  # what the reference says is expected, when the error's words are too short for it

    def read(self, where: Where, key: str, value: Any) -> Any:
        """``value`` checked and converted; a ConfigError from ``where.fail`` otherwise."""
        return value


def typed(where: Where, key: str, value: Any, types: type | tuple[type, ...], expected: str) -> Any:
    """``value`` when it is one of ``types`` (TOML's true and false are not numbers here)."""
    allowed = types if isinstance(types, tuple) else (types,)
    if (isinstance(value, bool) and bool not in allowed) or not isinstance(value, allowed):
        raise where.fail(key, expected, value)
    return value


class Text(Kind):
    """A string, single-line unless ``multiline``; ``nonempty`` for a key that must say something."""

    __slots__ = ("multiline", "nonempty", "trim")
    expected = "a string"

    def __init__(
        self, nonempty: bool = False, multiline: bool = False, trim: Callable[[str], str] | None = None
    ) -> None:
        self.nonempty = nonempty
        self.multiline = multiline
        self.trim = trim

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = inert(typed(where, key, value, str, "a string"), multiline=self.multiline)
        if self.nonempty and not text.strip():
            raise where.fail(key, "a non-empty string", text)
        return self.trim(text) if self.trim else text


class Repository(Kind):
    """``owner/name`` on GitHub."""

    __slots__ = ("nonempty",)
    expected = "'owner/name'"

    def __init__(self, nonempty: bool = False) -> None:
        self.nonempty = nonempty

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text(self.nonempty).read(where, key, value)
        if text.count("/") != 1 or not all(text.split("/")):
            raise where.fail(key, "'owner/name'", text)
        return text


class Version(Kind):
    """A release version, X.Y.Z."""

    __slots__ = ("example",)

    def __init__(self, example: str = "2.5.0") -> None:
        self.example = example

    @property
    def expected(self) -> str:  # type: ignore[override]
        return f"a release version like '{self.example}'"

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text(nonempty=True).read(where, key, value)
        if not is_valid_version(text):
            raise where.fail(key, self.expected, text)
        return text


class Choice(Kind):
    """One of a few words."""

    __slots__ = ("options",)

    def __init__(self, options: tuple[str, ...]) -> None:
        self.options = options

    @property
    def expected(self) -> str:  # type: ignore[override]
        return " or ".join(repr(option) for option in self.options)

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text().read(where, key, value)
        if text not in self.options:
            raise where.fail(key, self.expected, text)
        return text


class Number(Kind):
    """A number at least ``minimum``; an ``integer`` is truncated, as the cockpit always did."""

    __slots__ = ("integer", "minimum")

    def __init__(self, minimum: float = 0.0, integer: bool = False) -> None:
        self.minimum = minimum
        self.integer = integer

    @property
    def expected(self) -> str:  # type: ignore[override]
        return f"a number >= {self.minimum:g}"

    def read(self, where: Where, key: str, value: Any) -> Any:
        number = float(typed(where, key, value, (int, float), "a number"))
        if number < self.minimum:
            raise where.fail(key, self.expected, number)
        return int(number) if self.integer else number


class Flag(Kind):
    """``true`` or ``false``."""

    expected = "true or false"

    def read(self, where: Where, key: str, value: Any) -> Any:
        return typed(where, key, value, bool, self.expected)


class Texts(Kind):
    """A list of strings, kept in order."""

    expected = "a list of strings"

    def read(self, where: Where, key: str, value: Any) -> Any:
        items = typed(where, key, value, list, self.expected)
        if not all(isinstance(item, str) for item in items):
            raise where.fail(key, self.expected, items)
        return tuple(inert(item) for item in items)


class TitleForms(Kind):
    """The forms of a title: one string or a list of them, each with ``{version}`` and ``{version_short}``
    (matched ignoring case; ``*`` any text). A single string, as older configs wrote it, is a list of one."""

    expected = "a title form or a list of them (placeholders: {version}, {version_short})"

    def read(self, where: Where, key: str, value: Any) -> Any:
        items = [value] if isinstance(value, str) else typed(where, key, value, list, self.expected)
        if not items or not all(isinstance(item, str) and item.strip() for item in items):
            raise where.fail(key, self.expected, value)
        for item in items:
            unknown = [p for p in _PLACEHOLDER.findall(item) if p not in ("version", "version_short")]
            if unknown:
                raise where.fail(key, "title forms using only {version} and {version_short}", item)
        return tuple(inert(item.strip()) for item in items)


class Milestone(Kind):
    """A milestone's number or its title."""

    expected = "a milestone number or title"

    def read(self, where: Where, key: str, value: Any) -> Any:
        milestone = typed(where, key, value, (int, str), self.expected)
        return inert(milestone) if isinstance(milestone, str) else milestone


class IssueNumber(Kind):
    """An issue's number."""

    expected = "an issue number"

    def read(self, where: Where, key: str, value: Any) -> Any:
        return typed(where, key, value, int, self.expected)


class Day(Kind):
    """A day: an ISO date string or a TOML date, never a time."""

    __slots__ = ("expected",)

    def __init__(self, expected: str = 'an ISO date like "2026-12-10"') -> None:
        self.expected = expected

    def read(self, where: Where, key: str, value: Any) -> Any:
        value = typed(where, key, value, (str, date), self.expected)
        if isinstance(value, datetime):
            raise where.fail(key, self.expected + " (a day, not a time)", value.isoformat())
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            raise where.fail(key, self.expected, value) from None


class Deadline(Kind):
    """A moment: a date means ``at`` o'clock in ``zone`` that day (the PyTorch profile's end of the working
    day, 5 PM Pacific); a date-time without a zone is UTC."""

    __slots__ = ("at", "zone")
    expected = "an ISO date or date-time such as 2026-09-21 or 2026-09-21T17:00:00Z"

    def __init__(self, at: str = "23:59:59", zone: str = "UTC") -> None:
        self.at = time.fromisoformat(at)
        self.zone = zone

    def read(self, where: Where, key: str, value: Any) -> Any:
        value = typed(where, key, value, (str, date, datetime), self.expected)
        if isinstance(value, str):
            text = value.strip()
            try:
                value = datetime.fromisoformat(text) if "T" in text or " " in text else date.fromisoformat(text)
            except ValueError:
                raise where.fail(key, self.expected, value) from None
        if not isinstance(value, datetime):
            from zoneinfo import ZoneInfo

            return datetime.combine(value, self.at, tzinfo=ZoneInfo(self.zone))
        return value if value.tzinfo else value.replace(tzinfo=UTC)


class FilePath(Kind):
    """A path, absolute or relative to the config's folder; "" (when allowed) means none."""

    __slots__ = ("expand_user", "nonempty")
    expected = "a string"
    described = "a path: absolute, or relative to this file"

    def __init__(self, nonempty: bool = False, expand_user: bool = False) -> None:
        self.nonempty = nonempty
        self.expand_user = expand_user

    def read(self, where: Where, key: str, value: Any) -> Any:
        text = Text(self.nonempty).read(where, key, value)
        if not text:
            return None
        path = Path(text).expanduser() if self.expand_user else Path(text)
        return path if path.is_absolute() else where.folder / path


class Retired(Kind):
    """A key the cockpit no longer reads: a warning saying why, never an error (old configs keep loading)."""

    __slots__ = ("why",)
    expected = "nothing (no longer used)"

    def __init__(self, why: str) -> None:
        self.why = why

    def read(self, where: Where, key: str, value: Any) -> Any:
        where.warn(f"key '{where.dotted(key)}' is no longer used and is ignored: {self.why}")
        return ""


class KeyStrings(Kind):
    """``[keymap]``: binding id = key (``"app.refresh" = "ctrl+r"``, ``""`` unbinds)."""

    expected = "a table"
    described = "a table: binding id = key"

    def read(self, where: Where, key: str, value: Any) -> Any:
        table, inner = typed(where, key, value, dict, self.expected), where.child(key)
        for name, bound in table.items():
            if not isinstance(bound, str):
                raise inner.fail(name, "a key string such as 'ctrl+r' (or \"\" to unbind)", bound)
        return {inert(name): inert(bound) for name, bound in table.items()}


REQUIRED: Any = MISSING


class Key:
    """What the schema says about one key: its kind, what it means, and how to show it.

    ``toml``: its name in the file when the field's differs; ``default_text``: the default in words when
    it is worked out from other keys (the field's default is then None); ``example``: a value to show
    where the key has no default worth showing.
    """

    __slots__ = ("default_text", "doc", "example", "kind", "toml")

    def __init__(self, kind: Kind, doc: str, toml: str = "", default_text: str = "", example: Any = None) -> None:
        self.kind, self.doc, self.toml, self.default_text, self.example = kind, doc, toml, default_text, example


def key(
    kind: Kind,
    doc: str,
    *,
    default: Any = REQUIRED,
    factory: Callable[[], Any] | None = None,
    toml: str = "",
    default_text: str = "",
    example: Any = None,
) -> Any:
    """A dataclass field that is a key of ``cockpit.toml`` (no default: the key is required)."""
    metadata = {"key": Key(kind, doc, toml, default_text, example)}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)
