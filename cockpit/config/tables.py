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

import difflib
import importlib
from collections.abc import Iterator
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import Any

from cockpit.config.kinds import Key, Kind, typed
from cockpit.config.where import Where


@dataclass(frozen=True, slots=True)
class Strict:
    """A table whose unknown keys are errors: ``expected one of <keys><suffix>``."""

    sort: bool = False  # the keys listed alphabetically, else in declared order
    suffix: str = ""
    wording: str = ""  # what is expected in other words than the list of keys


@dataclass(frozen=True, slots=True)
class SchemaKey:
    """One key of a schema class: its field, its name in the file, its declaration and its default."""

    field: str
    name: str
    key: Key
    default: Any  # dataclasses.MISSING when the key is required

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
    for name in data:
        if name not in known:
            unknown(where, name, known, strict)
    values = {}
    for k in keys:
        if k.name in data:
            values[k.field] = k.key.kind.read(where, k.name, data[k.name])
        elif k.required:
            raise where.missing(k.name, k.key.kind.expected)
    made = schema(**values)
    check = getattr(made, "problem", None)
    if check is not None and (problem := check()) is not None:
        raise where.fail(*problem)
    return made


def unknown(where: Where, name: str, known: list[str], strict: Strict | None) -> None:
    """An unknown key: an error in a strict table, else a warning naming the nearest known key."""
    if strict is not None:
        listed = sorted(known) if strict.sort else known
        raise where.fail(name, strict.wording or f"one of {', '.join(listed)}{strict.suffix}")
    near = difflib.get_close_matches(name, known, n=1)
    hint = f"did you mean '{where.dotted(near[0])}'?" if near else f"the known keys here are {', '.join(known)}"
    where.warn(f"unknown key '{where.dotted(name)}' is ignored; {hint}")


@dataclass(frozen=True, slots=True)
class Table(Kind):
    """A sub-table read into its schema class (``build`` turns that into what the cockpit uses)."""

    schema: type | str
    strict: Strict | None = None
    build: str = ""  # a method of the schema class that makes what the cockpit uses from it
    expected: str = "a table"

    def read(self, where: Where, key: str, value: Any) -> Any:
        table = typed(where, key, value, dict, "a table")
        made = read_table(resolve(self.schema), where.child(key), table, self.strict)
        return getattr(made, self.build)() if self.build else made


@dataclass(frozen=True, slots=True)
class Tables(Kind):
    """An array of tables (``[[ci]]``), each read into its schema class; a tuple, in order."""

    schema: type | str
    expected: str = "an array of tables ([[...]])"

    def read(self, where: Where, key: str, value: Any) -> Any:
        out = []
        for i, entry in enumerate(typed(where, key, value, list, self.expected)):
            if not isinstance(entry, dict):
                raise where.fail(f"{key}[{i}]", "a table", entry)
            out.append(read_table(resolve(self.schema), where.child(f"{key}[{i}]"), entry))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Lazy(Kind):
    """A kind whose module loads only when the file has its key: ``"module:Class"``."""

    name: str
    expected: str = "a table"

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
