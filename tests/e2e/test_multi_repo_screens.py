"""The overview of a release over three repositories: each library's gates, the repository filter."""

from __future__ import annotations

from typing import Any

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.repos import REPO_GATES, repo_gate_name
from cockpit.ui.app import CockpitApp
from tests.e2e.test_snapshots_sandbox import LOADERS, NOW, normalised, patient, pin_evidence, showing
from tests.e2e.test_snapshots_sandbox import LoadedOnce as SingleLoadedOnce


class LoadedOnce(SingleLoadedOnce):
    """The real backend over the multi-repository sandbox, every report loaded once."""

    def load_repositories(self, ci: Any = None) -> Any:
        return self._reports["load_repositories"]


@pytest.fixture(scope="module")
def loaded(multi_world, tmp_path_factory):
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, write_config

    with SandboxServers(multi_world) as servers:
        path = write_config(
            multi_world,
            tmp_path_factory.mktemp("multi-screens"),
            github_url=servers.github_url,
            index_url=servers.index_url,
        )
        backend = build_backend(patient(load_config(path)), clock=lambda: NOW)
        urls = {servers.github_url: "http://127.0.0.1:PORT", servers.index_url: "http://127.0.0.1:PORT"}
        reports = {name: normalised(getattr(backend, name)(), urls) for name in (*LOADERS, "load_repositories")}
        pin_evidence(backend)  # as the single-repo screens: a slow run must not read it twice (the request count)
        yield LoadedOnce(backend, reports)
        backend.state.close()


def app_on(backend: Any, theme: str = "cockpit-dark") -> CockpitApp:
    app = CockpitApp(backend, clock=lambda: NOW)
    app.theme = theme
    app.animation_level = "none"
    return app


def filtered(times: int, *keys: str):
    """``run_before``: every load finished, then ``@`` pressed ``times`` times (then ``keys``)."""
    settle = showing(None)

    async def run_before(pilot) -> None:
        await settle(pilot)
        for _ in range(times):
            await pilot.press("at")
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


@pytest.mark.anyio
async def test_the_overview_lists_each_librarys_gates_as_planted_and_the_filter_cycles(loaded, multi_world):
    from cockpit.ui.panes.overview import GateList
    from cockpit.ui.repo_gates import RepoGates

    app = app_on(loaded)
    async with app.run_test(size=(80, 24)) as pilot:
        await showing(None)(pilot)
        truth = multi_world.truth["libraries"]
        for name in ("vision", "audio"):
            planted = {repo_gate_name(g, name): truth[name]["gates"][g] for g in REPO_GATES}
            assert {n: app.gates[n].status.value for n in planted} == planted
        section, core = app.overview.query_one(RepoGates), app.overview.query_one(GateList)
        seen = []
        for _ in range(4):
            await pilot.press("at")
            await pilot.pause()
            seen.append((section.choice, section.display, core.display))
        assert seen == [("torchlet", False, True), ("vision", True, False), ("audio", True, False), ("", True, True)]
        from cockpit.ui.palette import app_commands

        commands = {c.name: c for c in app_commands(app) if c.name.startswith("Repository: ")}
        assert list(commands) == [
            "Repository: all repositories",
            "Repository: torchlet (acme/torchlet)",
            "Repository: vision (acme/vision)",
            "Repository: audio (acme/audio)",
        ]
        commands["Repository: audio (acme/audio)"].run()
        await pilot.pause()
        assert section.choice == "audio" and "RC artifacts of audio" in str(app.overview.body.content)


def test_a_single_repository_release_has_no_repository_filter(sandbox):
    from cockpit.config import load_config

    backend = build_backend(load_config(sandbox.config_path), read_only=True)
    app = CockpitApp(backend)
    assert not [b for b in app._bindings.key_to_bindings if b == "at"]
    backend.state.close()


class TestRepositoryOverview:
    def test_all_repositories_80x24(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(80, 24), run_before=showing(None))

    def test_all_repositories_120x40_light(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing(None))

    def test_filtered_to_vision_80x24(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(80, 24), run_before=filtered(2))

    def test_filtered_to_the_core_80x24(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(80, 24), run_before=filtered(1))


@pytest.mark.anyio
async def test_the_whole_verdict_of_three_repositories_is_readable_at_80x24(loaded):
    """Ten red gates and unsigned steps make a sentence longer than the box: it wraps, never cut."""
    from textual.geometry import Region

    app = app_on(loaded)
    async with app.run_test(size=(80, 24)) as pilot:
        await showing(None)(pilot)
        verdict = app.overview.query_one("#verdict")
        sentence = str(verdict.render())
        assert len(sentence) > verdict.content_region.width, "the planted verdict no longer needs two lines"
        strips = verdict.render_lines(Region(0, 0, *verdict.outer_size))
        shown = " ".join(" ".join(strip.text.strip("┃━┏┓┗┛ ").split()) for strip in strips).split()
        assert " ".join(shown) == " ".join(sentence.split())


class TestRepositoryFilterInTables:
    """The table panes over three repositories: the repository column, and the filter narrowing the rows."""

    def test_picks_filtered_to_vision_120x40(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(120, 40), run_before=filtered(2, "2"))

    def test_picks_filtered_to_vision_80x24(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(80, 24), run_before=filtered(2, "2"))

    def test_milestone_all_repositories_by_repository_120x40(self, loaded, snap_compare):
        """``S``: sorted by the repository column, reversed (vision, torchlet, audio)."""
        assert snap_compare(app_on(loaded), terminal_size=(120, 40), run_before=filtered(0, "1", "S"))

    def test_branch_diff_filtered_to_audio_80x24(self, loaded, snap_compare):
        assert snap_compare(app_on(loaded), terminal_size=(80, 24), run_before=filtered(3, "4"))
