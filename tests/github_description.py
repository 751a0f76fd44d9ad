"""GitHub's published REST description (API version 2022-11-28), read offline for the tests.

The description comes from the pinned test dependency ``githubkit-schemas-2022-11-28``: pydantic
models generated from github/rest-api-description, plus one generated function per operation whose
docstring names the operation (``GET /repos/{owner}/{repo}/issues``) and whose call names its
success ``response_model`` and its ``error_models``. This module reads those functions' source
(nothing is imported from the network, nothing is called) and answers:

    check_response("GET", "/repos/acme/torchlet/issues", 200, body)  # -> [] or the violations

A violation names the operation and the JSON path, e.g. ``GET /repos/{owner}/{repo}/commits:
[0].commit.author: Field required``. Validation is pydantic's *strict* JSON mode, so a number
sent as text or ``null`` where the description does not allow it fails; fields the description
does not know are ignored (GitHub adds fields over time, clients must ignore them).
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from typing import Any, Union, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError

PACKAGE = "githubkit_schemas.v2022_11_28"
_OPERATION_LINE = re.compile(r"^\s*(GET|POST|PATCH|PUT|DELETE|HEAD) (/\S*)\s*$", re.M)
_NAME_LINE = re.compile(r"^\s*([\w-]+/[\w-]+)\s*$", re.M)


@dataclass(frozen=True)
class Operation:
    """One operation of the description: ``issues/list-for-repo`` is ``GET /repos/{owner}/{repo}/issues``."""

    operation_id: str
    method: str
    template: str
    response_model: str | None  # a type expression over the models, e.g. "list[Issue]"
    error_models: tuple[tuple[str, str], ...]  # (status, model name)

    @property
    def pattern(self) -> re.Pattern[str]:
        # a file's {path} spans folders (/contents/2.5/index.html); every other parameter is one segment
        escaped = re.escape(self.template).replace(r"\{path\}", ".+")
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", escaped)
        return re.compile(f"^{regex}$")

    def __str__(self) -> str:
        return f"{self.method} {self.template} ({self.operation_id})"


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _operations_in(source: str) -> list[Operation]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue  # the async twins describe the same operations
        doc = ast.get_docstring(node) or ""
        line, name = _OPERATION_LINE.search(doc), _NAME_LINE.search(doc)
        if not line or not name:
            continue
        calls = [
            c
            for c in ast.walk(node)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "request"
        ]
        if not calls:
            continue
        model = _keyword(calls[0], "response_model")
        errors = _keyword(calls[0], "error_models")
        pairs: tuple[tuple[str, str], ...] = ()
        if isinstance(errors, ast.Dict):
            pairs = tuple(
                (ast.literal_eval(k), ast.unparse(v)) for k, v in zip(errors.keys, errors.values, strict=True) if k
            )
        found.append(
            Operation(
                name.group(1), line.group(1), line.group(2), ast.unparse(model) if model is not None else None, pairs
            )
        )
    return found


@cache
def operations() -> tuple[Operation, ...]:
    """Every operation of the description, most specific path first (literal segments win)."""
    rest = resources.files(PACKAGE) / "rest"
    ops = [op for f in rest.iterdir() if f.name.endswith(".py") for op in _operations_in(f.read_text("utf-8"))]
    return tuple(sorted(ops, key=lambda o: (o.template.count("{"), -len(o.template))))


def operation_for(method: str, path: str) -> Operation:
    """The operation that serves ``method path`` (path without host, API prefix or query)."""
    path = path.split("?", 1)[0].rstrip("/") or "/"
    for op in operations():
        if op.method == method.upper() and op.pattern.match(path):
            return op
    raise LookupError(f"GitHub's REST description has no operation {method} {path}")


def _harden(tp: Any, models: Any, seen: dict[Any, bool]) -> bool:
    """Make ``empty-object`` refuse extra fields, as the description's ``additionalProperties: false``
    says, and rebuild every model that nests it; True when ``tp`` nests it.

    The generated ``EmptyObject`` ignores extra fields, so ``anyOf [simple-user, empty-object]`` (a
    commit's ``author``) would take an incomplete user as an empty object and hide what is missing.
    """
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if tp in seen:
            return seen[tp]
        seen[tp] = tp is models.EmptyObject
        nested = [_harden(f.annotation, models, seen) for f in tp.model_fields.values()]
        if tp is models.EmptyObject:
            tp.model_config["extra"] = "forbid"
            tp.model_rebuild(force=True)
        elif any(nested):
            seen[tp] = True
            tp.model_rebuild(force=True)
        return seen[tp]
    return any([_harden(arg, models, seen) for arg in get_args(tp)])  # noqa: C419 - harden every argument, not up to the first


@cache
def _adapter(expression: str) -> TypeAdapter:
    with warnings.catch_warnings():  # a generated model shadows a pydantic attribute; not ours to fix
        warnings.simplefilter("ignore", UserWarning)
        models = import_module(f"{PACKAGE}.models")
        namespace: dict[str, Any] = {"list": list, "dict": dict, "str": str, "int": int, "bool": bool, "Union": Union}
        for name in set(re.findall(r"[A-Za-z_]\w*", expression)) - namespace.keys():
            namespace[name] = getattr(models, name)  # models load lazily: only what is named
    tp = eval(expression, namespace)  # generated code of a pinned package
    _harden(tp, models, _HARDENED)
    return TypeAdapter(tp)


_HARDENED: dict[Any, bool] = {}


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).startswith(("function-", "lax-", "json-")):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(body)"


def violations(op: Operation, status: int, body: bytes | str, expression: str | None = None) -> list[str]:
    """Why ``body`` is not what the description says ``op`` answers with ``status`` (empty: valid)."""
    if expression is None:
        if 200 <= status < 300:
            expression = op.response_model
        else:
            expression = dict(op.error_models).get(str(status))
            if expression is None:
                return [
                    f"{op}: the description lists no {status} answer (it lists "
                    f"{', '.join(s for s, _ in op.error_models) or 'none'})"
                ]
    if expression is None:
        return (
            []
            if not (body.strip() if isinstance(body, (bytes, str)) else body)
            else [f"{op}: the description has no body for {status}, the answer had one"]
        )
    try:
        _adapter(expression).validate_json(body, strict=True)
    except ValidationError as exc:
        return [
            f"{op.method} {op.template}: {_where(e['loc'])}: {e['msg']}"
            + (f" (got {str(e.get('input'))[:60]!r})" if e["type"] != "missing" else "")
            for e in exc.errors()
        ]
    return []


def check_response(method: str, path: str, status: int, body: bytes | str) -> list[str]:
    """Violations of the answer ``status``/``body`` to ``method path`` (see ``violations``)."""
    return violations(operation_for(method, path), status, body)
