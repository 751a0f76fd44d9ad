"""The key line at the bottom: Textual's ``Footer``, built again only when the keys it shows change,
and without the keys the user unbound in ``[keymap]``.

Textual's ``Footer`` builds all its key widgets again whenever the focus moves or any widget asks
for its bindings to be looked at again: a pane switch, ``/`` and ``Esc`` in the filter, each open
and close of a dialog. Most of those leave the same keys on the line (two table panes share their
keys), so this one compares the keys it would show with those it shows and skips the rebuild when
they are the same. When they differ, ``Footer`` builds the line as it always does.

An unbound key (``cockpit.ui.keymap``) is moved by ``App.set_keymap`` to a key no terminal sends;
the line leaves it out, as if the binding were gone. In a read-only session the keys that change
something are left out too (``cockpit.ui.viewer_keys``); the help lists them as off.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual.widget import Widget
from textual.widgets import Footer

from cockpit.ui.keymap import is_unbound_key
from cockpit.ui.viewer_keys import off_here

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
    """A ``Footer`` that builds its keys again only when the keys to show are not the ones shown,
    and never shows an unbound key."""

    shown: tuple[Any, ...] | None = None
    """The keys on the line now (``shown_keys`` when it was last composed); None before any."""
    ready = False
    """Whether the screen's bindings have been announced (``Footer`` composes nothing before)."""

    narrow = False
    """Whether the line was composed for a terminal under ``NARROW`` columns (quit and help first then)."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.shown is not None and self.is_attached and screen is self.screen and shown_keys(screen) == self.shown:
            return
        self.ready = True
        super().bindings_changed(screen)

    async def on_resize(self) -> None:
        if self.ready and self.shown is not None and (self.app.size.width < NARROW) != self.narrow:
            self.shown = None  # the same keys in another order: composed again
            await self.recompose()

    def compose(self) -> ComposeResult:
        if self.ready:  # else Footer composes nothing: nothing is shown yet
            self.shown = shown_keys(self.screen)
        self.narrow = self.app.size.width < NARROW
        keys = without_unbound(super().compose(), self.keys_off())
        yield from essentials_first(keys) if self.narrow else keys

    def keys_off(self) -> set[str]:
        """The keys of the screen's bindings this session does not offer (a viewer's changing keys)."""
        if not self.ready:
            return set()
        active = [(key, binding) for key, (_n, binding, _e, _t) in self.screen.active_bindings.items()]
        off = off_here(self, (binding for _key, binding in active))
        return {key for key, binding in active if binding.id in off}


def without_unbound(widgets: Iterable[Widget], off: set[str] | None = None) -> Iterator[Widget]:
    """``Footer.compose``'s widgets, less the key widgets of unbound keys and of the keys in ``off``
    (each carries its ``key``)."""
    for widget in widgets:
        key = str(getattr(widget, "key", ""))
        if not is_unbound_key(key) and key not in (off or ()):
            yield widget


NARROW = 100
"""Under this many columns the pane's keys do not all fit: quit and help come first, so they always show."""
ESSENTIAL = ("quit", "help")
"""The actions of the keys shown first on a narrow line."""


def essentials_first(widgets: Iterable[Widget]) -> Iterator[Widget]:
    """``widgets`` with the keys of ``ESSENTIAL`` actions first (each key widget carries its ``action``)."""
    listed = list(widgets)
    first = [w for w in listed if str(getattr(w, "action", "")).removeprefix("app.") in ESSENTIAL]
    yield from first
    yield from (w for w in listed if w not in first)
