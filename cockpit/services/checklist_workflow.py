"""A checklist step's ``workflow`` table: the release workflow that performs the step, read from the template.

    [section.step.workflow]
    file = "pytorch/test-infra:.github/workflows/release-pypi.yml"
    ref = "main"                              # the ref it is dispatched from (placeholders allowed)
    event = "workflow_dispatch"               # the default
    inputs = { package = ["torchvision"] }    # what identifies this release's runs; a list: one run each
    real_run = { dryrun = "disabled" }        # the input value that makes a run real, not a dry run
    source = "pytorch/test-infra@61a77570 .github/workflows/release-pypi.yml (on.workflow_dispatch.inputs)"

Pure: the values are checked and turned into ``StepWorkflow``; errors name the file, the step and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cockpit.domain.checklist import StepWorkflow
from cockpit.errors import ConfigError

_KEYS = {"file", "ref", "event", "inputs", "real_run", "source"}
_FILE = re.compile(r"^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+):(\.github/workflows/[A-Za-z0-9_.-]+\.ya?ml)$")
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
PLACEHOLDERS = ("version", "version_short", "packages")  # {packages}: a whole value, the configured packages
_PLACEHOLDER = re.compile(r"\{(\w*)\}")


def parse_workflow(source: str, where: str, raw: Any) -> StepWorkflow:
    """The ``workflow`` table of the step at ``where`` in ``source``; ConfigError on anything wrong."""
    where = f"{where}, table 'workflow'"
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: {where}: expected a table with file, ref, inputs, real_run, source")
    extra = sorted(set(raw) - _KEYS)
    if extra:
        raise ConfigError(f"{source}: {where}, key '{extra[0]}': unknown; expected one of {', '.join(sorted(_KEYS))}")
    file = _text(source, where, raw, "file", "'owner/name:.github/workflows/<file>.yml'")
    match = _FILE.match(file)
    if match is None:
        raise ConfigError(
            f"{source}: {where}, key 'file': expected 'owner/name:.github/workflows/<file>.yml', got {file!r}"
        )
    ref = _text(source, where, raw, "ref", "the ref it is dispatched from, such as 'main'")
    event = _text(source, where, raw, "event", "a GitHub event name", "workflow_dispatch")
    src = _text(source, where, raw, "source", "the repository, file and commit these values were read from")
    inputs = _inputs(source, where, raw.get("inputs", {}))
    real = raw.get("real_run")
    real_run = None
    if real is not None:
        if not isinstance(real, dict) or len(real) != 1:
            raise ConfigError(
                f"{source}: {where}, key 'real_run': expected one input = value, such as {{ dryrun = \"disabled\" }}"
            )
        ((name, value),) = real.items()
        if not _NAME.match(name) or not isinstance(value, (str, bool)):
            raise ConfigError(
                f"{source}: {where}, key 'real_run': expected one input = a text or true/false, got {real!r}"
            )
        real_run = (name, str(value).lower() if isinstance(value, bool) else value)
    for key, text in (("ref", ref), *((f"inputs.{k}", v) for k, vs in inputs for v in vs)):
        unknown = [p for p in _PLACEHOLDER.findall(text) if p not in PLACEHOLDERS]
        if unknown:
            raise ConfigError(
                f"{source}: {where}, key '{key}': unknown placeholder {{{unknown[0]}}}; "
                "use {version}, {version_short} or {packages}"
            )
    return StepWorkflow(match.group(1), match.group(2), ref, event, inputs, real_run, src)


def _inputs(source: str, where: str, raw: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: {where}, key 'inputs': expected a table of input = value or [values]")
    out = []
    lists = 0
    for name, value in raw.items():
        values = value if isinstance(value, list) else [value]
        if not _NAME.match(name) or not values or not all(isinstance(v, (str, bool)) for v in values):
            raise ConfigError(f"{source}: {where}, key 'inputs.{name}': expected a text, true/false, or a list of them")
        lists += isinstance(value, list) and len(value) > 1
        out.append((name, tuple(str(v).lower() if isinstance(v, bool) else v for v in values)))
    if lists > 1:
        raise ConfigError(f"{source}: {where}, key 'inputs': at most one input may list several values (one run each)")
    return tuple(out)


def _text(source: str, where: str, raw: Mapping[str, Any], key: str, expected: str, default: str | None = None) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{source}: {where}, key '{key}': expected {expected}, got {value!r}")
    return value.strip()


def filled(spec: StepWorkflow, values: Mapping[str, str]) -> StepWorkflow:
    """``spec`` with ``{version}`` and ``{version_short}`` put into its ref and inputs."""

    def put(text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)

    inputs = tuple((name, tuple(put(v) for v in vs)) for name, vs in spec.inputs)
    return replace(spec, ref=put(spec.ref), inputs=inputs)


def workflow_id(spec: StepWorkflow) -> str:
    """``owner/name:.github/workflows/file.yml``, as the dispatch journal names a workflow."""
    return f"{spec.repository}:{spec.path}"
