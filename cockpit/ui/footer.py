"""The key line at the bottom: Textual's ``Footer``, rebuilt only when the keys it shows change.

Textual's ``Footer`` takes down and builds again every one of its key widgets whenever the focus
moves or any widget asks for its bindings to be looked at again: a pane switch, ``/`` and ``Esc``
in the filter, each open and close of a dialog. Most of those leave the same keys on the line (two
table panes share their keys); rebuilding them was about a sixth of a pane switch's work.

When the keys do change (two panes with different keys), the key widgets already there are given
their new key, words and state in place, and only the ones missing are built (those left over are
hidden, for the next keys): building a key widget styles it three times over (once mounted, once for
each value its ``compact`` flag takes), which was two thirds of a pane switch's work. The line drawn
is the one ``Footer`` would draw.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, NamedTuple

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

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


class KeyShown(NamedTuple):
    """One key widget of the line, as ``Footer.compose`` would build it."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str
    palette: bool  # the command palette's key, on the right


class KeysFooter(Footer):
    """A ``Footer`` that rebuilds its keys only when the keys to show are not the ones shown, and
    then reuses the key widgets it has."""

    _shown: tuple[Any, ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen and shown_keys(screen) == self._shown:
            return
        if self._shown is None or not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            super().bindings_changed(screen)
            return
        self._bindings_ready = True
        self.call_after_refresh(self._show_keys)

    def compose(self) -> ComposeResult:
        self._shown = shown_keys(self.screen) if self._bindings_ready else None
        yield from super().compose()

    def keys_to_show(self) -> list[KeyShown] | None:
        """The key widgets ``Footer.compose`` would build for the screen now, in order; None when it
        would build a group of keys (not reused here: the line is composed again)."""
        active = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Any, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        if any(multi[0][0].group is not None for multi in by_action.values()):
            return None
        display = self.app.get_key_display
        keys = [
            KeyShown(binding.key, display(binding), binding.description, binding.action, not enabled, tooltip, False)
            for binding, enabled, tooltip in (multi[0] for multi in by_action.values())
        ]
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE and palette is not None:
            _node, binding, enabled, _tooltip = palette
            tooltip = binding.tooltip or binding.description
            keys.append(
                KeyShown(binding.key, display(binding), binding.description, binding.action, not enabled, tooltip, True)
            )
        return keys

    async def _show_keys(self) -> None:
        """Show the keys of the screen now, reusing the key widgets there (see the module's doc)."""
        if not self.is_attached or self._pruning:
            return
        wanted = self.keys_to_show()
        children = [child for child in self.children if type(child) is FooterKey]
        if wanted is None or len(children) != len(self.children):
            await self.recompose()
            return
        self._shown = shown_keys(self.screen)
        # As Footer.compose sets it, but without drawing every key again: the line is laid out
        # horizontally, the grid's size does not change what it shows.
        self.styles.set_rule("grid_size_columns", sum(1 for key in wanted if not key.palette))
        # A key still shown keeps its widget, untouched (nothing to draw again); the others take the
        # widgets of keys no longer shown, or new ones. Widgets left over are hidden, not removed: the
        # next pane or the filter's Esc shows their keys again without building them anew.
        showing: dict[tuple[str, str, bool], list[FooterKey]] = {}
        for child in children:
            if child.display:
                showing.setdefault((child.key, child.action, child.has_class("-command-palette")), []).append(child)
        kept = [next(iter(showing.get((key.key, key.action, key.palette)) or []), None) for key in wanted]
        for widget in kept:
            if widget is not None:
                showing[widget.key, widget.action, widget.has_class("-command-palette")].remove(widget)
        spare = [widget for widgets in showing.values() for widget in widgets]
        spare += [child for child in children if not child.display]
        order: list[FooterKey] = []
        new: list[FooterKey] = []
        for key, widget in zip(wanted, kept, strict=True):
            if widget is None:
                widget = next((w for w in spare if w.has_class("-command-palette") is key.palette), None)
                if widget is not None:
                    spare.remove(widget)
                    widget.display = True
                else:
                    widget = self._key_widget(key)
                    new.append(widget)
            if widget not in new:
                show_in(widget, key)
            order.append(widget)
        for widget in spare:
            widget.display = False
        if new:
            await self.mount_all(new)
        for index, widget in enumerate([*order, *spare]):  # in the order Footer composes them, the hidden last
            if self.children[index] is not widget:
                self.move_child(widget, before=index)

    def _key_widget(self, key: KeyShown) -> FooterKey:
        classes = "-command-palette" if key.palette else ""
        widget = FooterKey(key.key, key.key_display, key.description, key.action, key.disabled, key.tooltip, classes)
        if key.palette:
            return widget
        with self._context():  # binding to the footer's flag, as if composed by it
            return widget.data_bind(compact=Footer.compact)


def show_in(widget: FooterKey, key: KeyShown) -> None:
    """Give an existing key widget the key, words and state of ``key``; redrawn (and its width laid
    out again) only when something changed."""
    now = KeyShown(
        widget.key,
        widget.key_display,
        widget.description,
        widget.action,
        widget._disabled,
        str(widget.tooltip or ""),
        key.palette,
    )
    if now == key:
        return
    widget.key, widget.key_display, widget.description, widget.action = key[:4]
    widget._disabled = key.disabled
    widget.set_class(key.disabled, "-disabled")
    widget.tooltip = key.tooltip or None
    widget.refresh(layout=True)
