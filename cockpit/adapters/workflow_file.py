"""A workflow file's ``on.workflow_dispatch.inputs`` and job environments, read without a YAML library.

Why our own reader: PyYAML is not among the cockpit's dependencies (nor any of theirs), and the block
a dispatch form needs is plain block YAML (the release workflows of pytorch/test-infra, HEAD
61a77570f454, use mappings, ``- item`` lists, quoted and plain scalars, ``true``/``false`` and
comments there). A general YAML library would also read the ``on:`` key as the boolean True (YAML
1.1), a classic trap with workflow files. So: a small reader of block mappings, block and flow
lists, plain, quoted and block (``|``, ``>``) scalars, which refuses anything else (anchors, tags,
flow mappings) with the line number rather than guessing. Only the ``on:`` block is read; job
steps (``run: |`` scripts and all) are not parsed, except each job's ``environment:``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TypeAlias

from cockpit.domain.workflows import INPUT_TYPES, WorkflowFile, WorkflowInput
from cockpit.errors import CockpitError

Node: TypeAlias = dict[str, "Node"] | list["Node"] | str | None

_KEY = re.compile(r"""^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#\-\[{][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s+(.*))?$""")
_TOP_ON = re.compile(r"""^(?:on|"on"|'on')\s*:(?:\s+(.*))?$""")
_TOP_NAME = re.compile(r"""^name\s*:\s+(.*)$""")
_ENVIRONMENT = re.compile(r"^\s+environment\s*:\s*(.*)$")
_CHOSEN_NAME = re.compile(r"(?:&&|\|\|)\s*'([A-Za-z0-9_.\-]+)'")
_BOOLEANS = {"true": True, "false": False}


def unreadable(path: str, why: str) -> CockpitError:
    """The error for a workflow file the reader cannot take: names the file and what was wrong."""
    return CockpitError(f"{path}: {why}", title="Workflow file")


@dataclass(frozen=True)
class _Line:
    number: int
    indent: int
    text: str  # without its comment and trailing blanks
    raw: str


def _strip_comment(raw: str) -> str:
    quote = ""
    for i, ch in enumerate(raw):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"" and (i == 0 or raw[i - 1] in " \t-:[,{"):
            quote = ch
        elif ch == "#" and (i == 0 or raw[i - 1] in " \t"):
            return raw[:i].rstrip()
    return raw.rstrip()


