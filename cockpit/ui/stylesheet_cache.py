"""Parsed stylesheets kept between starts: a start does not parse the same CSS again.

Textual parses every stylesheet on every start (the cockpit's ``.tcss`` files, the default CSS of
each widget class it shows): it compiles a dozen regular expressions to tokenise them, then builds
rule sets. Before the first frame that was about a quarter of the time from ``App.run`` to the
first paint (some 6 ms). A parsed rule set depends only on the CSS text, where it was read from,
the theme's variables and Textual's own code, so the cockpit keeps what it parsed in its cache
folder (``stylesheets/``, one file per set of variables) and reads it back on the next start.

What keeps this safe:

- An entry is found only by the whole CSS text, its location and flags, in the file made for the
  very same variables, by the same Textual files (their sizes and times) and Python version. A
  changed ``.tcss`` file, another theme or an upgrade is a miss: the CSS is parsed as usual.
- The file is read with an unpickler that builds nothing but Textual's CSS model classes and
  plain values (``_ALLOWED``); anything else, a truncated or foreign file, is a miss too, and the
  next save replaces the file. An entry is stored only after it was read back and gave the same
  rules, and only rules without errors are stored (CSS errors are reported by Textual as ever).
- Nothing is written in the middle of a frame: the app saves after its panes are mounted and when
  it closes, only when it parsed something new, atomically (temporary file, rename). The folder
  can be deleted at any time.
"""

from __future__ import annotations

import io
import logging
import os
import pickle
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

from textual.css.model import RuleSet, Selector
from textual.css.styles import Styles
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.layout import Layout

log = logging.getLogger(__name__)

FORMAT = 1
MAX_ENTRIES = 300  # per file: every widget class's default CSS and the cockpit's own, several times over
_PROTOCOL = 5

# (module, name) -> what the unpickler may build. Everything a parsed rule holds, found by parsing
# every Textual widget's default CSS (tests/unit/test_stylesheet_cache.py checks that they all keep).
_ALLOWED = {
    ("textual.css.model", "RuleSet"),
    ("textual.css.model", "SelectorSet"),
    ("textual.css.model", "Selector"),
    ("textual.css.model", "CombinatorType"),
    ("textual.css.model", "SelectorType"),
    ("textual.color", "Color"),
    ("textual.css.scalar", "Scalar"),
    ("textual.css.scalar", "ScalarOffset"),
    ("textual.css.scalar", "Unit"),
    ("textual.css.transition", "Transition"),
    ("textual.geometry", "Spacing"),
    ("textual.layouts.grid", "GridLayout"),
    ("textual.layouts.horizontal", "HorizontalLayout"),
    ("textual.layouts.vertical", "VerticalLayout"),
    ("textual.layouts.stream", "StreamLayout"),
    (__name__, "_styles"),
}

# The Textual files whose code decides what a parse gives: a changed one (an upgrade) is a new cache.
_TEXTUAL_FILES = ("__init__.py", "css/parse.py", "css/model.py", "css/styles.py", "css/_styles_builder.py")

Key = tuple[str, CSSLocation, bool, int, str]


def _styles(rules: dict[str, Any], important: set[str]) -> Styles:
    """A parsed rule's styles (Textual's ``Styles`` keeps bound methods of its dict, which pickle badly)."""
    return Styles(_rules=rules, important=important)  # type: ignore[arg-type]


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is Styles:
            if obj.node is not None:
                raise pickle.PicklingError("styles of a widget, not of a parsed rule")
            return _styles, (dict(obj._rules), set(obj.important))
        if kind is Selector:  # rebuilt by its constructor, which makes its check function
            return Selector, (obj.name, obj.combinator, obj.type, set(obj.pseudo_classes), obj.specificity, obj.advance)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a parsed stylesheet")
        return getattr(sys.modules[module] if module in sys.modules else __import__(module, fromlist=[name]), name)


def _loads(data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data)).load()


def _dumps(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=_PROTOCOL).dump(value)
    return buffer.getvalue()


def _signature(rule: RuleSet) -> tuple[Any, ...]:
    """All a rule is, for comparing a rule read back with the rule parsed."""
    selectors = tuple(
        (
            selector_set.specificity,
            tuple(
                (s.name, s.combinator, s.type, tuple(sorted(s.pseudo_classes)), s.specificity, s.advance)
                for s in selector_set.selectors
            ),
        )
        for selector_set in rule.selector_set
    )
    styles = rule.styles
    return (
        selectors,
        sorted((name, _comparable(value)) for name, value in styles._rules.items()),
        sorted(styles.important),
        rule.is_default_rules,
        rule.tie_breaker,
        sorted(rule.selector_names),
        sorted(rule.pseudo_classes),
        rule.errors,
    )


def _comparable(value: Any) -> Any:
    """A rule's value as compared: a layout (which has no equality of its own) by its name."""
    return ("layout", value.name) if isinstance(value, Layout) else value


def encode(rules: list[RuleSet]) -> bytes | None:
    """``rules`` as stored, or None if they would not come back the same (then they are not stored)."""
    try:
        data = _dumps(rules)
        back = _loads(data)
    except Exception:  # a value Textual's parser made that is not in _ALLOWED: parse it each time
        log.debug("a parsed stylesheet could not be stored", exc_info=True)
        return None
    if [_signature(rule) for rule in back] != [_signature(rule) for rule in rules]:
        return None
    return data


