"""A release manager's single-repository config from before ``[[repo]]`` existed reads exactly as it did."""

from __future__ import annotations

import pytest

from tests.e2e.single_repo_outputs import FIXTURES, OUTPUTS, record


@pytest.fixture(scope="module")
def outputs_now(sandbox_world, tmp_path_factory):
    from cockpit.sandbox.demo import SandboxServers, write_config

    folder = tmp_path_factory.mktemp("single")
    with SandboxServers(sandbox_world) as servers:
        path = write_config(sandbox_world, folder, github_url=servers.github_url, index_url=servers.index_url)
        return record(servers, path)


@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_a_single_repository_config_gives_the_same_report_and_check_as_before(outputs_now, output):
    recorded = (FIXTURES / output).read_text(encoding="utf-8")
    assert outputs_now[output] == recorded, f"{output} differs from the output recorded with main's code (d3d6151)"
