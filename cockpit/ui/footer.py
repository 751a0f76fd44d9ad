"""The key line at the bottom: Textual's ``Footer``, rebuilt only when the keys it shows change.

Textual's ``Footer`` takes down and builds again every one of its key widgets whenever the focus
moves or any widget asks for its bindings to be looked at again: a pane switch, ``/`` and ``Esc``
in the filter, each open and close of a dialog. Most of those leave the same keys on the line (two
table panes share their keys); rebuilding them was about a sixth of a pane switch's work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.screen import Screen


def shown_keys(screen: Screen[Any]) -> tuple[Any, ...]:
    """What the footer draws for ``screen``: each shown binding (with the key the keymap gives it),
    whether it is enabled, and its tooltip; the command palette's key is among them."""
    active = screen.active_bindings
    palette = active.get(screen.app.COMMAND_PALETTE_BINDING)
    shown = tuple((binding, enabled, tooltip) for _node, binding, enabled, tooltip in active.values() if binding.show)
    return (*shown, palette[1:] if palette is not None else None)


class KeysFooter(Footer):
    """A ``Footer`` that rebuilds its keys only when the keys to show are not the ones shown."""

    _shown: tuple[Any, ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen and shown_keys(screen) == self._shown:
            return
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        self._shown = shown_keys(self.screen) if self._bindings_ready else None
        yield from super().compose()
