"""Pane 3, the release manager's CI story over a hand-made report: what is red, since when it was
last green, how fresh that is, and the jobs behind it, at 160 and at 80 columns."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from fake_backend import ACTIONS, NOW, FakeAction, FakeBackend, FakeRegistry
from textual.widgets import DataTable, Static

from cockpit.domain.ci import JobVerdict, RepoCIVerdict
from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.reports import CIReport
from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.panes.ci import CIPane
from cockpit.ui.panes.ci_detail import CIDetailScreen, RunLink
from cockpit.ui.rows_table import RowsTable
from tests.pilot import settle

pytestmark = pytest.mark.anyio
WEB = "https://github.com/acme/torchlet/actions/runs"
OPEN = FakeAction("ci.open", "Open in browser", "safe", "ci")


def job(name, workflow, conclusion, *, run_id=700, job_id=1, minutes=None):
    status = "completed" if conclusion else "queued"
    return JobVerdict(
        name,
        workflow,
        status,
        conclusion,
        html_url=f"{WEB}/{run_id}/job/{job_id}",
        run_id=run_id,
        duration_s=minutes * 60 if minutes else None,
    )


def report(requests=20, not_modified=0) -> CIReport:
    torchlet = RepoCIVerdict(
        "acme/torchlet",
        "release/2.5",
        GateStatus.RED,
        "pull: 1 job failed: linux-jammy-py3.10-gcc11 / test (default); 1 job unstable failing (ignored)",
        failed=(job("linux-jammy-py3.10-gcc11 / test (default)", "pull", "failure", job_id=11, minutes=28),),
        unstable=(job("linux-focal-rocm / test (default, unstable)", "trunk", "failure", run_id=701, job_id=12),),
        advisory_failed=(job("nightly / docs", "periodic", "failure", run_id=702, job_id=13, minutes=3),),
        job_count=55,
        head_sha="e" * 40,
        last_green_sha="2112d0cb" + "0" * 32,
        commits_behind_green=2,
    )
    vision = RepoCIVerdict(
        "acme/vision",
        "release/2.5",
        GateStatus.GREEN,
        "all 12 jobs of lint, pull, trunk passed",
        job_count=12,
        head_sha="c" * 40,
        last_green_sha="c" * 40,
        commits_behind_green=0,
    )
    audio = RepoCIVerdict(
        "acme/audio",
        "release/2.5",
        GateStatus.AMBER,
        "1 job pending: trunk / gpu / test (default)",
        pending=(job("gpu / test (default)", "trunk", None, run_id=703, job_id=14),),
        job_count=12,
        head_sha="d" * 40,
        last_green_sha="219cda56" + "0" * 32,
        commits_behind_green=1,
    )
    rc = RepoCIVerdict(
        "acme/torchlet",
        "v2.5.0-rc2",
        GateStatus.GREEN,
        "all 46 jobs of binary-builds passed",
        job_count=46,
        head_sha="2112d0cb" + "0" * 32,
    )
    gate = Gate("ci_green", "CI green", GateStatus.RED, "acme/torchlet @ release/2.5")
    return CIReport(
        (torchlet, vision, audio),
        (rc,),
        gate,
        requests,
        not_modified,
        ("acme/vision: binary builds (binary-builds) not judged: RC tags are read from the acme/torchlet clone only",),
    )


class CIRegistry(FakeRegistry):
    """The fake registry plus the catalog's safe ``ci.open``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._actions[OPEN.id] = OPEN

    def for_pane(self, pane):
        return [a for a in (*ACTIONS, OPEN) if a.pane == pane]


class CIBackend(FakeBackend):
    def __post_init__(self) -> None:
        super().__post_init__()
        self.actions = CIRegistry(self.state, read_only=self.read_only)
        self.ci_reports = [report()]

    def load_ci(self):
        return self._load("ci", lambda: self.ci_reports[min(len(self.loads_of("ci")), len(self.ci_reports)) - 1])

    def loads_of(self, name):
        return [n for n in self.loads if n == name]


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self):
        return self.now


def make_app(backend=None, clock=None) -> CockpitApp:
    app = CockpitApp(backend or CIBackend(), clock=clock or (lambda: NOW))
    app.animation_level = "none"
    return app


