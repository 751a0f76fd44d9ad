"""The README's configuration reference, written from the schema (``document.Document`` and the classes
it names): every table and key, what is expected, the default and what it means.

    python -m cockpit.config.reference          # print it
    python -m cockpit.config.reference --write  # put it in README.md between its markers

``tests/unit/test_config_reference.py`` fails when the README's copy differs from what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cockpit.config.document import Document
from cockpit.config.kinds import Key
from cockpit.config.tables import Lazy, SchemaKey, Table, Tables, resolve, schema_keys

START = "<!-- config-reference:start (written by python -m cockpit.config.reference --write) -->"
END = "<!-- config-reference:end -->"


def toml_text(value: Any) -> str:
    """``value`` as it is written in ``cockpit.toml``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}"
    if isinstance(value, str):
        escaped = "".join(
            "\\" + c if c in '"\\' else f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in value
        )
        return f'"{escaped}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_text(k)} = {toml_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def default_text(k: SchemaKey) -> str:
    """The default as the reference shows it: a value, words, or "required"."""
    if k.key.default_text:
        return k.key.default_text
    if k.required:
        return "required"
    if k.default is None or isinstance(k.default, Path):
        return "none"
    if k.key.kind.expected == "a table":  # read into pairs: shown as the table it is written as
        return "`{" + ", ".join(f"{toml_text(a)} = {toml_text(b)}" for a, b in k.default) + "}`"
    if not isinstance(k.default, str | int | float | bool | tuple | list | dict):
        return "the defaults below"
    return f"`{toml_text(k.default)}`"


def _cell(text: str) -> str:
    """``text`` inside a Markdown table cell: one line, no column break, no HTML tag."""
    return " ".join(text.split()).replace("|", "\\|").replace("<", "&lt;")


def _summary(schema: type, declared: Key) -> str:
    """A table's meaning: its declaration's words, without the ``[name]:`` it starts with."""
    text = declared.doc or (schema.__doc__ or "")
    head, colon, rest = text.partition(": ")
    said = rest if colon and head.startswith("``") else text
    return _cell(said[:1].upper() + said[1:])


def _sections(schema: type, header: str, declared: Key, required: bool, array: bool) -> list[str]:
    name = f"[[{header}]]" if array else f"[{header}]"
    lines = [f"#### `{name}`{' (required)' if required else ''}", "", _summary(schema, declared), ""]
    rows, below = [], []
    for k in schema_keys(schema):
        kind = k.key.kind.kind if isinstance(k.key.kind, Lazy) else k.key.kind
        if isinstance(kind, Table | Tables):
            sub = resolve(kind.schema)
            below += _sections(sub, f"{header}.{k.name}", k.key, k.required, isinstance(kind, Tables))
            continue
        expected = kind.described or kind.expected
        rows.append(f"| `{k.name}` | {_cell(expected)} | {_cell(default_text(k))} | {_cell(k.key.doc)} |")
    if rows:
        lines += ["| key | expected | default | meaning |", "|---|---|---|---|", *rows, ""]
    return lines + below


def reference() -> str:
    """The whole reference, Markdown, between its markers."""
    lines = [START, ""]
    for k in schema_keys(Document):
        kind = k.key.kind.kind if isinstance(k.key.kind, Lazy) else k.key.kind
        if isinstance(kind, Table | Tables):
            lines += _sections(resolve(kind.schema), k.name, k.key, k.required, isinstance(kind, Tables))
        else:  # a table of free names ([keymap])
            lines += [f"#### `[{k.name}]`", "", _summary(Document, k.key), ""]
    return "\n".join([*lines, END])


def with_reference(readme: str) -> str:
    """``readme`` with the text between the markers replaced by the reference."""
    start, end = readme.index(START), readme.index(END) + len(END)
    return readme[:start] + reference() + readme[end:]


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        readme = Path(__file__).resolve().parents[2] / "README.md"
        readme.write_text(with_reference(readme.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(reference())