def _lines(raws: list[str], start: int, path: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(raws[start:], start=start + 1):
        body = raw.lstrip(" ")
        if body.startswith("\t"):
            raise unreadable(path, f"line {number} is indented with a tab, which YAML does not allow")
        out.append(_Line(number, len(raw) - len(body), _strip_comment(raw).strip(), raw))
    return out


class _Reader:
    """Block YAML over ``lines`` (meaningful ones only, blank and comment lines kept for block scalars)."""

    def __init__(self, lines: list[_Line], path: str) -> None:
        self.lines = lines
        self.path = path
        self.i = 0

    def fail(self, line: _Line, why: str) -> CockpitError:
        return unreadable(self.path, f"line {line.number}: {why}")

    def skip_blank(self) -> None:
        while self.i < len(self.lines) and not self.lines[self.i].text:
            self.i += 1

    def peek(self) -> _Line | None:
        self.skip_blank()
        return self.lines[self.i] if self.i < len(self.lines) else None

    def block(self, indent: int) -> Node:
        line = self.peek()
        assert line is not None and line.indent == indent
        return self.sequence(indent) if line.text == "-" or line.text.startswith("- ") else self.mapping(indent)

    def sequence(self, indent: int) -> Node:
        items: list[Node] = []
        while (line := self.peek()) is not None and line.indent == indent and line.text.startswith("-"):
            rest = line.text[1:].strip()
            if _KEY.match(rest):  # "- cron: ..." : a mapping that starts on the dash's line
                offset = len(line.text) - len(rest)
                self.lines[self.i] = _Line(line.number, line.indent + offset, rest, line.raw)
                items.append(self.mapping(line.indent + offset))
                continue
            self.i += 1
            items.append(self.scalar(rest, line))
        return items

    def mapping(self, indent: int) -> Node:
        out: dict[str, Node] = {}
        while (line := self.peek()) is not None and line.indent >= indent:
            if line.indent > indent:
                raise self.fail(line, "indented deeper than the key before it expects")
            match = _KEY.match(line.text)
            if not match:
                raise self.fail(line, f"expected 'key: value', found {line.text[:60]!r}")
            key = self.scalar(match.group(1), line)
            if not isinstance(key, str):
                raise self.fail(line, "a key must be text")
            if key in out:
                raise self.fail(line, f"the key {key!r} appears twice")
            self.i += 1
            out[key] = self.value(match.group(2) or "", line, indent)
        return out

    def value(self, rest: str, line: _Line, indent: int) -> Node:
        if rest[:1] in ("|", ">"):
            return self.block_scalar(rest, line, indent)
        nxt = self.peek()
        if not rest:
            if nxt is not None and nxt.indent > indent:
                if _KEY.match(nxt.text) or nxt.text == "-" or nxt.text.startswith("- "):
                    return self.block(nxt.indent)
                return self.folded(nxt.text, indent)
            if nxt is not None and nxt.indent == indent and (nxt.text == "-" or nxt.text.startswith("- ")):
                return self.sequence(indent)
            return None
        value = self.scalar(rest, line)
        if isinstance(value, str) and rest[0] not in "'\"" and nxt is not None and nxt.indent > indent:
            return self.folded(value, indent, first_taken=True)
        return value

    def folded(self, first: str, indent: int, *, first_taken: bool = False) -> str:
        """A plain scalar folded over several more-indented lines, joined by spaces."""
        words = [first] if first_taken else []
        while (nxt := self.peek()) is not None and nxt.indent > indent:
            words.append(nxt.text)
            self.i += 1
        return " ".join(words)

    def block_scalar(self, header: str, line: _Line, indent: int) -> str:
        if not re.fullmatch(r"[|>][+-]?", header):
            raise self.fail(line, f"block scalar header {header!r} is not read here")
        body: list[_Line] = []
        while self.i < len(self.lines) and (not self.lines[self.i].raw.strip() or self.lines[self.i].indent > indent):
            body.append(self.lines[self.i])
            self.i += 1
        while body and not body[-1].raw.strip():
            body.pop()
        if not body:
            return ""
        cut = min(b.indent for b in body if b.raw.strip())
        texts = [b.raw[cut:].rstrip() for b in body]
        text = "\n".join(texts) if header[0] == "|" else re.sub(r"(?<!\n)\n(?!\n)", " ", "\n".join(texts))
        return text if header.endswith("-") else text + "\n"

    def scalar(self, text: str, line: _Line) -> Node:
        text = text.strip()
        if not text or text in ("~", "null", "Null", "NULL"):
            return None
        if text[0] == '"':
            try:
                value = json.loads(text)
            except ValueError:
                raise self.fail(line, "a double-quoted value that does not end where it should") from None
            if not isinstance(value, str):
                raise self.fail(line, "a double-quoted value that does not end where it should")
            return value
        if text[0] == "'":
            if len(text) < 2 or text[-1] != "'" or "'" in text[1:-1].replace("''", ""):
                raise self.fail(line, "a single-quoted value that does not end where it should")
            return text[1:-1].replace("''", "'")
        if text[0] == "[":
            if text[-1] != "]":
                raise self.fail(line, "a [list] that does not close on its line")
            inner = text[1:-1].strip()
            parts = re.findall(r"""\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,]+)\s*(?:,|$)""", inner) if inner else []
            return [self.scalar(p, line) for p in parts]
        if text == "{}":
            return {}
        if text[0] in "{&*!%@`":
            raise self.fail(line, f"{text[:30]!r} uses YAML this reader does not read (flow mapping, anchor, tag)")
        return text


def _environments(raws: list[str]) -> tuple[str, ...]:
    found: list[str] = []
    for n, raw in enumerate(raws):
        match = _ENVIRONMENT.match(_strip_comment(raw))
        if not match:
            continue
        value = match.group(1).strip()
        if not value and n + 1 < len(raws):
            name = re.match(r"^\s+name\s*:\s*(.+)$", _strip_comment(raws[n + 1]))
            value = name.group(1).strip() if name else ""
        names = _CHOSEN_NAME.findall(value) if "${{" in value else [value.strip("'\"")]
        found.extend(x for x in names if x and x not in found)
    return tuple(found)


def _as_text(value: Node, what: str, path: str) -> str:
    if isinstance(value, str):
        return value
    raise unreadable(path, f"{what} should be text")


def _input(name: str, spec: Node, path: str) -> WorkflowInput:
    where = f"input {name!r}"
    if spec is None:
        return WorkflowInput(name)
    if not isinstance(spec, dict):
        raise unreadable(path, f"{where} should be a mapping of type, description, required, default, options")
    kind = _as_text(spec.get("type") or "string", f"{where} type", path)
    if kind not in INPUT_TYPES:
        raise unreadable(path, f"{where} has type {kind!r}; expected one of {', '.join(INPUT_TYPES)}")
    required = spec.get("required")
    if required is not None and (not isinstance(required, str) or required.lower() not in _BOOLEANS):
        raise unreadable(path, f"{where} 'required' should be true or false")
    options = spec.get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise unreadable(path, f"{where} 'options' should be a list of values")
    default = spec.get("default")
    if default is not None:
        default = _as_text(default, f"{where} default", path)
        if kind == "boolean":
            if default.lower() not in _BOOLEANS:
                raise unreadable(path, f"{where} is a boolean with default {default!r}; expected true or false")
            default = default.lower()
    if kind == "choice" and not options:
        raise unreadable(path, f"{where} is a choice with no options")
    if kind == "choice" and default is not None and default not in options:
        raise unreadable(path, f"{where} defaults to {default!r}, which is not one of its options")
    return WorkflowInput(
        name=name,
        type=kind,
        description=_as_text(spec.get("description") or "", f"{where} description", path).strip(),
        required=bool(required) and _BOOLEANS[str(required).lower()],
        default=default,
        options=tuple(str(o) for o in options),
    )


def read_workflow_file(text: str, *, path: str, ref: str, sha: str = "") -> WorkflowFile:
    """The dispatch form of ``text`` (a workflow file read on ``ref``): its ``name:``, whether
    ``workflow_dispatch`` triggers it, its inputs in the file's order and its job environments.

    Raises ``CockpitError`` (title "Workflow file") naming the file, the line and what was wrong
    when the ``on:`` block is not YAML this reader reads, or its inputs are not what GitHub documents.
    """
    raws = text.splitlines()
    name_line = next((m for raw in raws if (m := _TOP_NAME.match(_strip_comment(raw)))), None)
    name = path.rsplit("/", 1)[-1]
    start = next((n for n, raw in enumerate(raws) if _TOP_ON.match(_strip_comment(raw))), None)
    if start is None:
        raise unreadable(path, "no top-level 'on:' key: this is not a workflow file GitHub would run")
    lines = _lines(raws, start, path)
    reader = _Reader(lines, path)
    if name_line is not None:
        top = reader.scalar(name_line.group(1), lines[0])
        name = top if isinstance(top, str) else name
    inline = _TOP_ON.match(lines[0].text)
    assert inline is not None
    block = [lines[0]]
    for line in lines[1:]:
        if line.text and line.indent == 0:
            break
        block.append(line)
    reader = _Reader(block[1:], path)
    if inline.group(1):
        on: Node = reader.scalar(inline.group(1), lines[0])
    else:
        first = reader.peek()
        on = reader.block(first.indent) if first is not None else None
        if reader.peek() is not None:
            raise reader.fail(reader.lines[reader.i], "indented less than the block it is in")
    events = on if isinstance(on, (list, dict)) else [on]
    dispatchable = "workflow_dispatch" in events
    inputs: tuple[WorkflowInput, ...] = ()
    if isinstance(on, dict) and isinstance(trigger := on.get("workflow_dispatch"), dict):
        declared = trigger.get("inputs") or {}
        if not isinstance(declared, dict):
            raise unreadable(path, "on.workflow_dispatch.inputs should be a mapping of input names")
        inputs = tuple(_input(key, spec, path) for key, spec in declared.items())
    return WorkflowFile(path, ref, sha, name, dispatchable, inputs, _environments(raws))