def rows(app) -> list[str]:
    table = app.query_one("#pane-ci .pane-table", RowsTable)
    return ["  ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


def status(app) -> str:
    return str(app.query_one("#pane-ci .ci-status", Static).render())


def notes(app) -> str:
    return "\n".join(app.notices.messages())


async def test_each_repository_shows_its_verdict_reason_counts_and_last_green_commit():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        torchlet, vision, audio, rc = rows(app)
        assert "RED" in torchlet and "1/0/1" in torchlet and "2112d0cb, 2 behind" in torchlet
        assert "pull: 1 job failed: linux-jammy-py3.10-gcc11 / test (default)" in torchlet
        assert "GREEN" in vision and "head" in vision
        assert "AMBER" in audio and "0/1/0" in audio and "219cda56, 1 behind" in audio
        assert "v2.5.0-rc2" in rc and "n/a: RC tag" in rc
        assert "last load: 20 GitHub requests" in status(app)
        assert "binary builds (binary-builds) not judged" in status(app)


async def test_at_80_columns_the_last_green_commit_stays_visible_and_long_reasons_end_in_an_ellipsis():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await pilot.pause()
        table = app.query_one("#pane-ci .pane-table", RowsTable)
        assert sum(c.get_render_width(table.cell_padding) for c in table.columns.values()) <= 80
        torchlet = rows(app)[0]
        assert "2112d0c -2" in torchlet and "1/0/1" in torchlet
        assert torchlet.endswith("…")
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert "2112d0cb, 2 behind" in rows(app)[0]


async def test_the_freshness_ages_live_on_screen_without_reloading(monkeypatch):
    monkeypatch.setattr(CIPane, "TICK_S", 0.05)
    clock, backend = Clock(), CIBackend()
    app = make_app(backend, clock)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        assert "fresh 0 s ago" in status(app) and "auto-refresh every 2 min" in status(app)
        clock.now = NOW + timedelta(seconds=12)
        await pilot.pause(0.2)
        assert "fresh 12 s ago" in status(app)
        clock.now = NOW + timedelta(minutes=4, seconds=3)
        await pilot.pause(0.2)
        assert "fresh 4 min ago" in status(app)
        assert backend.loads_of("ci") == ["ci"]


async def test_the_refresh_interval_reloads_by_itself_and_says_what_came_back_unchanged():
    backend = CIBackend()
    backend.config = replace(backend.config, github=replace(backend.config.github, refresh_s=0.2))
    backend.ci_reports = [report(), report(requests=20, not_modified=20)]
    app = make_app(backend)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        for _ in range(100):
            await pilot.pause(0.05)
            if "(20 unchanged, 304)" in status(app):
                break
        assert len(backend.loads_of("ci")) >= 2
        assert "last load: 20 GitHub requests (20 unchanged, 304)" in status(app)
        assert len(rows(app)) == 4  # the table stayed through the quiet reload


async def test_the_detail_lists_failed_pending_advisory_and_unstable_jobs_apart_with_links_and_durations():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3", "enter")
        screen = app.screen
        assert isinstance(screen, CIDetailScreen)
        jobs = screen.query_one("#ci-jobs", DataTable)
        lines = ["  ".join(str(c) for c in jobs.get_row_at(i)).strip() for i in range(jobs.row_count)]
        assert lines[0] == "Failed (required): 1"
        assert lines[1] == "failure  28m 00s    pull / linux-jammy-py3.10-gcc11 / test (default)"
        assert lines.index("Pending (required): 0") < lines.index("Unstable (set aside): 1")
        assert "Failed in workflows that are not required (advisory): 1" in lines
        assert "failure  3m 00s    periodic / nightly / docs" in lines
        link = str(screen.query_one("#ci-link", Static).render())
        assert link == f"job {WEB}/700/job/11"
        header = "\n".join(str(s.render()) for s in screen.query(".detail-line"))
        assert "last green 2112d0cb00, 2 behind the head" in header and header.startswith("red: pull: 1 job failed")

        await pilot.press("o", "w")
        await settle(app, pilot)
        opened = app.backend.actions.runs
        assert opened[0] == ("ci.open", screen.verdict.failed[0])
        assert opened[1] == ("ci.open", RunLink(f"{WEB}/700", 700))
        await pilot.press("escape")
        assert not isinstance(app.screen, CIDetailScreen)


async def test_re_running_failed_jobs_is_confirmed_goes_through_the_registry_and_reloads():
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3", "x")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        ((action, target),) = app.backend.actions.runs
        assert action == "ci.rerun" and target.repository == "acme/torchlet" and target.ref == "release/2.5"
        assert app.backend.loads_of("ci") == ["ci", "ci"]  # the pane shows the re-run's effect

        await pilot.press("down", "x")  # vision is green: nothing to re-run, nothing asked
        assert not isinstance(app.screen, ConfirmScreen)
        assert "acme/vision @ release/2.5: no failed jobs to re-run." in notes(app)


async def test_a_read_only_viewer_cannot_re_run_from_the_pane_or_the_detail():
    app = make_app(CIBackend(read_only=True))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("3", "x")
        assert not isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter", "x")
        await settle(app, pilot)
        assert isinstance(app.screen, CIDetailScreen)
        assert app.backend.actions.runs == []
        assert notes(app).count("read-only session: Re-run failed jobs") == 2
