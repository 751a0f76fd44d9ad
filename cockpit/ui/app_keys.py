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
    Binding(
        "right_square_bracket",
        "show_pane('+1')",
        "Next pane",
        key_display="]",
        show=False,
        id="app.next_pane",
        tooltip="Show the next pane",
    ),
    Binding(
        "left_square_bracket",
        "show_pane('-1')",
        "Previous pane",
        key_display="[",
        show=False,
        id="app.previous_pane",
        tooltip="Show the previous pane",
    ),
    Binding(
        "tab",
        "show_pane('tab+1')",
        "Next pane",
        show=False,
        priority=True,
        id="app.tab_pane",
        tooltip="Show the next pane (in a dialog or a text field: the next field)",
    ),
    Binding(
        "shift+tab",
        "show_pane('tab-1')",
        "Previous pane",
        show=False,
        priority=True,
        id="app.back_tab_pane",
        tooltip="Show the previous pane (in a dialog or a text field: the previous field)",
    ),
)
"""Quit, refresh, help and the next or previous pane: on every pane."""

APP_BINDINGS: list[Binding] = [*(spec.binding() for spec in PANES), *APP_KEYS]
"""The app's ``BINDINGS``: a number key per pane of every release, then ``APP_KEYS``."""
