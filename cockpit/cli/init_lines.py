"""TOML written by hand for ``cockpit init``, so that its comments survive: a string, a value, and a
key with the comment saying where its value came from (``# found: ...``) or commented out when
nothing was found.
"""

from __future__ import annotations

from cockpit.cli.init_discover import Found
from cockpit.domain.text import inert


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def found_note(found: Found) -> str:
    """The comment line saying where a value came from (one line, whatever the titles hold)."""
    return "# " + inert(found.note) if found.note else ""


def found_key(found: Found, key: str, value: str, unset: str) -> str:
    """The note, then ``key = value``; when nothing was found, ``# key = unset`` for the manager to fill."""
    line = f"# {key} = {unset}" if found.value is None else f"{key} = {value}"
    return "\n".join(filter(None, (found_note(found), line)))


def toml_value(value: int | str | None) -> str:
    """A number as it is, anything else as a TOML string."""
    return str(value) if isinstance(value, int) else toml_string(str(value or ""))


def binary_workflow(found: Found) -> str:
    """The ``binary_workflow`` key of a ``[[ci]]`` table, commented out when no wheel workflow was found."""
    if found.value:
        return f"{found_note(found)}\nbinary_workflow = {toml_string(found.value)}"
    return '# binary_workflow = "wheels"'
