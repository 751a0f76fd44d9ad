"""The checklist steps a release workflow performs, judged from that workflow's runs and the dispatch journal.

What it costs: one workflow-runs request per step with a workflow (the file's newest runs on its ref);
the journal is read from the state file. A step whose runs cannot be read is UNKNOWN with the reason,
never green. Nothing is read unless ``[evidence.release_workflows]`` is configured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.config import pytorch
from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import CockpitError
from cockpit.services.checklist_workflow import filled, workflow_id
from cockpit.services.workflow_runs import TITLE, gate_key, judge_workflow_step

if TYPE_CHECKING:
    from cockpit.config.evidence import ReleaseWorkflowsEvidence
    from cockpit.domain.checklist import ChecklistStep, Dispatch, StepWorkflow
    from cockpit.ports import Ports

RUNS_READ = 50  # each workflow's newest runs on its ref looked at
PACKAGES = "{packages}"
"""An input value in the template that stands for the configured packages (one real run each)."""


def workflow_gates(ports: Ports) -> dict[str, Gate]:
    """``workflow_run[<step id>]`` for each step of the checklist a workflow performs."""
    cfg = ports.config.evidence.release_workflows
    if cfg is None:
        return {}
    steps = [s for s in ports.checklist_steps() if s.workflow is not None and s.kind.judged]
    if not steps:
        return {}
    try:
        journal: list[Dispatch] = list(ports.state.dispatches())
    except CockpitError as exc:
        return {gate_key(s.id): _unknown(s.id, f"the dispatch journal cannot be read: {exc}") for s in steps}
    problems = tuple(d.problem for d in journal if d.problem)
    gates = {}
    for step in steps:
        spec = release_spec(ports, cfg, step)
        try:
            runs = ports.github.workflow_file_runs(spec.repository, spec.file_name, branch=spec.ref, limit=RUNS_READ)
        except CockpitError as exc:
            gates[gate_key(step.id)] = _unknown(step.id, f"the runs of {spec.file_name} in {spec.repository}: {exc}")
            continue
        gate = judge_workflow_step(step.id, step.title, spec, runs, journal, workflow=workflow_id(spec))
        if problems:
            gate = Gate(gate.name, gate.title, gate.status, gate.summary, (*gate.details, *problems), gate.signable)
        gates[gate_key(step.id)] = gate
    return gates


def release_spec(ports: Ports, cfg: ReleaseWorkflowsEvidence, step: ChecklistStep) -> StepWorkflow:
    """The step's workflow for this release: PyTorch's test-infra read as the configured repository and ref,
    pytorch/pytorch as the release's own repository, ``{packages}`` as the configured packages, and
    ``{version}``/``{version_short}`` filled in."""
    from dataclasses import replace

    spec = step.workflow
    assert spec is not None
    version = ports.config.release.version
    values = {"version": version, "version_short": ".".join(version.split(".")[:2])}
    repository, ref = spec.repository, spec.ref
    if repository == pytorch.RELEASE_WORKFLOWS_REPOSITORY:
        repository = cfg.repository
        ref = cfg.ref if ref == pytorch.RELEASE_WORKFLOWS_REF else ref
    elif repository == pytorch.RELEASE_WORKFLOWS_CORE:
        repository = ports.repository
    inputs = tuple((name, tuple(cfg.packages) if values_ == (PACKAGES,) else values_) for name, values_ in spec.inputs)
    return filled(replace(spec, repository=repository, ref=ref, inputs=inputs), values)


def _unknown(step_id: str, why: str) -> Gate:
    return Gate(gate_key(step_id), TITLE, GateStatus.UNKNOWN, why)
