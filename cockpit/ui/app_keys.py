"""The app's own keys, as data: every one has an id (``[keymap]`` remaps or unbinds it) and a tooltip.
The number keys come from the pane table (``cockpit.ui.pane_table``)."""

from __future__ import annotations

from textual.binding import Binding

from cockpit.ui.pane_table import PANES

APP_KEYS: tuple[Binding, ...] = (
    Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave the cockpit"),
    Binding("r", "refresh_pane", "Refresh", id="app.refresh", tooltip="Load the current pane again"),
    Binding("R", "refresh_all", "Refresh all", id="app.refresh_all", tooltip="Load every pane again"),
    Binding("question_mark", "help", "Help", key_display="?", id="app.help", tooltip="List the keys of this pane"),
    Binding("f1", "help", "Help", show=False, id="app.help_f1", tooltip="List the keys of this pane"),
)
"""Quit, refresh, help: on every pane."""

APP_BINDINGS: list[Binding] = [*(spec.binding() for spec in PANES), *APP_KEYS]
"""The app's ``BINDINGS``: a number key per pane of every release, then ``APP_KEYS``."""
