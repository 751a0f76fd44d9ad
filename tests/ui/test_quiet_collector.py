"""While the cockpit is on screen the garbage collector does not fall on keys: young collections
are rare, the full one waits until no key has come for a while, and all is as before once the
cockpit closes."""

from __future__ import annotations

import gc

import pytest
from fake_backend import NOW, FakeBackend

from cockpit import collector
from cockpit.ui.app import CockpitApp
from tests.pilot import settle

pytestmark = pytest.mark.anyio


async def test_the_full_collection_waits_for_a_pause_in_the_keys_and_the_thresholds_come_back():
    before = gc.get_threshold()
    app = CockpitApp(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        assert gc.get_threshold() == collector.INTERACTIVE_THRESHOLDS
        collector.settle()  # as each pane does when it has drawn its report
        swept = collector.sweeps()
        await pilot.press("j")  # a key just now: no full collection on this tick
        app.tick()
        assert collector.sweeps() == swept
        app._last_input -= app.SWEEP_IDLE_S  # nobody has typed for a while
        app.tick()
        assert collector.sweeps() == swept + 1
    assert gc.get_threshold() == before