def decode(data: bytes) -> list[RuleSet] | None:
    """Stored rules, or None if they are damaged or hold anything but a parsed stylesheet."""
    try:
        rules = _loads(data)
    except Exception:
        return None
    if not isinstance(rules, list) or not all(isinstance(rule, RuleSet) for rule in rules):
        return None
    return rules


def _textual_signature() -> tuple[Any, ...]:
    import textual

    root = Path(textual.__file__).parent
    stamps: list[Any] = [sys.version_info[:2], FORMAT]
    for name in _TEXTUAL_FILES:
        try:
            stat = (root / name).stat()
        except OSError:
            stamps.append(None)
        else:
            stamps.append((name, stat.st_size, stat.st_mtime_ns))
    return tuple(stamps)


def _file_name(variables: dict[str, str]) -> str:
    """Which file holds the rules parsed under ``variables`` (the file holds them too, for comparing)."""
    return f"parsed-{zlib.crc32(repr(sorted(variables.items())).encode()):08x}.pickle"


class _Store:
    """One file: the entries parsed under one set of variables."""

    def __init__(self, path: Path, variables: dict[str, str], signature: tuple[Any, ...]) -> None:
        self.path = path
        self.variables = variables  # Textual replaces the dict when the variables change, never alters it
        self.signature = signature
        self.stored: dict[Key, bytes] = {}  # as read from the file
        self.used: dict[Key, bytes] = {}  # found by this process, in order of use
        self.parsed: dict[Key, list[RuleSet]] = {}  # parsed by this process, not stored yet
        self.new = False  # parsed here and not yet saved
        self._read()

    def _read(self) -> None:
        try:
            data = self.path.read_bytes()
        except OSError:
            return
        try:
            content = _Unpickler(io.BytesIO(data)).load()  # plain values only: dicts, tuples, strings, bytes
        except Exception:
            log.debug("ignoring an unreadable stylesheet cache %s", self.path, exc_info=True)
            return
        if (
            not isinstance(content, dict)
            or content.get("format") != FORMAT
            or content.get("textual") != self.signature
            or content.get("variables") != self.variables
            or not isinstance(content.get("entries"), dict)
        ):
            return
        self.stored = {
            key: value for key, value in content["entries"].items() if _is_key(key) and isinstance(value, bytes)
        }

    def find(self, key: Key) -> list[RuleSet] | None:
        data = self.stored.get(key)
        if data is None:
            return None
        rules = decode(data)
        if rules is None:
            del self.stored[key]
            self.new = True  # write the file again without it
            return None
        self.used[key] = data
        return rules

    def add(self, key: Key, rules: list[RuleSet]) -> None:
        """Keep rules parsed here, to be stored at the next save (encoded then, not during a frame)."""
        if key[1][0] == "" or any(rule.errors for rule in rules):  # CSS with no place lives once
            return
        self.parsed[key] = rules
        self.new = True

    def save(self) -> None:
        if not self.new:
            return
        for key, rules in self.parsed.items():
            data = encode(rules)
            if data is not None:
                self.used[key] = data
        self.parsed.clear()
        entries = dict(self.used)
        for key, data in self.stored.items():  # what other starts used, while there is room
            if len(entries) >= MAX_ENTRIES:
                break
            entries.setdefault(key, data)
        content = {"format": FORMAT, "textual": self.signature, "variables": self.variables, "entries": entries}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".parsed-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(content, out, protocol=_PROTOCOL)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stored = entries
        self.new = False


def _is_key(key: Any) -> bool:
    return (
        isinstance(key, tuple)
        and len(key) == 5
        and isinstance(key[0], str)
        and isinstance(key[1], tuple)
        and len(key[1]) == 2
        and all(isinstance(part, str) for part in key[1])
        and isinstance(key[2], bool)
        and isinstance(key[3], int)
        and isinstance(key[4], str)
    )


class CachedStylesheet(Stylesheet):
    """Textual's stylesheet, parsing each CSS source only if an earlier start did not (see the module)."""

    def __init__(self, folder: Path, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self.folder = folder
        self._stores: dict[str, _Store] = {}
        self._signature: tuple[Any, ...] | None = None
        self._last: _Store | None = None  # the store of the variables of the last parse

    def _store(self) -> _Store:
        variables = self._variables
        store = self._last
        if store is None or (store.variables is not variables and store.variables != variables):
            name = _file_name(variables)
            store = self._stores.get(name)
            if store is None or store.variables != variables:
                if self._signature is None:
                    self._signature = _textual_signature()
                store = self._stores[name] = _Store(self.folder / name, variables, self._signature)
            self._last = store
        return store

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        cache_key = (css, read_from, is_default_rules, tie_breaker, scope)
        try:
            return self._parse_cache[cache_key]
        except KeyError:
            pass
        store = self._store()
        rules = store.find(cache_key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            store.add(cache_key, rules)
        self._parse_cache[cache_key] = rules
        return rules

    def save(self) -> None:
        """Write what was parsed here and is not stored yet; a failure is logged, never raised."""
        for store in self._stores.values():
            try:
                store.save()
            except Exception as exc:  # a cache: the next start parses, as Textual always does
                log.info("could not save the parsed stylesheets in %s: %s", store.path, exc)
