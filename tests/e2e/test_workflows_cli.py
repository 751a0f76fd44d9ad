"""``cockpit workflows`` on the sandbox: the release's workflows with their latest runs and the versions
file's gate, as JSON, read-only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cockpit.bootstrap import github_actions
from cockpit.cli.main import main
from cockpit.cli.workflows import versions_gate
from cockpit.config.repos import RepoConfig
from cockpit.domain.gates import GateStatus
from cockpit.domain.release import Release
from cockpit.sandbox.world_release_day import TEST_INFRA

pytestmark = pytest.mark.slow


def test_the_release_workflows_are_listed_with_their_latest_runs(sandbox, sandbox_world, capsys):
    assert main(["workflows", "--config", str(sandbox.config_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["repository"] == TEST_INFRA and out["ref"] == "main"
    by_file = {Path(w["path"]).name: w for w in out["workflows"]}
    truth = sandbox_world.truth["release_day"]
    assert by_file["release-pypi.yml"]["latest_run"]["id"] == truth["dry_run_failed"]
    assert by_file["release-pypi.yml"]["latest_run"]["conclusion"] == "failure"
    assert by_file["release-download-site.yml"]["latest_run"]["status"] == "waiting"
    assert by_file["release-post-promotion.yml"]["latest_run"]["status"] == "waiting"  # the checksums await approval
    assert out["release_versions"]["status"] == "green"  # one repository configured: its own variable only
    assert any("TORCHLET_VISION_VERSION" in d for d in out["release_versions"]["details"])
    assert [e for e in sandbox.github.log() if e["method"] not in ("GET", "HEAD")] == []


def test_with_the_library_configured_the_variable_left_behind_is_named_with_both_versions(sandbox, sandbox_world):
    planted = sandbox_world.truth["release_day"]["versions"]
    vision = RepoConfig(
        name="vision",
        release=Release(planted["expected"], "acme/vision", "release/0.20"),
        clone=Path("."),
        packages=("torchlet-vision",),
    )
    config = replace(sandbox.config, repos=(vision,))
    client = github_actions(config.github, read_only=True)
    gate = versions_gate(client, config, TEST_INFRA)
    assert gate.status is GateStatus.RED
    assert f"{planted['variable']}={planted['file']}" in gate.summary and planted["expected"] in gate.summary
