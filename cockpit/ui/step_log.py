"""The checklist's log of the step commands run in this session."""

from __future__ import annotations

from textual.widgets import Log


class StepLog(Log):
    """The output of the step commands run in this session, lines arriving as the program prints them."""

    DEFAULT_CSS = """
    StepLog { height: 12; border-top: solid $foreground-muted; display: none; }
    StepLog.-used { display: block; }
    """
