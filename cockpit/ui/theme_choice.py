"""The theme the release manager chose: installed at start (the config's, else the one remembered in
the state file), switched from the palette and remembered for next time."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cockpit.errors import ConfigError
from cockpit.ui.themes import install_themes
from cockpit.ui.widgets import error_text

if TYPE_CHECKING:
    from textual.app import App

    from cockpit.backend import Backend

_log = logging.getLogger("cockpit.ui")


def remembered_theme(backend: Backend) -> str | None:
    """The theme chosen last time (the state file's preference), or None."""
    try:
        value = backend.state.pref("theme")
    except Exception as exc:  # an unreadable preference only costs the remembered theme
        _log.info("could not read the remembered theme: %s", exc)
        return None
    return value if isinstance(value, str) else None


def start_theme(app: App[Any], backend: Backend) -> list[str]:
    """Install the themes and choose one, before the CSS is parsed (it uses the themes' $cockpit-*
    colours); the problems to show once the screen is up. An unknown ``[ui] theme`` is a ConfigError
    naming the config's key."""
    try:
        return install_themes(
            app, requested=backend.config.theme or None, remembered=remembered_theme(backend), others_later=True
        )
    except ConfigError as exc:
        raise ConfigError(f"{backend.config.path}: key 'ui.theme': {exc.message}") from None


def theme_names(app: App[Any]) -> list[str]:
    """The registered themes, the cockpit's first."""
    names = sorted(app.available_themes)
    return sorted(names, key=lambda n: not n.startswith("cockpit-"))


def switch_theme(app: App[Any], backend: Backend, name: str, panes: Iterable[Any]) -> None:
    """Use theme ``name`` now, draw ``panes`` again (table cells carry the theme's colours) and
    remember it in the state file (not in a read-only session)."""
    app.theme = name
    for pane in panes:
        pane.rerender()
    if backend.read_only:
        app.notify(f"Theme {name}: not remembered, this session is read-only.", markup=False)
        return
    try:
        backend.state.set_pref("theme", name)
    except Exception as exc:
        app.notify(f"Theme {name}: not remembered: {error_text(exc)}", severity="warning", markup=False)
        return
    app.notify(f"Theme {name}: remembered for next time.", markup=False)
