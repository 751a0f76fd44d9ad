"""What the release manager sees first: the overview of the hand-made release, at 120x40."""

from __future__ import annotations

from fake_backend import NOW, FakeBackend

from cockpit.ui.app import CockpitApp


async def _wait_for_every_pane(pilot) -> None:
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        if all(w.is_finished for w in app.workers):
            await pilot.pause()
            if all(w.is_finished for w in app.workers):
                return
        await pilot.pause(0.01)


def test_overview_shows_every_gate_and_the_no_go_verdict(snap_compare):
    app = CockpitApp(FakeBackend(), clock=lambda: NOW)
    app.animation_level = "none"
    assert snap_compare(app, terminal_size=(120, 40), run_before=_wait_for_every_pane)
