"""The checklist's log of the step commands run in this session."""

from __future__ import annotations

from textual.widgets import Log


class StepLog(Log):
    """The output of the step commands run in this session, lines arriving as the program prints them."""

    DEFAULT_CSS = """
    StepLog { height: 12; max-height: 40%; border-top: solid $foreground-muted; display: none; }
    StepLog.-used { display: block; }
    StepLog.-used.-hidden { display: none; }
    """

    SMALL = 30
    """Under this many rows the log starts closed (issue 32): open, it would leave a few rows of the table."""

    def used(self) -> str | None:
        """A command is about to write here: the log is shown, unless the terminal is small and the log was not
        opened with ``L`` this session; then what to press, in words (else None)."""
        first = not self.has_class("-used")
        self.add_class("-used")
        if self.app.size.height < self.SMALL and (first or self.has_class("-hidden")):
            self.add_class("-hidden")
            return "the step log is closed at this size: L shows it"
        self.remove_class("-hidden")
        return None

    def toggle_shown(self) -> str:
        """`L`: hide the log (the table gets the room back) or show it again; what happened, in words."""
        if not self.has_class("-used"):
            return "no step command has run in this session: the log is empty"
        self.toggle_class("-hidden")
        return "step log hidden (L shows it again)" if self.has_class("-hidden") else "step log shown"
