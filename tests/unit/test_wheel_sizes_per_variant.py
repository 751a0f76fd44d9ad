"""Wheel sizes judged per variant through the storage loader, over a wheel index in PyTorch's shape
(the RC channel's sub-indexes, the previous release in stable) served as PEP 691 JSON by the index
emulator and read by the real adapter; the config's defaults are the PyTorch profile's."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cockpit.adapters.storage import WheelIndex
from cockpit.config.loading import parse_config
from cockpit.domain.gates import GateStatus
from cockpit.gates import gate_spec
from cockpit.loaders.shared import SharedResults
from cockpit.loaders.storage import load_storage
from cockpit.sandbox.index_server import IndexEmulator
from cockpit.sandbox.model import SbWheel, World
from cockpit.services.variant_sizes import history_of
from cockpit.state.store import StateStore

MB = 1_000_000
X86, WIN = "manylinux_2_28_x86_64", "win_amd64"


def whl(version: str, variant: str, platform: str = X86, py: str = "cp312") -> str:
    """A real torch wheel name: ``torch-2.9.0+rocm6.4-cp312-cp312-manylinux_2_28_x86_64.whl``."""
    return f"torch-{version}+{variant}-{py}-{py}-{platform}.whl"


@dataclass
class Git:
    tags_: dict[str, str]

    def tags(self) -> dict[str, str]:
        return self.tags_

    def log(self, rev_range: str, **_: object) -> list:
        return []  # the commits between two builds (size jumps): none here


@dataclass
class Ports:
    """What ``load_storage`` reads of the backend: the config, the index, the clone's tags, the state."""

    config: object
    wheel_index: WheelIndex
    state: StateStore
    git: Git
    pypi: None = None
    read_only: bool = False
    shared: SharedResults = field(default_factory=SharedResults)
    repository: str = "acme/torchlet"

    def clock(self) -> datetime:
        return datetime(2026, 10, 1, tzinfo=UTC)


def world(rc: dict[str, int], stable: dict[str, int]) -> World:
    def variant(name: str) -> str:
        return name.split("+")[1].split("-")[0]

    wheels = [SbWheel("test", "torch", n, s, f"{i:064x}", variant=variant(n)) for i, (n, s) in enumerate(rc.items())]
    wheels += [SbWheel("stable", "torch", n, s, "e" * 64, variant=variant(n)) for n, s in stable.items()]
    return World(0, "2.9.0", "pytorch/pytorch", "release/2.9", 1, 1, wheels=wheels)


def load(tmp_path: Path, rc: dict[str, int], stable: dict[str, int], rc1: dict[str, int] | None = None):
    config = parse_config(
        tmp_path / "cockpit.toml",
        {
            "release": {"version": "2.9.0", "repository": "pytorch/pytorch", "branch": "release/2.9"},
            "git": {"clone": str(tmp_path)},
            "storage": {
                "index_url": "http://unused",
                "packages": ["torch"],
                "python_tags": ["cp312"],
                "variants": {"cu130": [X86], "cu126": [X86], "rocm6.4": [X86], "cpu": [WIN]},
            },
            "state": {"path": str(tmp_path / "state.toml")},
        },
    )
    state = StateStore(tmp_path / "state.toml")
    if rc1:
        state.record_rc_sizes("v2.9.0-rc1", rc1)
    with IndexEmulator(world(rc, stable)) as server, WheelIndex(server.base_url, timeout=5) as index:
        ports = Ports(config, index, state, Git({"v2.9.0-rc1": "a" * 40, "v2.9.0-rc2": "b" * 40}))
        try:
            return load_storage(ports)  # type: ignore[arg-type]
        finally:
            state.close()


RC2 = {
    whl("2.9.0", "rocm6.4"): 4_300 * MB,  # ROCm wheels are over four gigabytes as a matter of course
    whl("2.9.0", "cu130"): 1_100 * MB,  # the stable CUDA on Linux x86_64: this one goes to PyPI
    whl("2.9.0", "cu126"): 1_150 * MB,  # a download-site CUDA wheel, over PyPI's limit and fine
    whl("2.9.0", "cpu", WIN): 250 * MB,
}
STABLE = {
    whl("2.8.0", "rocm6.4"): 4_280 * MB,  # within 50 MB of it
    whl("2.8.0", "cu126"): 1_120 * MB,
    whl("2.8.0", "cpu", WIN): 240 * MB,
    whl("2.7.1", "cpu", WIN): 100 * MB,  # an older release: never compared
}


def test_a_4_gb_rocm_wheel_is_not_a_finding_a_1_1_gb_pypi_bound_wheel_is(tmp_path):
    result = load(tmp_path, RC2, STABLE)

    oversize = [(p.kind, p.filename) for p in result.report.problems if p.kind in ("oversize", "size_warning")]
    assert oversize == [("oversize", whl("2.9.0", "cu130"))]
    assert result.gate.status is GateStatus.RED
    sizes = gate_spec("wheel_sizes").read(result)  # type: ignore[misc]
    assert sizes.status is GateStatus.RED
    assert sizes.details == (f"{whl('2.9.0', 'cu130')}: 1100.0 MB, over PyPI's limit (this wheel goes to PyPI)",)


def test_a_jump_against_the_previous_release_of_the_same_variant_is_amber_with_both_sizes(tmp_path):
    rc = {**RC2, whl("2.9.0", "cu130"): 800 * MB, whl("2.9.0", "rocm6.4"): 4_700 * MB}
    result = load(tmp_path, rc, STABLE)

    assert result.gate.status is GateStatus.GREEN  # nothing missing, nothing PyPI-bound over the limit
    assert result.sizes_gate is not None and result.sizes_gate.status is GateStatus.AMBER
    assert result.sizes_gate.details == (f"{whl('2.9.0', 'rocm6.4')}: 4700.0 MB, was 4280.0 MB in v2.8.0 (1.10x)",)
    assert [label for label, _sizes in history_of(result.rc_sizes, result.release_sizes)] == ["v2.8.0", "v2.9.0-rc2"]


def test_the_previous_rc_recorded_in_the_state_comes_first(tmp_path):
    rc1 = {**RC2, whl("2.9.0", "cu126"): 1_050 * MB}
    result = load(tmp_path, RC2, STABLE, rc1)

    assert result.sizes_gate is not None and result.sizes_gate.status is GateStatus.RED  # the cu130 wheel
    assert f"{whl('2.9.0', 'cu126')}: 1150.0 MB, was 1050.0 MB in v2.9.0-rc1 (1.10x)" in result.sizes_gate.details
    assert [label for label, _sizes in history_of(result.rc_sizes, result.release_sizes)] == [
        "v2.8.0",
        "v2.9.0-rc1",
        "v2.9.0-rc2",
    ]


@pytest.mark.parametrize("bound", [{"cu126": [X86]}])
def test_a_config_names_its_own_pypi_bound_set(tmp_path, bound):
    config = parse_config(
        tmp_path / "c.toml",
        {
            "release": {"version": "2.9.0", "repository": "pytorch/pytorch", "branch": "release/2.9"},
            "git": {"clone": str(tmp_path)},
            "storage": {"pypi_bound": bound},
        },
    )
    assert config.storage.pypi_bound == (("cu126", (X86,)),)
