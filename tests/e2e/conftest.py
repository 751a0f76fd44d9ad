"""The multi-repository sandbox: the core world with two domain libraries, built once per run."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def multi_world(tmp_path_factory):
    from cockpit.sandbox.demo import prepare_world
    from tests.conftest import SMALL_WORLD

    root = tmp_path_factory.mktemp("multi")
    return prepare_world(
        SMALL_WORLD["seed"], trunk_commits=SMALL_WORLD["trunk_commits"], directory=root / "w", multi=True
    )


@pytest.fixture()
def multi_sandbox(multi_world, tmp_path):
    """The multi world's emulators and a config with its ``[[repo]]`` entries and a fresh state file."""
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, write_config

    with SandboxServers(multi_world) as servers:
        path = write_config(multi_world, tmp_path, github_url=servers.github_url, index_url=servers.index_url)
        servers.config_path = path
        servers.config = load_config(path)
        yield servers
