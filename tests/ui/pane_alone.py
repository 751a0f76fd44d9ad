"""One pane mounted alone over the fake backend (quicker than the whole app), with the themes
installed as the app does and a helper that waits for its load."""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import ClassVar

from fake_backend import NOW
from textual.app import App
from textual.widgets import Input

import cockpit.ui
from cockpit.ui.notices import SaysNotices
from cockpit.ui.themes import install_themes
from cockpit.ui.widgets import CockpitHeader
from tests.pilot import settle as settle_workers


class PaneAlone(SaysNotices, App):
    """``pane_cls`` (and the header it reports to) over ``backend``, with the app's CSS and a fixed clock;
    the pane's host (``cockpit.ui.host.PaneHost``) as the app is."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [
        str(Path(cockpit.ui.__file__).with_name(name)) for name in ("app.tcss", "panes.tcss", "dialogs.tcss")
    ]

    def __init__(self, backend, pane_cls) -> None:
        super().__init__()
        self.backend, self.clock, self.pane_cls = backend, lambda: NOW, pane_cls
        # The rest of cockpit.ui.host.PaneHost: no pane switching, no other pane, no gates, no
        # repository filter (the pane takes the focus when a test says so: settle below).
        self.gates, self.repo_choice, self.library_reports, self.current_name = {}, "", (), ""
        self.animation_level = "none"
        install_themes(self, requested=None, remembered=None)

    def compose(self):
        yield CockpitHeader(self.pane_cls.PANE, read_only=self.backend.read_only)
        yield self.pane_cls(self.backend, id=f"pane-{self.pane_cls.PANE}")

    def on_mount(self) -> None:
        self.pane().reload()

    def pane(self, _name: str = ""):
        return self.query_one(self.pane_cls)

    def mounted_pane(self, name: str) -> None:
        return None


async def settle(app, pilot) -> None:
    """Wait for every worker; then the keys go to the pane's table."""
    await settle_workers(app, pilot)
    if app.screen is app.screen_stack[0] and not isinstance(app.focused, Input):
        app.pane().focus_body()
        await pilot.pause()
