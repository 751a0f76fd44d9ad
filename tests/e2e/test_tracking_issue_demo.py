"""The demo's tracking issue (#28 section 6): recorded in the demo session, one box ticked by hand on GitHub,
which the cockpit records as signed when it keeps the issue in step."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.bootstrap import build_backend
from cockpit.sandbox.demo import seed_dispatches, seed_tracking_issue
from cockpit.services.tracking_issue import boxes

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.slow


def test_the_demo_issue_has_one_box_ticked_by_hand_and_keeping_it_in_step_records_it(sandbox, sandbox_world):
    planted = sandbox_world.truth["release_day"]["tracking_issue"]
    assert seed_tracking_issue(sandbox.config, sandbox_world)
    assert not seed_tracking_issue(sandbox.config, sandbox_world), "a recorded issue is kept"
    seed_dispatches(sandbox.config, sandbox_world)
    issue = sandbox.github.repos[sandbox.world.repository.lower()].items[planted["number"]]
    assert [s for s, b in boxes(issue.body).items() if b.ticked] == [planted["ticked_by_hand"]]
    backend = build_backend(sandbox.config, clock=lambda: NOW)
    try:
        backend.load_checklist({})
        result = backend.actions.run("checklist.tracking_sync", None, confirmed=True)
        assert result.ok and "recorded 1 step(s)" in result.message, result.message
        assert backend.state.signoffs()[planted["ticked_by_hand"]].done
        assert boxes(issue.body)["stage_pypi_run"].ticked, "the staging the journal shows done is ticked"
    finally:
        backend.state.close()
