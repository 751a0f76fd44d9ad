"""The cherry-picks gate never depends on which pane loaded first: whatever the order in which the
milestone, branch-diff and picks loads finish, the app says what ``cockpit check`` says."""

from __future__ import annotations

import itertools
import threading

import pytest

from cockpit.bootstrap import build_backend
from cockpit.domain.picks import PickFlag
from cockpit.loaders.picture import gather
from tests.e2e.driving import running

LOADS = ("load_milestone", "load_branch_diff", "load_picks")


@pytest.fixture
def checked(sandbox):
    """The gates ``cockpit check`` computes (one pane after the other, the branch diff before the picks)."""
    backend = build_backend(sandbox.config, read_only=True)
    try:
        picture = gather(backend)
    finally:
        backend.state.close()
    assert any(PickFlag.TRUNK_REVERTED in r.flags for r in picture.picks.rows), "the world has a reverted trunk PR"
    return picture.gates


@pytest.mark.parametrize("order", list(itertools.permutations(LOADS)), ids=lambda o: ">".join(n[5:] for n in o))
def test_the_picks_gate_is_the_same_whichever_load_finishes_first(sandbox, checked, order):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        reports = {name: getattr(backend, name)() for name in order}
    finally:
        backend.state.close()
    assert reports["load_picks"].gate == checked["picks_clear"]
    assert reports["load_branch_diff"].gate == checked["branch_diff_clean"]


@pytest.mark.parametrize(
    "slow",
    [r"/issues\?", r"/issues/\d+/comments", r"/pulls\?", None],
    ids=["milestone-list-slow", "tracker-slow", "release-prs-slow", "none-slow"],
)
def test_loads_running_at_once_agree_with_check_and_compute_the_diff_once(sandbox, checked, slow, monkeypatch):
    if slow is not None:
        sandbox.github.faults.latency(0.4, path=slow)
    backend = build_backend(sandbox.config, read_only=True)
    from cockpit.services import branch_loader

    runs = []
    engine = branch_loader.load_branch_diff
    monkeypatch.setattr(branch_loader, "load_branch_diff", lambda *a, **k: runs.append(k["items"]) or engine(*a, **k))
    reports, errors = {}, []

    def load(name: str) -> None:
        try:
            reports[name] = getattr(backend, name)()
        except Exception as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=load, args=(name,)) for name in LOADS]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        sandbox.github.faults.clear()
        backend.state.close()
    assert not errors
    assert reports["load_picks"].gate == checked["picks_clear"]
    assert reports["load_branch_diff"].gate == checked["branch_diff_clean"]
    assert len(runs) == 1, "the branch diff is computed once for both panes"


@pytest.mark.anyio
async def test_the_first_tui_start_shows_the_picks_gate_cockpit_check_shows(sandbox, checked):
    async with running(build_backend(sandbox.config, read_only=True)) as (app, _pilot):
        assert app.pane("picks").report.gate == checked["picks_clear"]
        assert app.gates["picks_clear"] == checked["picks_clear"]
