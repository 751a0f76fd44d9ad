"""The checklist steps a release workflow performs, judged from that workflow's runs and the dispatch journal.

What it costs: one workflow-runs request per step with a workflow (the file's newest runs on its ref);
the journal is read from the state file. A step whose runs cannot be read is UNKNOWN with the reason,
never green. Nothing is read unless ``[evidence.release_workflows]`` is configured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.config import pytorch
from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import CockpitError, GitHubUnanswered
from cockpit.services.checklist_workflow import filled, workflow_id
from cockpit.services.workflow_runs import TITLE, gate_key, judge_workflow_step

if TYPE_CHECKING:
    from cockpit.config import Config
    from cockpit.config.evidence import ReleaseWorkflowsEvidence
    from cockpit.domain.checklist import ChecklistStep, Dispatch, StepWorkflow
    from cockpit.domain.release_versions import ExpectedVersion
    from cockpit.ports import Ports

RUNS_READ = 50  # each workflow's newest runs on its ref looked at
PACKAGES = "{packages}"
"""An input value in the template that stands for the configured packages (one real run each)."""


def workflow_gates(ports: Ports) -> dict[str, Gate]:
    """``workflow_run[<step id>]`` for each step of the checklist a workflow performs."""
    cfg = ports.config.evidence.release_workflows
    if cfg is None:
        return {}
    gates = {"release_versions": versions_gate(ports, cfg)}
    steps = [s for s in ports.checklist_steps() if s.workflow is not None and s.kind.judged]
    if not steps:
        return gates
    try:
        journal: list[Dispatch] = list(ports.state.dispatches())
    except CockpitError as exc:
        return {
            **gates,
            **{gate_key(s.id): _unknown(s.id, f"the dispatch journal cannot be read: {exc}") for s in steps},
        }
    problems = tuple(d.problem for d in journal if d.problem)
    silent = ""  # once GitHub has not answered one step's runs, the others are not asked (each would wait)
    for step in steps:
        spec = release_spec(ports, cfg, step)
        if silent:
            gates[gate_key(step.id)] = _unknown(step.id, f"not asked: GitHub stopped answering ({silent})")
            continue
        try:
            runs = ports.github.workflow_file_runs(spec.repository, spec.file_name, branch=spec.ref, limit=RUNS_READ)
        except CockpitError as exc:
            if isinstance(exc, GitHubUnanswered):
                silent = str(exc)
            gates[gate_key(step.id)] = _unknown(step.id, f"the runs of {spec.file_name} in {spec.repository}: {exc}")
            continue
        gate = judge_workflow_step(step.id, step.title, spec, runs, journal, workflow=workflow_id(spec))
        if problems:
            gate = Gate(gate.name, gate.title, gate.status, gate.summary, (*gate.details, *problems), gate.signable)
        gates[gate_key(step.id)] = gate
    return gates


def versions_gate(ports: Ports, cfg: ReleaseWorkflowsEvidence) -> Gate:
    """``release_versions``: ``release/release_versions.sh`` on the ref the workflows run from, read as data,
    against the release's version and each ``[[repo]]`` library's; unreadable is UNKNOWN with the reason."""
    from cockpit.domain.release_versions import RELEASE_VERSIONS_PATH
    from cockpit.services.release_versions import parse_release_versions, release_versions_gate

    expected, notes = release_expectations(ports.config)
    where = f"{cfg.repository}@{cfg.ref}"
    try:
        found = ports.github.repo_file(cfg.repository, RELEASE_VERSIONS_PATH, cfg.ref)
    except CockpitError as exc:
        return release_versions_gate(None, expected, ref=where, unreadable=str(exc))
    if found is None or found.text is None:
        why = "not found (404)" if found is None else "the contents API sent no UTF-8 text"
        return release_versions_gate(None, expected, ref=where, unreadable=f"{RELEASE_VERSIONS_PATH}: {why}")
    return release_versions_gate(parse_release_versions(found.text), expected, ref=where, notes=notes)


def release_expectations(config: Config) -> tuple[tuple[ExpectedVersion, ...], tuple[str, ...]]:
    """What each variable of ``release_versions.sh`` should hold: the release's version for the core's packages,
    each ``[[repo]]`` library's own version for its packages (``services.release_versions.expected_versions``)."""
    from cockpit.services.release_versions import expected_versions, own_packages

    core = config.repositories[0]
    libraries = [(r.name, r.release.version, r.packages) for r in config.repositories[1:]]
    return expected_versions(
        config.release.version, own_packages(core.repository, core.packages) or ["torch"], libraries
    )


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
