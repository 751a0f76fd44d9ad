"""The start form of a release workflow and its rules (cockpit.services.dispatch_form), on the shapes of
pytorch/test-infra's release workflows: ``dryrun`` a choice enabled/disabled defaulting to enabled
(release-pypi.yml, release-stage-pypi.yml), ``dry_run`` a boolean defaulting to true (release-docker.yml)."""

from __future__ import annotations

import pytest

from cockpit.domain.checklist import Dispatch, StepWorkflow
from cockpit.domain.workflows import WorkflowFile, WorkflowInput, WorkflowRun
from cockpit.errors import ActionRefused
from cockpit.services.dispatch_form import prefill, problems, real_run_refusal, same_inputs, unfinished

PYPI = WorkflowFile(
    ".github/workflows/release-pypi.yml",
    "main",
    "b10b",
    "Upload to PyPI",
    True,
    (
        WorkflowInput("dryrun", "choice", "Dry run", False, "enabled", ("enabled", "disabled")),
        WorkflowInput("package", "choice", "Package", True, "torch", ("torch", "torchvision", "torchaudio")),
        WorkflowInput("note", "string", "", False, None),
    ),
    ("pytorchbot-env",),
)
SPEC = StepWorkflow(
    "pytorch/test-infra",
    ".github/workflows/release-pypi.yml",
    "main",
    inputs=(("package", ("torchvision", "torchaudio")),),
    real_run=("dryrun", "disabled"),
)
DOCKER = WorkflowFile(
    ".github/workflows/release-docker.yml",
    "main",
    "d0c",
    "Docker release",
    True,
    (WorkflowInput("dry_run", "boolean", "", False, "true"), WorkflowInput("version", "string", "", True, None)),
)
DOCKER_SPEC = StepWorkflow(
    "pytorch/test-infra", ".github/workflows/release-docker.yml", "main", real_run=("dry_run", "false")
)
WF = "pytorch/test-infra:.github/workflows/release-pypi.yml"


def run(run_id: int, status: str = "completed", conclusion: str | None = "success") -> WorkflowRun:
    return WorkflowRun(
        run_id, 1, "Upload to PyPI", PYPI.path, "main", "abc", "workflow_dispatch", status, conclusion,
        "alice", "alice", "2026-12-06T10:00:00Z", 1, f"https://github.com/x/runs/{run_id}",
    )  # fmt: skip


def dispatch(key: str, inputs: dict[str, str], *, dry: bool, run_id: int = 0, ref: str = "main") -> Dispatch:
    return Dispatch(key, WF, tuple(inputs.items()), dry, ref, "2026-12-06T10:00:00Z", "alice", run_id)


def test_the_form_starts_as_a_dry_run_for_this_releases_first_package_over_the_files_defaults():
    assert prefill(SPEC, PYPI) == {"dryrun": "enabled", "package": "torchvision", "note": ""}
    assert prefill(SPEC, PYPI, package="torchaudio")["package"] == "torchaudio"
    assert prefill(SPEC, PYPI, package="Torch_Audio".replace("_", ""))["package"] == "torchaudio"  # PEP 503 names
    with pytest.raises(ActionRefused, match="no package 'not-ours' here: expected one of torchvision, torchaudio"):
        prefill(SPEC, PYPI, package="not-ours")  # never another package than the one asked for
    assert prefill(SPEC, PYPI, real=True)["dryrun"] == "disabled"
    assert prefill(DOCKER_SPEC, DOCKER) == {"dry_run": "true", "version": ""}
    assert prefill(DOCKER_SPEC, DOCKER, real=True)["dry_run"] == "false"


def test_every_wrong_value_is_named_with_what_was_expected():
    found = problems(PYPI, {"dryrun": "maybe", "package": "", "note": "x\x1b[2J", "nope": "1"})
    assert any(p.startswith("nope: not an input of .github/workflows/release-pypi.yml on main") for p in found)
    assert "dryrun: 'maybe' is not one of its options (enabled, disabled)" in found
    assert "package: required, and empty" in found
    assert "note: contains control characters; expected plain text" in found
    assert problems(DOCKER, {"dry_run": "yes", "version": "2.5.0"}) == ["dry_run: 'yes': expected true or false"]
    assert problems(PYPI, {"dryrun": "enabled", "package": "torchvision", "note": "n" * 2000})[0].startswith(
        "note: 2000"
    )
    assert problems(PYPI, prefill(SPEC, PYPI)) == []


def test_the_real_run_waits_for_a_dry_run_with_the_same_inputs_that_succeeded():
    real = prefill(SPEC, PYPI, real=True)
    assert "no dry run" in real_run_refusal(SPEC, real, [], {}, workflow=WF)
    other = [dispatch("d0001", {"dryrun": "enabled", "package": "torchaudio"}, dry=True, run_id=5)]
    assert "no dry run" in real_run_refusal(SPEC, real, other, {5: run(5)}, workflow=WF)
    pending = [dispatch("d0001", {"dryrun": "enabled", "package": "torchvision", "note": ""}, dry=True)]
    assert "no run known yet" in real_run_refusal(SPEC, real, pending, {}, workflow=WF)
    going = [dispatch("d0001", {"dryrun": "enabled", "package": "torchvision", "note": ""}, dry=True, run_id=6)]
    assert "still in_progress" in real_run_refusal(SPEC, real, going, {6: run(6, "in_progress", None)}, workflow=WF)
    assert "concluded failure" in real_run_refusal(SPEC, real, going, {6: run(6, conclusion="failure")}, workflow=WF)
    assert real_run_refusal(SPEC, real, going, {6: run(6)}, workflow=WF) == ""
    elsewhere = [
        dispatch("d0001", {"dryrun": "enabled", "package": "torchvision", "note": ""}, dry=True, run_id=6, ref="dev")
    ]
    assert "no dry run" in real_run_refusal(SPEC, real, elsewhere, {6: run(6)}, workflow=WF)


def test_inputs_are_the_same_whatever_the_dry_run_input_says():
    assert same_inputs(SPEC, {"dryrun": "enabled", "package": "a"}, {"dryrun": "disabled", "package": "a"})
    assert not same_inputs(SPEC, {"dryrun": "enabled", "package": "a"}, {"dryrun": "enabled", "package": "b"})


def test_a_dispatch_without_its_run_is_unfinished_unless_it_is_known_to_have_made_none():
    journal = [
        dispatch("d0001", {}, dry=True, run_id=3),
        dispatch("d0002", {}, dry=True),
        Dispatch("d0003", WF, (), True, "main", "2026-12-06T10:00:00Z", "alice", 0, no_run="none appeared"),
        Dispatch("d0004", WF, (), True, "main", "2026-12-06T10:00:00Z", "alice", 0, problem="damaged"),
    ]
    assert [d.key for d in unfinished(journal, WF)] == ["d0002"]
