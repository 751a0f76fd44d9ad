"""The app's stylesheets read after the first screen: the panes' just after it, the dialogs' at the first dialog."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

DIALOG_CSS = Path(__file__).with_name("dialogs.tcss")
"""The dialogs' rules: parsed when the first dialog opens, not before the first screen."""
PANES_CSS = Path(__file__).with_name("panes.tcss")
"""The rules of the panes mounted after the first paint: read just before they are."""


def add_css(app: App[Any], path: Path) -> None:
    """Add ``path`` to ``app``'s stylesheet, once; it is parsed before the next widget is styled."""
    if not app.stylesheet.has_source(str(path)):
        app.stylesheet.read(path)
