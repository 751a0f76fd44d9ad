"""Outside text made inert: what GitHub, git, the wheel index, PyPI or the config say is shown, never obeyed.

Every string from outside passes through ``inert`` once, where it enters the cockpit (the GitHub
transport's JSON decoding, the git adapter's parsers, the storage adapter, the config reader), so
no pane, detail view or CLI output can move the cursor, clear the screen, write the clipboard
(OSC 52), plant a hyperlink (OSC 8) or reorder what a line appears to say.

What a character becomes, everywhere (one rule, so a release manager learns it once):

- C0 controls (U+0000-U+001F) and DEL become their Unicode control picture, one cell wide and
  visibly not text: ESC is shown as ``␛``, NUL as ``␀``, BEL as ``␇``, DEL as ``␡``.
- Characters with no picture become their code point in angle brackets: the C1 controls
  (U+0080-U+009F, e.g. the one-byte CSI ``<U+009B>``), the bidirectional embeddings, overrides
  and isolates (U+202A-U+202E, U+2066-U+2069), the direction marks U+200E, U+200F, U+061C, and
  the line and paragraph separators U+2028/U+2029.
- A lone surrogate (which JSON can carry but no terminal or UTF-8 file can) becomes U+FFFD.
- Tabs are kept. Line ends: multi-line text (comment and PR bodies, commit messages) keeps
  ``\\n``; ``\\r\\n`` and a lone ``\\r`` become ``\\n``. Single-line text (titles, names,
  labels, refs) has its line ends turned into spaces, so one value stays one line.

Text with none of these characters is returned unchanged (the same object), cheaply.
"""

from __future__ import annotations

import json
import re
from typing import Any

_NO_PICTURE = "\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
# One pattern for both kinds of text (each compiled pattern costs the start-up some 5M instructions):
# single-line text is unsafe at the same characters plus "\n", which it turns into a space first.
_UNSAFE_MULTILINE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f{_NO_PICTURE}]")
_LINE_END = re.compile(r"\r\n?")

# Keys of a JSON answer whose text is meant to span lines (bodies, descriptions, messages).
MULTILINE_KEYS = frozenset({"body", "description", "message", "summary", "text"})


def _visible(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    return f"<U+{code:04X}>"


def _visible_or_space(match: re.Match[str]) -> str:
    return " " if match.group() in "\n\r" else _visible(match)


def inert(text: str, *, multiline: bool = False) -> str:
    """``text`` with every control, escape and direction-override character shown visibly.

    ``multiline`` keeps newlines (bodies, commit messages); otherwise they become spaces.
    See the module docstring for what each character becomes.
    """
    if multiline:
        if not _UNSAFE_MULTILINE.search(text):
            return text
        return _UNSAFE_MULTILINE.sub(_visible, _LINE_END.sub("\n", text))
    if "\n" not in text and not _UNSAFE_MULTILINE.search(text):
        return text
    return _UNSAFE_MULTILINE.sub(_visible_or_space, text.replace("\n", " "))


def inert_json(value: Any, key: str | None = None, *, multiline_keys: frozenset[str] = MULTILINE_KEYS) -> Any:
    """A decoded JSON (or TOML) value with every string, object keys included, made ``inert``.

    Strings under a key of ``multiline_keys`` keep their line breaks; all others are single-line.
    """
    if isinstance(value, str):
        return inert(value, multiline=key in multiline_keys)
    if isinstance(value, list):
        return [inert_json(v, key, multiline_keys=multiline_keys) for v in value]
    if isinstance(value, dict):
        return {
            (inert(k) if isinstance(k, str) else k): inert_json(
                v, k if isinstance(k, str) else None, multiline_keys=multiline_keys
            )
            for k, v in value.items()
        }
    return value


# In JSON text, what can decode to a character ``inert`` changes: an escape of a control (``\b``, ``\f``, ``\r``,
# ``\u0000``-``\u001f``, DEL), of a C1 control, a direction mark, a separator, an override, an isolate or a
# surrogate. (``\n`` is left to the walk below; ``\t`` is kept.) An escaped backslash before a ``u`` may match
# too: that only takes the slower road.
_UNSAFE_ESCAPE = re.compile(
    r"\\(?:[bfr]|u(?:00[01][0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]|061[cC]|200[eEfF]|202[89a-eA-E]|206[6-9]"
    r"|[dD][89a-fA-F][0-9a-fA-F]{2}))"
)


def inert_json_text(text: str) -> Any:
    """``inert_json(json.loads(text))``, made cheaper for the common answer: when the text itself carries no
    character ``inert`` changes, raw or escaped, the decoded strings need at most their line ends turned
    into spaces (single-line keys), and an answer with no ``\n`` escape needs nothing. Raises what
    ``json.loads`` raises."""
    data = json.loads(text)
    if _UNSAFE_MULTILINE.search(text) or _UNSAFE_ESCAPE.search(text):
        return inert_json(data)
    return _single_lines(data, None) if "\\n" in text else data


def _single_lines(value: Any, key: str | None) -> Any:
    """What ``inert_json`` makes of a value whose strings hold no unsafe character but ``\n``."""
    if isinstance(value, str):
        return value if key in MULTILINE_KEYS or "\n" not in value else value.replace("\n", " ")
    if isinstance(value, list):
        return [_single_lines(v, key) for v in value]
    if isinstance(value, dict):
        return {
            (k.replace("\n", " ") if isinstance(k, str) else k): _single_lines(v, k if isinstance(k, str) else None)
            for k, v in value.items()
        }
    return value


def is_inert(text: str, *, multiline: bool = True) -> bool:
    """Whether ``text`` holds nothing ``inert`` would change (tests and renderers can assert it)."""
    return not _UNSAFE_MULTILINE.search(text) and (multiline or "\n" not in text)
