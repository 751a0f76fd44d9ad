"""``cockpit init`` shows a new release manager how to make the evidence steps automatic: the config it writes
carries a commented ``[evidence]`` example with PyTorch's values; the config loads as written (no step turned
automatic behind the manager's back), and uncommented, the example loads with every evidence step enabled."""

from __future__ import annotations

from pathlib import Path

from cockpit.config import load_config
from cockpit.config.evidence import (
    PULL_DEFAULTS,
    ColabEvidence,
    DocsEvidence,
    PullEvidence,
    ReleaseWorkflowsEvidence,
    TritonEvidence,
    ValidateBinariesEvidence,
    ValidationCommentsEvidence,
    ValidationIssueEvidence,
)
from tests.e2e.test_init import init

EVIDENCE_STEPS = (
    "validate_binaries",
    "validation_comments",
    "validation_issue",
    "docs_build_entry",
    "release_matrix_pr",
    "published_versions_pr",
    "triton_pin_release",
    "colab_issue",
    "release_workflows",  # not a gate of its own: where the go-live workflows run, for the steps they perform
)


def written_config(sandbox, out: Path) -> str:
    flags = ["--repository", "acme/torchlet", "--version", "2.5.0", "--milestone", "12", "--tracker", "95056"]
    flags += ["--clone", str(sandbox.config.git.clone), "--api-url", sandbox.github_url, "--output", str(out)]
    assert init(*flags) == 0
    return out.read_text(encoding="utf-8")


def uncomment_evidence(text: str) -> str:
    """The config with the ``[evidence]`` example's lines uncommented, as a manager would do in an editor."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# [evidence."))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("# "))
    return "\n".join([*lines[:start], *(line[2:] for line in lines[start:end]), *lines[end:]]) + "\n"


def test_the_written_config_shows_the_evidence_example_commented_out_and_loads(sandbox, tmp_path, capsys):
    out = tmp_path / "mine.toml"
    text = written_config(sandbox, out)
    for step in EVIDENCE_STEPS:
        assert f"# [evidence.{step}]\n" in text
    assert 'repository = "pytorch/test-infra"' in text and 'workflow = "validate-binaries.yml"' in text
    assert load_config(out).evidence.configured == (), "commented out: every evidence step stays a signature"


def test_the_evidence_example_uncommented_loads_with_every_step_automatic_and_pytorchs_values(sandbox, tmp_path):
    out = tmp_path / "mine.toml"
    out.write_text(uncomment_evidence(written_config(sandbox, out)), encoding="utf-8")
    evidence = load_config(out).evidence
    assert set(evidence.configured) == set(EVIDENCE_STEPS)
    assert evidence.validate_binaries == ValidateBinariesEvidence()
    assert evidence.validation_comments == ValidationCommentsEvidence()
    assert evidence.validation_issue == ValidationIssueEvidence()
    assert evidence.docs_build_entry == DocsEvidence()
    assert evidence.release_matrix_pr == PullEvidence(*PULL_DEFAULTS["release_matrix_pr"])
    assert evidence.published_versions_pr == PullEvidence(*PULL_DEFAULTS["published_versions_pr"])
    assert evidence.triton_pin_release == TritonEvidence()
    assert evidence.colab_issue == ColabEvidence()
    assert evidence.release_workflows == ReleaseWorkflowsEvidence()
