"""The form a release workflow is started with, and the rules around starting it. Pure.

The form is the workflow file's own ``on.workflow_dispatch.inputs`` read on the ref the run will use
(type, options, default, required), pre-filled for this release from the checklist step's
``[section.step.workflow]`` table (``package = ["torchvision"]``, the version). The rules, as the
release-day runbook of pytorch/test-infra puts them (``.claude/skills/release-day-checklist``: PyPI
promotion is one-shot, dry run first):

- a workflow with a dry-run input is started as a dry run unless the real run is asked for;
- the real run is offered only once a dry run with the same inputs (all but the dry-run input), on
  the same ref, concluded ``success``;
- a dispatch the journal holds without its run (the cockpit was stopped, or GitHub's answer did not
  come) is looked up before another is offered (``cockpit.actions.dispatching``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.checklist import Dispatch, StepWorkflow
from cockpit.domain.text import inert
from cockpit.domain.workflows import WorkflowFile, WorkflowInput, WorkflowRun
from cockpit.errors import ActionRefused
from cockpit.services.wheel_names import normalise_name

MAX_VALUE = 1024
"""GitHub refuses longer input values; a form refuses them first, with the input's name."""
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


@dataclass(frozen=True)
class StartForm:
    """What a start offers: the step's workflow for this release, its file as read, the values each input
    starts with, and whether the real run may be asked for (``real_refused`` says why not)."""

    step_id: str
    title: str
    spec: StepWorkflow
    file: WorkflowFile
    values: tuple[tuple[str, str], ...]
    real_refused: str = ""
    unfinished: tuple[str, ...] = ()  # what the look-up of earlier dispatches found (told before the form)
    once: bool = True  # an irreversible step: its real run is never made again once it succeeded

    @property
    def has_dry_run(self) -> bool:
        return self.spec.real_run is not None and self.file.input(self.spec.real_run[0]) is not None

    def value(self, name: str) -> str:
        return dict(self.values).get(name, "")


@dataclass(frozen=True)
class StartRequest:
    """One start asked for: the form's workflow with these values, a dry run or the real run."""

    form: StartForm
    values: tuple[tuple[str, str], ...]
    dry_run: bool

    @property
    def inputs(self) -> dict[str, str]:
        return dict(self.values)

    def describe(self) -> str:
        spec = self.form.spec
        shown = ", ".join(f"{k}={v}" for k, v in self.values) or "no inputs"
        kind = "a dry run of" if self.dry_run else "the REAL run of"
        return f"start {kind} {spec.repository} {spec.file_name} on {spec.ref} with {shown}"


def prefill(spec: StepWorkflow, file: WorkflowFile, *, package: str = "", real: bool = False) -> dict[str, str]:
    """Every input of ``file`` with the value a form starts with: the step's value for this release
    (``package``: which of several, default the first), else the file's default; the dry-run input set
    for a dry run, or to the real value when ``real``."""
    values: dict[str, str] = {}
    for field in file.inputs:
        values[field.name] = field.default if field.default is not None else ""
    for name, options in spec.inputs:
        if name in values and options:
            chosen = options[0]
            if package:
                chosen = next((o for o in options if same_name(o, package)), "")
                if not chosen:
                    raise ActionRefused(f"no package {inert(package)!r} here: expected one of {', '.join(options)}")
            values[name] = _as_the_file_spells_it(file.input(name), chosen)
    if spec.real_run is not None and spec.real_run[0] in values:
        name, real_value = spec.real_run
        values[name] = real_value if real else dry_value(file.input(name), real_value)
    return values


def same_name(a: str, b: str) -> bool:
    """Whether two package names are one, as PEP 503 compares them (``torch_audio`` is ``torch-audio``)."""
    return normalise_name(a) == normalise_name(b)


def _as_the_file_spells_it(field: WorkflowInput | None, value: str) -> str:
    """``value`` as the workflow file's choice spells the same package (``torchlet_audio``), else as given."""
    if field is None or value in field.options:
        return value
    return next((o for o in field.options if same_name(o, value)), value)


def dry_value(field: WorkflowInput | None, real_value: str) -> str:
    """The value of the dry-run input that makes a dry run: the file's default when it is not the real
    value (``enabled``, ``true``), else the first other option, else the boolean's opposite."""
    if field is not None and field.default is not None and field.default.lower() != real_value.lower():
        return field.default
    if field is not None:
        others = [o for o in field.options if o.lower() != real_value.lower()]
        if others:
            return others[0]
    return "true" if real_value.lower() == "false" else "enabled"


def problems(file: WorkflowFile, values: Mapping[str, str]) -> list[str]:
    """What is wrong with ``values`` for ``file``'s inputs, one line each naming the input; [] when none."""
    found = []
    known = {field.name for field in file.inputs}
    for name in values:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            found.append(f"{inert(name)}: not an input of {file.path} on {file.ref} (its inputs: {names})")
    for field in file.inputs:
        value = values.get(field.name, "")
        found += [f"{field.name}: {why}" for why in _value_problems(field, value)]
    return found


def _value_problems(field: WorkflowInput, value: str) -> list[str]:
    if not value:
        return ["required, and empty"] if field.required else []
    if len(value) > MAX_VALUE:
        return [f"{len(value)} characters; GitHub takes at most {MAX_VALUE}"]
    if inert(value) != value:
        return ["contains control characters; expected plain text"]
    if field.type == "choice" and field.options and value not in field.options:
        return [f"'{value}' is not one of its options ({', '.join(field.options)})"]
    if field.type == "boolean" and value not in ("true", "false"):
        return [f"'{value}': expected true or false"]
    if field.type == "number" and not _NUMBER.match(value):
        return [f"'{value}': expected a number"]
    return []


def same_inputs(spec: StepWorkflow, a: Mapping[str, str], b: Mapping[str, str]) -> bool:
    """Whether two dispatches asked for the same thing: equal inputs, the dry-run input aside."""
    aside = spec.real_run[0] if spec.real_run is not None else None
    return {k: v for k, v in a.items() if k != aside} == {k: v for k, v in b.items() if k != aside}


def real_run_refusal(
    spec: StepWorkflow,
    values: Mapping[str, str],
    journal: Sequence[Dispatch],
    runs: Mapping[int, WorkflowRun],
    *,
    workflow: str,
) -> str:
    """Why the real run may not be started with ``values`` yet, or "" when a dry run with the same
    inputs on the same ref succeeded (a journal entry of ``workflow`` whose run, in ``runs``, succeeded)."""
    if spec.real_run is None:
        return ""
    tried = [
        d
        for d in journal
        if not d.problem
        and d.workflow == workflow
        and d.dry_run
        and d.ref == spec.ref
        and same_inputs(spec, dict(d.inputs), values)
    ]
    if not tried:
        return f"no dry run of {spec.file_name} with these inputs yet: start the dry run first"
    latest = tried[-1]
    run = runs.get(latest.run_id)
    if latest.run_id == 0 or run is None:
        return f"the dry run {latest.key} has no run known yet: watch it until it succeeds"
    if run.status != "completed":
        return f"the dry run (run {run.id}) is still {run.status}: wait until it succeeds"
    if run.conclusion != "success":
        return f"the dry run (run {run.id}) concluded {run.conclusion}: fix it and dry-run again"
    return ""


def unfinished(journal: Sequence[Dispatch], workflow: str) -> list[Dispatch]:
    """The journal's dispatches of ``workflow`` whose run is not known yet (sent, or maybe not)."""
    return [d for d in journal if not d.problem and not d.no_run and d.workflow == workflow and d.run_id == 0]
