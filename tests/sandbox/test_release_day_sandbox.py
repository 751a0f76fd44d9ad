"""The demo world plays release day: its test-infra holds the release workflows, a versions file with
one variable left behind, a failed dry run with a readable log tail, and a real run awaiting approval."""

from __future__ import annotations

import pytest

from cockpit.adapters.github_actions import GitHubActions
from cockpit.domain.gates import GateStatus
from cockpit.sandbox.world_libraries import CORE_PACKAGE, libraries
from cockpit.sandbox.world_release_day import TEST_INFRA, VERSIONS_PATH
from cockpit.services.release_versions import expected_versions, parse_release_versions, release_versions_gate

pytestmark = pytest.mark.slow


def test_the_demo_versions_file_has_one_variable_the_gate_names_with_both_values(sandbox, sandbox_world):
    planted = sandbox_world.truth["release_day"]["versions"]
    client = GitHubActions(sandbox.github_url)
    text, _sha = client.file_text(TEST_INFRA, VERSIONS_PATH, "main")
    libs = [(lib.name, lib.version, [lib.package]) for lib in libraries(sandbox_world.version)]
    expected, notes = expected_versions(sandbox_world.version, [CORE_PACKAGE], libs)
    gate = release_versions_gate(parse_release_versions(text), expected, ref=f"{TEST_INFRA}@main", notes=notes)
    assert gate.status is GateStatus.RED
    assert f"{planted['variable']}={planted['file']}" in gate.summary and planted["expected"] in gate.summary
    assert gate.summary.count("=") == 1  # the only variable that disagrees


def test_the_demo_release_workflows_their_failed_dry_run_and_the_run_awaiting_approval(sandbox, sandbox_world):
    truth = sandbox_world.truth["release_day"]
    client = GitHubActions(sandbox.github_url, read_only=True)
    names = {w.file_name for w in client.workflows(TEST_INFRA)}
    assert {"release-stage-pypi.yml", "release-pypi.yml", "release-download-site.yml", "release-docker.yml"} <= names
    form = client.workflow_file(TEST_INFRA, ".github/workflows/release-docker.yml", "main")
    assert [i.name for i in form.inputs] == ["version", "dry_run", "channel"] and form.environments == ("promote-env",)
    failed = next(j for j in client.jobs(TEST_INFRA, truth["dry_run_failed"]) if j.failed)
    assert truth["log_line"] in client.job_log_tail(TEST_INFRA, failed.id, lines=10)
    assert client.run(TEST_INFRA, truth["waiting_run"]).waiting
    (pending,) = client.pending_deployments(TEST_INFRA, truth["waiting_run"])
    assert pending.environment == truth["waiting_environment"] and pending.reviewers
