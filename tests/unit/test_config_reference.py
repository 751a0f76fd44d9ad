"""The README's configuration reference is what the schema says: a key added, renamed or given a new
default in ``cockpit/config/`` shows up there, or this test says how to write it."""

from __future__ import annotations

from pathlib import Path

from cockpit.config.document import Document
from cockpit.config.reference import END, START, reference
from cockpit.config.tables import Lazy, Table, Tables, walk

README = Path(__file__).parents[2] / "README.md"


def test_the_readme_reference_is_the_one_the_schema_writes():
    text = README.read_text(encoding="utf-8")
    assert START in text and END in text, "the README's configuration section has the reference markers"
    written = text[text.index(START) : text.index(END) + len(END)]
    assert written == reference(), "run: python -m cockpit.config.reference --write"


def test_every_key_of_the_schema_is_in_the_reference_and_explained():
    text = reference()
    for header, _schema, key in walk(Document):
        dotted = f"{header}.{key.name}" if header else key.name
        shown = (f"`[{dotted}]`", f"`[[{dotted}]]`") if isinstance(key.key.kind, Table | Tables | Lazy) else ()
        shown += (f"| `{key.name}` |",) if header else (f"`[{dotted}]`",)  # a top-level key is a table
        assert any(s in text for s in shown), f"{dotted} is not in the reference"
        assert key.key.doc.strip(), f"{header}.{key.name} has no meaning written beside it"
