"""What every pane looks like over the sandbox release, in the dark and the light theme.

The reports are loaded once per module through the real adapters over the sandbox emulators, with
the world's fixed clock; each snapshot then draws them, so a snapshot depends on neither the wall
clock nor the emulators' ports (replaced by ``http://127.0.0.1:PORT``) nor temporary paths.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import pytest

from cockpit.bootstrap import build_backend
from cockpit.ui.app import CockpitApp

NOW = datetime(2026, 10, 2, 12, 0, tzinfo=UTC)
"""A day after the sandbox history's last commit."""
PANE_KEYS = {"milestone": "1", "picks": "2", "ci": "3", "branch": "4", "checklist": "5"}
LOADERS = ("load_milestone", "load_picks", "load_ci", "load_branch_diff", "load_storage")


def normalised(value: Any, urls: dict[str, str]) -> Any:
    """``value`` with each of ``urls`` replaced in every string inside it (dataclasses, tuples)."""
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        for old, new in urls.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, tuple):
        return tuple(normalised(v, urls) for v in value)
    if isinstance(value, list):
        return [normalised(v, urls) for v in value]
    if isinstance(value, dict):
        return {k: normalised(v, urls) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: normalised(getattr(value, f.name), urls) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value


class LoadedOnce:
    """The real backend, its pane reports loaded once and served again to every snapshot."""

    def __init__(self, backend: Any, reports: dict[str, Any]) -> None:
        self._backend, self._reports = backend, reports

    def __getattr__(self, name: str) -> Any:
        if name in self._reports:
            return lambda: self._reports[name]
        return getattr(self._backend, name)

    def rate_limit_text(self) -> str:
        """The status bar's budget, fixed: the request count grows with the machine's load (a timeout retried
        is one request more), which is no part of what a snapshot shows (tests/e2e/test_faults.py checks it)."""
        return "GitHub budget: counted, not drawn in snapshots"


@pytest.fixture(scope="module")
def loaded(sandbox_world, tmp_path_factory):
    from cockpit.config import load_config
    from cockpit.sandbox.demo import SandboxServers, seed_rc_sizes, write_config

    with SandboxServers(sandbox_world) as servers:
        path = write_config(
            sandbox_world,
            tmp_path_factory.mktemp("snapshots"),
            github_url=servers.github_url,
            index_url=servers.index_url,
        )
        seed_rc_sizes(load_config(path), sandbox_world)  # rc1's sizes, as the demo plants them
        backend = build_backend(patient(load_config(path)), clock=lambda: NOW)
        urls = {servers.github_url: "http://127.0.0.1:PORT", servers.index_url: "http://127.0.0.1:PORT"}
        reports = {name: normalised(getattr(backend, name)(), urls) for name in LOADERS}
        pin_evidence(backend)
        yield LoadedOnce(backend, reports)
        backend.state.close()


def patient(config: Any) -> Any:
    """The sandbox config with a 60 s timeout: the demo's 5 s is for people, and on a busy CI machine one HEAD
    of the wheel index can take longer, which a snapshot would then record as a wheel "of unknown size"."""
    from dataclasses import replace

    return replace(config, github=replace(config.github, timeout_s=60.0))


def pin_evidence(backend: Any) -> None:
    """Read the checklist's evidence, promotion and workflow gates once and serve them to every re-evaluation:
    the real backend reads them again after ``EVIDENCE_REUSE_S`` or the refresh interval, and a module's later
    tests run minutes after its fixture in a slow run; that must not change the request count a snapshot shows."""
    evidence, promotion, workflows = backend.load_evidence(), backend.promotion_gates(), backend.workflow_gates()
    backend.load_evidence = lambda: evidence
    backend.promotion_gates = lambda: promotion
    backend.workflow_gates = lambda: workflows


def snapshot_app(backend: Any, theme: str) -> CockpitApp:
    app = CockpitApp(backend, clock=lambda: NOW)
    app.theme = theme
    app.animation_level = "none"
    return app


def showing(pane: str | None):
    """``run_before``: wait until every load has finished, then show ``pane``."""

    async def run_before(pilot) -> None:
        app = pilot.app
        for _ in range(400):
            await pilot.pause(0.01)
            checklist = app.mounted_pane("checklist")
            if all(w.is_finished for w in app.workers) and checklist is not None and checklist.report is not None:
                await pilot.pause()
                if all(w.is_finished for w in app.workers):
                    break
        if pane is not None:
            await pilot.press(PANE_KEYS[pane])
        await pilot.pause()

    return run_before


class TestOverview:
    def test_dark_120x40(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing(None))

    def test_light_120x40(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing(None))

    def test_dark_80x24(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(80, 24), run_before=showing(None))

    def test_light_80x24(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-light"), terminal_size=(80, 24), run_before=showing(None))


class TestMilestone:
    def test_dark(self, loaded, snap_compare):
        assert snap_compare(
            snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing("milestone")
        )

    def test_light(self, loaded, snap_compare):
        assert snap_compare(
            snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing("milestone")
        )


class TestCherryPicks:
    def test_dark(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing("picks"))

    def test_light(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing("picks"))


class TestCI:
    def test_dark(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing("ci"))

    def test_light(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing("ci"))


class TestBranchDiff:
    def test_dark(self, loaded, snap_compare):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing("branch"))

    def test_light(self, loaded, snap_compare):
        assert snap_compare(
            snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing("branch")
        )


class TestChecklist:
    def test_dark(self, loaded, snap_compare):
        assert snap_compare(
            snapshot_app(loaded, "cockpit-dark"), terminal_size=(120, 40), run_before=showing("checklist")
        )

    def test_light(self, loaded, snap_compare):
        assert snap_compare(
            snapshot_app(loaded, "cockpit-light"), terminal_size=(120, 40), run_before=showing("checklist")
        )


class TestEveryPaneAt80x24:
    """Every pane at the smallest size a release manager may have (issue 32): columns fitted, cut text
    ending in an ellipsis, quit and help on the key line, the checklist's step log closed."""

    @pytest.mark.parametrize("pane", ["milestone", "picks", "ci", "branch", "checklist"])
    def test_dark(self, loaded, snap_compare, pane):
        assert snap_compare(snapshot_app(loaded, "cockpit-dark"), terminal_size=(80, 24), run_before=showing(pane))
