"""The promotion checklist: the template (data shipped in the package, or the release's own copy),
joined with the sign-offs and the live gates into the checklist pane's report and gate."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from cockpit.domain.checklist import ChecklistStep, Signoff, StepKind
from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.domain.reports import ChecklistReport, StepView
from cockpit.domain.text import inert_json
from cockpit.errors import ConfigError
from cockpit.gates import gate_title, known_gate, registry, unknown_gate
from cockpit.services.checklist_workflow import parse_workflow

GATE_NAME = "checklist"
WORKFLOW_GATE = "workflow_run"
"""The gate of a step a workflow performs, answered per step as ``workflow_run[<step id>]``."""
GATE_TITLE = gate_title(GATE_NAME)
PLACEHOLDERS = ("version", "branch", "rc_tag", "remote")
PACKAGED = "cockpit/templates/checklist.toml (packaged)"
BUILTIN_ACTIONS = ("rc_tag", "validation_issue", "validation_comments")
"""Built-in actions a step may name with ``action``: ``rc_tag`` tags and pushes the next RC;
``validation_issue`` opens the release's validation issue; ``validation_comments`` posts the validation
comment on every closed milestone issue lacking one (the milestone pane's ``N`` and ``V``)."""
LOCKING_GATES = {spec.name: spec.locks for spec in registry().values() if spec.locks}
"""Related gates that, once not green, mean the manual step was done for good (it cannot be redone)."""
LOCKED_WHEN_GREEN = {spec.name: spec.locked_when_green for spec in registry().values() if spec.locked_when_green}
"""Gates of automatic steps that, once green, mean the step was done for good (PyPI takes a file once, ever)."""

_PLACEHOLDER = re.compile(r"(?<!\$)\{(\w*)\}")  # ${VAR} is the shell's, not ours
_STEP_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_TOP_KEYS = {"schema", "section"}
_SECTION_KEYS = {"title", "required", "after_go", "patch_only", "minor_only", "step"}
_STEP_KEYS = {
    "id",
    "title",
    "help",
    "kind",
    "gate",
    "command",
    "dry_run",
    "irreversible",
    "required",
    "after_go",
    "action",
    "runbook",
    "minor_only",
    "needs",
    "workflow",
}
_KINDS = "'automatic', 'gate' or 'manual'"


def load_template(path: Path | None = None) -> tuple[ChecklistStep, ...]:
    """The checklist steps of ``path``, or of the packaged template when None.

    Raises ConfigError naming the file, the step (index and id) and the key on any problem.
    """
    if path is None:
        source = PACKAGED
        text = resources.files("cockpit").joinpath("templates").joinpath("checklist.toml").read_text(encoding="utf-8")
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(
                f"{path}: no such checklist template (see [checklist] template in cockpit.toml)"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read the checklist template: {exc}") from None
    try:
        data = inert_json(tomllib.loads(text), multiline_keys=frozenset({"help"}))  # the template is outside text too
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    return parse_template(source, data)


def parse_template(source: str, data: Mapping[str, Any]) -> tuple[ChecklistStep, ...]:
    """Validate an already-parsed template; ``source`` names it in errors."""
    _unknown_keys(source, "", data, _TOP_KEYS)
    if data.get("schema", 1) != 1:
        raise ConfigError(f"{source}: key 'schema': expected 1, got {data.get('schema')!r}")
    sections = data.get("section")
    if not isinstance(sections, list) or not sections:
        raise ConfigError(f"{source}: expected one or more [[section]] tables, each with [[section.step]] tables")
    steps: list[ChecklistStep] = []
    seen: dict[str, str] = {}
    for i, section in enumerate(sections):
        where = f"section[{i}]"
        if not isinstance(section, dict):
            raise ConfigError(f"{source}: {where}: expected a table")
        _unknown_keys(source, where, section, _SECTION_KEYS)
        title = _get(source, where, section, "title", str, "a non-empty string")
        if not title.strip():
            raise ConfigError(f"{source}: {where}, key 'title': expected a non-empty string")
        required = _get(source, where, section, "required", bool, "true or false", True)
        after_go = _get(source, where, section, "after_go", bool, "true or false", False)
        patch_only = _get(source, where, section, "patch_only", bool, "true or false", False)
        minor_only = _get(source, where, section, "minor_only", bool, "true or false", False)
        raw_steps = _get(source, where, section, "step", list, "[[section.step]] tables")
        for j, raw in enumerate(raw_steps):
            step = _step(source, f"{where}.step[{j}]", raw, title, required, after_go)
            step = replace(step, patch_only=patch_only) if patch_only else step
            step = replace(step, minor_only=True) if minor_only else step
            if step.id in seen:
                raise ConfigError(
                    f"{source}: {where}.step[{j}] ('{step.id}'), key 'id': duplicate; {seen[step.id]} already uses it"
                )
            if step.needs is not None and step.needs not in seen:
                raise ConfigError(
                    f"{source}: {where}.step[{j}] ('{step.id}'), key 'needs': expected the id of an earlier step, "
                    f"got {step.needs!r}"
                )
            seen[step.id] = f"{where}.step[{j}]"
            steps.append(step)
    return tuple(steps)


def _step(source: str, where: str, raw: Any, section: str, required: bool, after_go: bool) -> ChecklistStep:
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: {where}: expected a table")
    step_id = raw.get("id")
    if not isinstance(step_id, str) or not _STEP_ID.match(step_id):
        raise ConfigError(
            f"{source}: {where}, key 'id': expected lowercase letters, digits, '_', '.' or '-', got {step_id!r}"
        )
    where = f"{where} ('{step_id}')"
    _unknown_keys(source, where, raw, _STEP_KEYS)
    title = _get(source, where, raw, "title", str, "a non-empty string")
    kind_text = _get(source, where, raw, "kind", str, _KINDS)
    try:
        kind = StepKind(kind_text)
    except ValueError:
        raise ConfigError(f"{source}: {where}, key 'kind': expected {_KINDS}, got {kind_text!r}") from None
    gate = _get(source, where, raw, "gate", str, "a gate name such as 'ci_green'", None)
    workflow = parse_workflow(source, where, raw["workflow"]) if "workflow" in raw else None
    if workflow is not None:
        if gate:
            raise ConfigError(
                f"{source}: {where}, key 'gate': a step with a workflow is judged by its runs; drop the gate"
            )
        gate = f"{WORKFLOW_GATE}[{step_id}]"
    if kind.judged and not gate:
        raise ConfigError(
            f"{source}: {where}, key 'gate': an {kind.value} step needs the gate name that decides it (or a workflow)"
        )
    if gate and not known_gate(gate):
        raise ConfigError(f"{source}: {where}, key 'gate': {unknown_gate(gate)}")
    command = _get(source, where, raw, "command", str, "a command string", None)
    dry_run = _get(source, where, raw, "dry_run", str, "a command string", None)
    for key, text in (("command", command), ("dry_run", dry_run)):
        unknown = [p for p in _PLACEHOLDER.findall(text or "") if p not in PLACEHOLDERS]
        if unknown:
            allowed = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
            raise ConfigError(f"{source}: {where}, key '{key}': unknown placeholder {{{unknown[0]}}}; use {allowed}")
    action = _get(source, where, raw, "action", str, "a built-in action name", None)
    if action is not None and action not in BUILTIN_ACTIONS:
        raise ConfigError(
            f"{source}: {where}, key 'action': expected one of {', '.join(BUILTIN_ACTIONS)}, got {action!r}"
        )
    return ChecklistStep(
        id=step_id,
        section=section,
        title=title,
        help=_get(source, where, raw, "help", str, "a string", "").strip(),
        kind=kind,
        gate=gate,
        command=command,
        dry_run=dry_run,
        irreversible=_get(source, where, raw, "irreversible", bool, "true or false", False),
        required=_get(source, where, raw, "required", bool, "true or false", required),
        after_go=_get(source, where, raw, "after_go", bool, "true or false", after_go),
        action=action,
        minor_only=_get(source, where, raw, "minor_only", bool, "true or false", False),
        runbook=_runbook(source, where, raw),
        needs=_get(source, where, raw, "needs", str, "the id of an earlier step", None),
        workflow=workflow,
    )


def _runbook(source: str, where: str, raw: Mapping[str, Any]) -> int | None:
    number: int | None = _get(source, where, raw, "runbook", int, "the runbook's step number (1 or more)", None)
    if number is not None and number < 1:
        raise ConfigError(
            f"{source}: {where}, key 'runbook': expected the runbook's step number (1 or more), got {number}"
        )
    return number


def _get(
    source: str, where: str, table: Mapping[str, Any], key: str, kind: type, expected: str, default: Any = ...
) -> Any:
    if key not in table:
        if default is ...:
            raise ConfigError(f"{source}: {where}: missing key '{key}': expected {expected}")
        return default
    value = table[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise ConfigError(f"{source}: {where}, key '{key}': expected {expected}, got {value!r}")
    return value


def _unknown_keys(source: str, where: str, table: Mapping[str, Any], known: set[str]) -> None:
    extra = sorted(set(table) - known)
    if extra:
        place = f"{where}, " if where else ""
        raise ConfigError(f"{source}: {place}key '{extra[0]}': unknown; expected one of {', '.join(sorted(known))}")


def steps_for_release(steps: Sequence[ChecklistStep], *, patch: bool) -> tuple[ChecklistStep, ...]:
    """The steps that apply to this release: ``patch_only`` ones only for a patch release (X.Y.Z, Z not 0),
    ``minor_only`` ones (the compatibility matrix) only for a minor release."""
    return tuple(step for step in steps if (patch or not step.patch_only) and not (patch and step.minor_only))


def fill_placeholders(text: str, values: Mapping[str, str]) -> str:
    """Put ``{version}``, ``{branch}``, ``{rc_tag}``, ``{remote}`` into a step's command."""
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), text)


def checklist_report(
    steps: Sequence[ChecklistStep], signoffs: Mapping[str, Signoff], gates: Mapping[str, Gate]
) -> ChecklistReport:
    """Each step with its live state, and the ``checklist`` gate over them.

    Automatic steps read their gate (UNKNOWN until it is evaluated); manual steps read their
    sign-off and show their related gate, if any, beside it. A manual step whose related gate is a
    locking one (``pypi_not_published``) and is no longer green was done for good: it is shown done
    and locked, whatever the sign-off says.
    """
    views = []
    for step in steps:
        signoff = signoffs.get(step.id)
        if step.kind.judged:
            gate = gates.get(step.gate or "") or Gate(
                step.gate or "", step.title, GateStatus.UNKNOWN, "not evaluated yet"
            )
            why = LOCKED_WHEN_GREEN.get(step.gate or "")
            locked = f"done and locked: {why} ({gate.summary})" if why and gate.status is GateStatus.GREEN else ""
            views.append(StepView(step, signoff, gate, locked=locked, override=standing_override(signoff, gate)))
        else:
            related = gates.get(step.gate) if step.gate else None
            views.append(StepView(step, signoff, related_gate=related, locked=locked_reason(step, related)))
    views = with_order_enforced(views)
    return ChecklistReport(tuple(views), checklist_gate(views))


def with_order_enforced(views: Sequence[StepView]) -> list[StepView]:
    """Each step that ``needs`` an earlier one, blocked (with the reason) until that step's gate is green.

    The runbook's order: stage, inspect, then promote; PyPI takes a file once, so the promotion waits for the
    inspection's gate itself, not a signature over it. A step already done for good (locked) is left as it is.
    """
    by_id = {view.step.id: view for view in views}
    out = []
    for view in views:
        needed = by_id.get(view.step.needs or "")
        if needed is not None and not view.locked:
            gate = needed.gate
            if gate is None or gate.status is not GateStatus.GREEN:
                now = f"{gate.status.value}: {gate.summary}" if gate is not None else "not judged by a gate"
                view = replace(view, blocked=f"locked until '{needed.step.title}' is green (now {now})")
        out.append(view)
    return out


def standing_override(signoff: Signoff | None, gate: Gate) -> str:
    """What makes an automatic step done over its gate, or "" when nothing does.

    A signed override stands while the gate is not green and no worse than when it was signed: an
    override given over an unknown gate lapses once the gate turns red (the evidence now says no), and
    one over a red gate is simply not needed once the gate is green.
    """
    if signoff is None or not signoff.done or not signoff.override or gate.status is GateStatus.GREEN:
        return ""
    signed_over = GateStatus(signoff.gate_status)
    if gate.status.rank > signed_over.rank:
        return ""
    return f"override by {signoff.who} at {signoff.when} over {signed_over.value}: {signoff.override_note}"


def lapsed_override(view: StepView) -> str:
    """Why an override recorded on this step no longer counts, or ""."""
    signoff, gate = view.signoff, view.gate
    if signoff is None or not signoff.done or not signoff.override or gate is None or view.override:
        return ""
    if gate.status is GateStatus.GREEN:
        return ""
    return (
        f"override by {signoff.who} over {signoff.gate_status} lapsed: the gate is {gate.status.value} now; "
        "sign it again if the step still goes ahead"
    )


def locked_reason(step: ChecklistStep, related: Gate | None) -> str:
    """Why a manual step is done for good (its locking gate is no longer green), or ""."""
    why = LOCKING_GATES.get(step.gate or "")
    if not why or related is None or related.status in (GateStatus.GREEN, GateStatus.UNKNOWN):
        return ""
    return f"done and locked: {why} ({related.summary})"


def checklist_gate(views: Sequence[StepView]) -> Gate:
    """The ``checklist`` gate: GREEN when every required step is done.

    Otherwise the worst of the open required steps: an unsigned manual step is AMBER, an automatic
    step is as bad as its gate.
    """
    required = [v for v in views if v.step.required]
    open_steps = [v for v in required if not v.done]
    overridden = [v for v in required if v.override]
    if not open_steps:
        if overridden:
            summary = f"all {len(required)} required steps done, {len(overridden)} by override"
            return Gate(GATE_NAME, GATE_TITLE, GateStatus.GREEN, summary, tuple(override_line(v) for v in overridden))
        return Gate(GATE_NAME, GATE_TITLE, GateStatus.GREEN, f"all {len(required)} required steps done")
    status = worst([_open_status(v) for v in open_steps])
    done = len(required) - len(open_steps)
    summary = f"{done} of {len(required)} required steps done; next: {open_steps[0].step.title}"
    return Gate(GATE_NAME, GATE_TITLE, status, summary, tuple(_open_line(v) for v in open_steps))


def _open_status(view: StepView) -> GateStatus:
    if view.step.kind.judged and view.gate is not None:
        return view.gate.status
    return GateStatus.AMBER


def _open_line(view: StepView) -> str:
    if view.blocked:
        return f"{view.step.title}: {view.blocked}"
    if view.step.kind.judged and view.gate is not None:
        lapsed = lapsed_override(view)
        return f"{view.step.title}: {view.gate.status.value}, {view.gate.summary}" + (f" ({lapsed})" if lapsed else "")
    if view.signoff is not None and view.signoff.who and not view.signoff.done:
        return f"{view.step.title}: reopened by {view.signoff.who}"
    return f"{view.step.title}: not signed"


def override_line(view: StepView) -> str:
    """One line naming an overridden step and its override, for the verdict, ``check`` and the report."""
    gate = view.gate
    now = f"; the gate is {gate.status.value} now: {gate.summary}" if gate is not None else ""
    return f"{view.step.title}: {view.override}{now}"
