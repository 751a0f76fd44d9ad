"""The ``pypi_staged`` gate read from S3, as PyTorch stages for PyPI: the sandbox's staged wheels in moto's
S3 server (started here, as ``cockpit demo`` starts it), and the same config with no credentials or no
boto3 (amber with the reason, never green)."""

from __future__ import annotations

import sys

import pytest

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.domain.gates import GateStatus
from cockpit.loaders.promotion import pypi_staged
from cockpit.sandbox.demo import SandboxServers, write_config
from cockpit.sandbox.s3_server import missing, staging_prefix
from cockpit.sandbox.world_promotion import STAGING_GAP

AWS_NAMES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE")


def staged_gate(config_path):
    backend = build_backend(load_config(config_path), read_only=True)
    try:
        return pypi_staged(backend)
    finally:
        backend.state.close()


@pytest.fixture
def no_aws(monkeypatch, tmp_path):
    """No credentials anywhere the standard chain looks (environment, files, profiles)."""
    for name in AWS_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")  # no instance role either: nothing leaves 127.0.0.1


def test_the_demo_reads_its_staging_from_the_s3_emulator_it_starts(sandbox_world, tmp_path, no_aws):
    if missing():
        pytest.skip(missing())
    with SandboxServers(sandbox_world, s3=True) as servers:
        assert servers.s3_url.startswith("http://127.0.0.1:")
        path = write_config(
            sandbox_world, tmp_path, github_url=servers.github_url, index_url=servers.index_url, s3_url=servers.s3_url
        )
        gate = staged_gate(path)
        package, platform, tag = STAGING_GAP
        version = sandbox_world.version
        assert gate.status is GateStatus.RED  # the planted gap, read from the bucket
        assert gate.summary == f"1 problem(s) at {staging_prefix(package, version)}"
        source, *problems = gate.details  # the Python builds' source first: the world's build matrix
        assert source.startswith("Python builds: 3.10") and "['release'] of pytorch/test-infra" in source
        assert problems == [f"missing: {package} {version} {tag} {platform}"]
        # a real run of the staging workflow that succeeds copies the wheel into the bucket (release_effects)
        effects = servers.github.release_effects
        effects.succeeded(
            {"workflow_path": ".github/workflows/release-stage-pypi.yml", "inputs": {"dryrun": "enabled"}}
        )
        assert staged_gate(path).status is GateStatus.RED, "a dry run stages nothing"
        effects.succeeded(
            {"workflow_path": ".github/workflows/release-stage-pypi.yml", "inputs": {"dryrun": "disabled"}}
        )
        assert staged_gate(path).status is GateStatus.GREEN


def test_with_no_aws_credentials_the_staging_gate_says_so_and_stays_amber(sandbox, tmp_path, no_aws):
    pytest.importorskip("boto3", reason="the [s3] extra is not installed")
    path = write_config(
        sandbox.world, tmp_path, github_url=sandbox.github_url, index_url=sandbox.index_url, s3_url="http://127.0.0.1:9"
    )
    gate = staged_gate(path)
    assert gate.name == "pypi_staged"
    assert (gate.status, gate.summary) == (GateStatus.AMBER, "no AWS credentials: cannot read staging")


def test_without_boto3_the_staging_gate_says_how_to_install_it_and_stays_amber(sandbox, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "boto3", None)  # an import of boto3 fails, as it does without the extra
    path = write_config(sandbox.world, tmp_path, github_url=sandbox.github_url, index_url=sandbox.index_url, s3_url="")
    gate = staged_gate(path)
    assert gate.status is GateStatus.AMBER
    assert gate.summary == "boto3 is not installed: cannot read staging (pip install 'release-cockpit[s3]')"


def test_without_a_staging_prefix_the_staging_channel_is_read_as_before(sandbox):
    assert not sandbox.config.storage.staging_prefix and sandbox.config.storage.staging_channel
    gate = staged_gate(sandbox.config_path)
    assert gate.status is GateStatus.RED and "staging" in gate.summary
