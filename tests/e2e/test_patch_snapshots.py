"""The patch release 2.5.1 (``cockpit demo --patch``) as the release manager sees it: the triage pane
and the overview with its phase line, in the dark and the light theme.

As in ``test_snapshots_sandbox``, the reports are loaded once through the real adapters, with the
patch world's own clock, and the emulators' ports are normalised, so no snapshot depends on the wall
clock, the ports or temporary paths.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.app import CockpitApp
from tests.conftest import SMALL_WORLD
from tests.e2e.test_snapshots_sandbox import LOADERS, LoadedOnce, normalised, patient, pin_evidence, showing

PATCH_LOADERS = (*LOADERS, "load_triage")


@pytest.fixture(scope="module")
def patch_loaded(tmp_path_factory):
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, prepare_world, write_config

    root = tmp_path_factory.mktemp("patch-snapshots")
    world = prepare_world(
        SMALL_WORLD["seed"], trunk_commits=SMALL_WORLD["trunk_commits"], directory=root / "w", patch=True
    )
    now = datetime.fromisoformat(world.clock)
    with SandboxServers(world) as servers:
        path = write_config(world, root, github_url=servers.github_url, index_url=servers.index_url)
        backend = build_backend(patient(load_config(path)), clock=lambda: now)
        urls = {servers.github_url: "http://127.0.0.1:PORT", servers.index_url: "http://127.0.0.1:PORT"}
        reports = {name: normalised(getattr(backend, name)(), urls) for name in PATCH_LOADERS}
        pin_evidence(backend)
        yield LoadedOnce(backend, reports), now
        backend.state.close()


def patch_app(loaded, theme: str) -> CockpitApp:
    backend, now = loaded
    app = CockpitApp(backend, clock=lambda: now)
    app.theme = theme
    app.animation_level = "none"
    return app


def showing_triage():
    settle = showing(None)

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("6")
        for _ in range(200):
            await pilot.pause(0.01)
            pane = pilot.app.mounted_pane("triage")
            if pane is not None and pane.report is not None and all(w.is_finished for w in pilot.app.workers):
                break
        await pilot.pause()

    return run_before


SIZES = [(120, 40), (80, 24)]
THEMES = ["cockpit-dark", "cockpit-light"]


class TestTriage:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    @pytest.mark.parametrize("theme", THEMES)
    def test_snapshot(self, patch_loaded, snap_compare, theme, size):
        assert snap_compare(patch_app(patch_loaded, theme), terminal_size=size, run_before=showing_triage())


class TestPatchOverview:
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    @pytest.mark.parametrize("theme", THEMES)
    def test_snapshot(self, patch_loaded, snap_compare, theme, size):
        assert snap_compare(patch_app(patch_loaded, theme), terminal_size=size, run_before=showing(None))
