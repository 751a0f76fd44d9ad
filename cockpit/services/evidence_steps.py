"""Which checklist steps judge themselves from evidence: those whose ``[evidence]`` table is configured.

The packaged template marks the evidence steps automatic; a release whose config does not say where a
step's evidence lives keeps that step a signature, with a help line saying what config would judge it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from cockpit.domain.checklist import ChecklistStep, StepKind
from cockpit.domain.evidence import EVIDENCE_GATES

_WHERE = {
    "validate_binaries": 'repository = "pytorch/test-infra", workflow = "validate-binaries.yml", branch = "main"',
    "validation_comments": 'phrase = "Validated for {version}"',
    "validation_issue": 'title = ["Validations for {version} release"] (and repository, when not the release\'s)',
    "docs_build_entry": 'repository = "pytorch/docs", ref = "site", path = "{version_short}/index.html"',
    "release_matrix_pr": "url = the PR's address, or repository and title",
    "published_versions_pr": "url = the PR's address, or repository and title",
    "triton_pin_release": 'pin_path and versions = { "<pinned commit>" = "<triton version>" }',
    "colab_issue": 'repository = "googlecolab/colabtools", title = "*{version}*"',
}


def how_to_automate(gate: str) -> str:
    """The config that would make the step of ``gate`` judge itself."""
    return f"add [evidence.{gate}] to cockpit.toml ({_WHERE[gate]}) and this step judges itself"


WORKFLOWS = "release_workflows"
VERSIONS_GATE = "release_versions"  # read from the workflows' repository and ref: judged with them
_WORKFLOWS_WHERE = (
    "add [evidence.release_workflows] to cockpit.toml (repository, ref and packages default to PyTorch's) and "
    "this step is judged from the workflow's runs"
)


def evidence_steps(steps: Sequence[ChecklistStep], configured: Collection[str]) -> tuple[ChecklistStep, ...]:
    """``steps`` with each evidence step whose evidence is not configured turned back into a manual step: the
    ``[evidence.<gate>]`` steps, and the steps a release workflow performs without ``[evidence.release_workflows]``."""
    out = []
    for step in steps:
        if step.kind.judged and step.gate in EVIDENCE_GATES and step.gate not in configured:
            help_text = f"{step.help}\n\nA signature for now: {how_to_automate(step.gate)}.".strip()
            step = replace(step, kind=StepKind.MANUAL, gate=None, help=help_text)
        elif (step.workflow is not None or step.gate == VERSIONS_GATE) and WORKFLOWS not in configured:
            help_text = f"{step.help}\n\nA signature for now: {_WORKFLOWS_WHERE}.".strip()
            step = replace(step, kind=StepKind.MANUAL, gate=None, help=help_text)
        out.append(step)
    return tuple(out)
