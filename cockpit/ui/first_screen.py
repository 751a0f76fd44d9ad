"""The app's own screen: styled once before its first frame, not twice.

Textual styles each widget as it is mounted, then restyles the whole screen when the screen is
first shown (its ``ScreenResume``): for the cockpit's first screen that second pass changes
nothing and was about a fiftieth of the time to the first frame. Later resumes (a dialog closed,
the theme changed meanwhile) restyle as Textual does.
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen


class FirstScreen(Screen[None]):
    """The default screen; its first resume keeps the styles its widgets got when mounted."""

    _resumed = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler (Textual calls each class's, subclass first).
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
