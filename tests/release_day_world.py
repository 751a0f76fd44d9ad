"""A tiny world with release day planted in ``acme/test-infra`` (``cockpit.sandbox.world_release_day``)."""

from __future__ import annotations

from cockpit.sandbox.model import SbRepo, World
from cockpit.sandbox.world_release_day import TEST_INFRA, add_release_day
from tests.fixtures_world import tiny_world

INFRA_HEAD = "7" * 40


def release_day_world(*, run_details: bool = True) -> World:
    """The tiny world plus test-infra's release workflows, runs and versions file.

    ``run_details=False``: the emulator answers every dispatch 204, as GitHub did before
    ``return_run_details`` (and as an older Enterprise server still does)."""
    world = tiny_world()
    world.repos[TEST_INFRA] = SbRepo(TEST_INFRA, branches={"main": INFRA_HEAD, "release/2.5": "8" * 40})
    add_release_day(world)
    world.repos[TEST_INFRA].files["release/2.5"] = dict(world.repos[TEST_INFRA].files["main"])
    world.release_day["run_details"] = run_details
    return world
