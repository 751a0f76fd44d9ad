"""Reading a table of ``cockpit.toml`` into the dataclass that declares it: the one schema walker.

A schema class is a ``@dataclass(frozen=True, slots=True)`` whose fields made with ``kinds.key`` are the
table's keys (in the order the reference and ``cockpit init`` show them); other fields are not in the file.
A key absent from the file takes the field's default; a field without one is required. A schema class may
define ``problem()`` for what no single key can check (an end before its start): it returns
``(key, expected, got)`` or None.

An unknown key is a warning naming the nearest known one (``difflib``), so a typo never silently drops a
setting; in a ``Strict`` table (the ones that always refused unknown keys) it stays an error.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import MISSING, fields
from functools import cache
from typing import Any

from cockpit.config.kinds import Key, Kind, typed
from cockpit.config.where import Where


class Strict:
    """A table whose unknown keys are errors: ``expected one of <keys><suffix>`` (``sort``: the keys listed
    alphabetically, else in declared order), or what ``wording`` says."""

    __slots__ = ("sort", "suffix", "wording")

    def __init__(self, sort: bool = False, suffix: str = "", wording: str = "") -> None:
        self.sort, self.suffix, self.wording = sort, suffix, wording


class SchemaKey:
    """One key of a schema class: its field, its name in the file, its declaration and its default
    (``dataclasses.MISSING`` when the key is required)."""

    __slots__ = ("default", "field", "key", "name")

    def __init__(self, field: str, name: str, key: Key, default: Any) -> None:
        self.field, self.name, self.key, self.default = field, name, key, default

    @property
    def required(self) -> bool:
        return self.default is MISSING


@cache
def schema_keys(schema: type) -> tuple[SchemaKey, ...]:
    """The keys ``schema`` declares, in order."""
    out = []
    for f in fields(schema):
        declared = f.metadata.get("key")
        if declared is None:
            continue
        default = f.default if f.default_factory is MISSING else f.default_factory()
        out.append(SchemaKey(f.name, declared.toml or f.name, declared, default))
    return tuple(out)


def resolve(schema: type | str) -> type:
    """A schema class, or ``"module:Class"`` for one whose module loads only when the file has its table."""
    if isinstance(schema, type):
        return schema
    module, _, name = schema.partition(":")
    found: type = getattr(importlib.import_module(module), name)
    return found


def read_table(schema: type, where: Where, data: dict[str, Any], strict: Strict | None = None) -> Any:
    """``data`` (the table at ``where``) as an instance of ``schema``; ConfigError naming the first problem."""
    keys = schema_keys(schema)
    known = [k.name for k in keys]
    strangers = [name for name in data if name not in known]
    for name in strangers:
        unknown(where, name, known, strict)
    values = {}
    for k in keys:
        if k.name in data:
            values[k.field] = k.key.kind.read(where, k.name, data[k.name])
        elif k.required:
            typo = _near(k.name, strangers)
            hint = f" (is '{where.dotted(typo[0])}' a misspelling of it?)" if typo else ""
            raise where.missing(k.name, k.key.kind.expected + hint)
    made = schema(**values)
    check = getattr(made, "problem", None)
    if check is not None and (problem := check()) is not None:
        raise where.fail(*problem)
    return made


def _near(name: str, candidates: list[str]) -> list[str]:
    """The candidate closest to ``name``, if any is close (difflib loads only then: it costs the start-up)."""
    if not candidates:
        return []
    import difflib

    return difflib.get_close_matches(name, candidates, n=1)


def unknown(where: Where, name: str, known: list[str], strict: Strict | None) -> None:
    """An unknown key: an error in a strict table, else a warning naming the nearest known key."""
    if strict is not None:
        listed = sorted(known) if strict.sort else known
        raise where.fail(name, strict.wording or f"one of {', '.join(listed)}{strict.suffix}")
    near = _near(name, known)
    hint = f"did you mean '{where.dotted(near[0])}'?" if near else f"the known keys here are {', '.join(known)}"
    where.warn(f"unknown key '{where.dotted(name)}' is ignored; {hint}")


class Table(Kind):
    """A sub-table read into its schema class; ``build`` names a method of that class making what the
    cockpit uses from it."""

    __slots__ = ("build", "schema", "strict")
    expected = "a table"

    def __init__(self, schema: type | str, strict: Strict | None = None, build: str = "") -> None:
        self.schema, self.strict, self.build = schema, strict, build

    def read(self, where: Where, key: str, value: Any) -> Any:
        table = typed(where, key, value, dict, "a table")
        made = read_table(resolve(self.schema), where.child(key), table, self.strict)
        return getattr(made, self.build)() if self.build else made


class Tables(Kind):
    """An array of tables (``[[ci]]``), each read into its schema class; a tuple, in order."""

    __slots__ = ("schema",)
    expected = "an array of tables ([[...]])"

    def __init__(self, schema: type | str) -> None:
        self.schema = schema

    def read(self, where: Where, key: str, value: Any) -> Any:
        out = []
        for i, entry in enumerate(typed(where, key, value, list, self.expected)):
            if not isinstance(entry, dict):
                raise where.fail(f"{key}[{i}]", "a table", entry)
            out.append(read_table(resolve(self.schema), where.child(f"{key}[{i}]"), entry))
        return tuple(out)


class Lazy(Kind):
    """A kind whose module loads only when the file has its key: ``"module:Class"``."""

    __slots__ = ("expected", "name")

    def __init__(self, name: str, expected: str) -> None:
        self.name, self.expected = name, expected

    @property
    def kind(self) -> Kind:
        made: Kind = resolve(self.name)()
        return made

    def read(self, where: Where, key: str, value: Any) -> Any:
        return self.kind.read(where, key, value)


def walk(schema: type, prefix: str = "") -> Iterator[tuple[str, type, SchemaKey]]:
    """Every key of ``schema`` and of its sub-tables, depth first: (the table's header, its class, the key)."""
    for k in schema_keys(schema):
        yield prefix, schema, k
        kind = k.key.kind.kind if isinstance(k.key.kind, Lazy) else k.key.kind
        if isinstance(kind, Table | Tables):
            header = f"{prefix}.{k.name}" if prefix else k.name
            yield from walk(resolve(kind.schema), header)
