"""Pane navigation as in lazygit and k9s: ``]`` / ``[`` and Tab / shift+Tab show the next or previous pane.

The number keys name a pane; these step through them in the tab line's order, wrapping around. Tab is
the app's priority binding (Textual's screen would take it for the focus first): in a dialog, or while
a text field has the focus, it still moves the focus as everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App
from textual.widgets import Input

STEPS = {"+1": 1, "-1": -1, "tab+1": 1, "tab-1": -1}
"""The relative names ``show_pane`` takes besides the panes' own."""


def stepped(app: App[None], names: Sequence[str], current: str, step: str) -> str | None:
    """The pane ``step`` leads to from ``current``; None when Tab moved the focus instead."""
    by = STEPS[step]
    if step.startswith("tab") and (len(app.screen_stack) > 1 or isinstance(app.focused, Input)):
        if by > 0:
            app.screen.focus_next()
        else:
            app.screen.focus_previous()
        return None
    at = names.index(current) if current in names else 0
    return names[(at + by) % len(names)]
