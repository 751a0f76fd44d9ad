"""The app a cockpit widget runs in, typed: Textual types ``widget.app`` as a plain ``App``."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.widget import Widget

if TYPE_CHECKING:
    from cockpit.ui.app import CockpitApp


def cockpit_app(widget: Widget) -> CockpitApp:
    """The ``CockpitApp`` running ``widget``: its ``backend`` and ``clock`` (panes, modals and actions
    are only ever mounted in one; the UI tests' host apps carry the same two attributes)."""
    return cast("CockpitApp", widget.app)
