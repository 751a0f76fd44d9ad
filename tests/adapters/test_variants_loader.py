"""The release's indexes and PyPI-bound set as the loaders see them (``release_indexes``): the config's when it
names any, else the build matrix's variants from the same read as the Python builds, the PyPI-bound set following
the matrix's stable CUDA unless ``[storage.pypi_bound]`` is written otherwise."""

from __future__ import annotations

import pytest

from cockpit.config.pytorch import VARIANTS
from cockpit.loaders.build_matrix import python_builds, release_indexes
from cockpit.sandbox import world_matrix
from cockpit.sandbox.github_server import GitHubEmulator
from cockpit.sandbox.world_wheels import ARM, WIN, X86
from cockpit.sandbox.world_wheels import VARIANTS as WORLD_VARIANTS
from tests.adapters.test_build_matrix_loader import Ports, config, github
from tests.fixtures_world import tiny_world


@pytest.fixture
def world():
    w = tiny_world()
    world_matrix.add_build_matrix(w)
    return w


def indexes(world, tmp_path, **storage):
    with GitHubEmulator(world) as gh, github(gh.base_url, timeout=2, retries=0) as client:
        ports = Ports(config(tmp_path, **storage), client)
        found = release_indexes(ports)  # type: ignore[arg-type]
        builds = python_builds(ports)  # type: ignore[arg-type]
        return found, builds, len(gh.log())


def test_the_matrix_variants_and_pypi_bound_set_come_from_one_read(world, tmp_path):
    found, builds, requests = indexes(world, tmp_path)
    assert found.indexes == tuple(WORLD_VARIANTS.items()) and found.derived and not found.fallback
    # the profile's rule (the stable CUDA on both Linux platforms, cpu on Windows and macOS) with the matrix's 12.6
    assert found.pypi_bound == (("cu126", (X86, ARM)), ("cpu", (WIN, "macosx_*_arm64")))
    assert requests == 1 and not builds.fallback


def test_a_written_pypi_bound_table_wins_over_the_matrix(world, tmp_path):
    found, _b, _r = indexes(world, tmp_path, pypi_bound={"cu128": [ARM]})
    assert found.derived and found.pypi_bound == (("cu128", (ARM,)),)


def test_a_configured_variants_table_wins_and_nothing_is_read(world, tmp_path):
    found, _b, requests = indexes(world, tmp_path, python_tags=["cp312"], variants={"cu126": [X86]})
    assert found.indexes == (("cu126", (X86,)),) and not found.derived and requests == 0
    assert found.source == "Variants: cu126 ([storage] platforms / variants)"


def test_platforms_alone_keep_the_plain_index_only(world, tmp_path):
    found, _b, requests = indexes(world, tmp_path, python_tags=["cp312"], platforms=[X86])
    assert found.indexes == (("", (X86,)),) and requests == 0


def test_an_unreadable_matrix_gives_the_profiles_variants_with_the_reason(world, tmp_path):
    found, builds, _r = indexes(world, tmp_path, build_matrix_repository="acme/nowhere")
    assert found.indexes == VARIANTS and found.fallback and builds.fallback
    assert found.source.startswith("Variants: the profile's copy, cpu, cu126, cu130, cu132, rocm7.1, rocm7.2, xpu")
    assert "(build matrix unreadable: acme/nowhere has no " in found.source
    assert found.pypi_bound[0] == ("cu130", (X86, ARM))
