"""Where the panes sit on the screen: one slot per pane, the one on screen shown, and the panes
mounted into them right after the first paint.

Only the overview is composed before the first paint; the other panes' slots, the key line and then
the panes themselves (and their modules) are mounted right after it, one at a time with the event
loop turning in between, each pane starting its load as soon as it is in place. A key pressed
meanwhile is not lost: its slot is added at once and its pane is mounted next.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.containers import Container
from textual.widget import Widget
from textual.widgets import Static

from cockpit.ui.pane_table import PaneSpec, pane_class
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import error_text

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import AwaitMount

    from cockpit.backend import Backend


class PaneSlots:
    """The slots of ``panes`` in ``app``, the overview's first; ``current`` is the pane on screen."""

    def __init__(self, app: App[None], panes: tuple[PaneSpec, ...]) -> None:
        self.app = app
        self.panes = panes
        self.slots = {"overview": Container(id="overview", classes="pane-slot")}
        self.current = "overview"
        self.key_line_place = Container(id="key-line-place")

    def mounted_pane(self, name: str) -> Pane | None:
        """Pane ``name`` once it is in place with its widgets (composed), else None."""
        slot = self.slots.get(name)
        if slot is None:
            return None
        pane = next((child for child in slot.children if isinstance(child, Pane)), None)
        return pane if pane is not None and pane.is_mounted else None

    def _holds_pane(self, name: str) -> bool:
        slot = self.slots.get(name)
        return slot is not None and any(isinstance(child, Pane) for child in slot.children)

    def mounted_panes(self) -> list[Pane]:
        """The panes in place now (all of them, a moment after start), in the order of the tabs."""
        return [pane for spec in self.panes if (pane := self.mounted_pane(spec.name)) is not None]

    def add_slots(self) -> AwaitMount | None:
        """Add the other panes' slots, hidden, once: right after the first paint, or at a pane key
        pressed before that. None once they are added (every pane switch asks)."""
        if len(self.slots) == len(self.panes):
            return None
        overview = self.slots["overview"]
        slots = []
        for spec in self.panes:
            if spec.name not in self.slots:
                slot = self.slots[spec.name] = Container(id=spec.name, classes="pane-slot")
                slot.display = spec.name == self.current
                slots.append(slot)
        screen = overview.parent
        if not isinstance(screen, Widget):  # the app is closing
            return None
        return screen.mount_all(slots, after=overview)  # in the order of the tabs

    def show(self, name: str) -> bool:
        """Show the slot of pane ``name``; whether its slot was already in place."""
        ready = self.slots.get(name) is not None and self.slots[name].is_mounted
        self.add_slots()  # a key pressed before the first paint: the slots come now
        if name != self.current:
            with self.app.batch_update():
                self.slots[self.current].display = False
                self.slots[name].display = True
            self.current = name
        return ready

    async def mount_key_line(self) -> None:
        """Put the key line in the place kept for it.

        Textual's ``Footer`` shows no keys before its first bindings update, which comes after the
        first paint: in the first frame it is an empty line, which its place draws alike.
        """
        from cockpit.ui.footer import KeysFooter

        place = self.key_line_place
        if not place.is_attached:  # the app is closing
            return
        footer = KeysFooter()
        await place.screen.mount(footer, before=place)
        await place.remove()
        footer.screen.refresh_bindings()  # the update it would have had, had it been there at the start

    async def tell_interrupted(self, backend: Backend) -> None:
        """Before anything else is done: the actions a previous session started and never finished (killed
        between its intent and its outcome), each once, with what the world says (``cockpit.actions.intents``).
        Looking reads GitHub or git: in a thread, the screen keeps answering meanwhile."""
        try:
            lines = await asyncio.to_thread(backend.actions.interrupted)
        except Exception as exc:  # the audit log could not be read or written: said, and the session goes on
            lines = [f"the audit log could not be checked for interrupted actions: {error_text(exc)}"]
        for line in lines:
            self.app.notify(line, title="Interrupted last time", severity="warning", markup=False, timeout=60)

    async def mount_panes(
        self, backend: Backend, start_load: Callable[[Pane], None], failed: Callable[[BaseException, str], None]
    ) -> None:
        """Mount the key line and the panes not composed at start, the one on screen first, each
        loading at once (``start_load``); a pane that cannot be built says so in its tab (``failed``)."""
        await self.mount_key_line()
        await self.tell_interrupted(backend)
        waiting = [spec.name for spec in self.panes if not self._holds_pane(spec.name)]
        while waiting:
            name = self.current if self.current in waiting else waiting[0]
            waiting.remove(name)
            slot = self.slots[name]
            if not slot.is_attached:  # the app is closing: its widgets are being taken down
                return
            try:
                pane = pane_class(name)(backend, id=f"pane-{name}")
                await slot.query(".pane-starting").remove()
                await slot.mount(pane)
            except Exception as exc:  # a bug in one pane: say so, in its tab too, and mount the others
                failed(exc, f"mounting the {name} pane")
                await slot.remove_children()
                await slot.mount(Static(Text(f"This pane could not be built: {error_text(exc)}"), classes="pane-error"))
                slot.query_one(".pane-error").display = True
                continue
            start_load(pane)
            if self.current == name:  # once it is laid out: a hidden or new widget takes no focus
                self.app.call_after_refresh(self.focus, name)
            await asyncio.sleep(0)  # let keys and repaints in between two panes

    def focus(self, name: str) -> None:
        """Focus the body of pane ``name`` if it is on screen; one not mounted yet shows a loading
        indicator and takes the focus when it is."""
        if self.current != name:
            return
        pane = self.mounted_pane(name)
        if pane is not None:
            pane.focus_body()
        else:
            self.app.screen.set_focus(None)
            slot = self.slots[name]
            if not slot.children:  # a placeholder child, not slot.loading: its cover would keep the focus off
                from textual.widgets import LoadingIndicator

                slot.mount(LoadingIndicator(classes="pane-starting"))

    def propagate_staleness(self, reported: set[str], derived_from: dict[str, tuple[str, ...]]) -> None:
        """A pane whose data others derive from failed to load: those show STALE too, never a fresh
        verdict on a list that could not be refreshed (their own retry reads it again)."""
        for source, derived in derived_from.items():
            pane = self.mounted_pane(source)
            if pane is None or pane.last_failure is None or not reported & set(pane.GATES):
                continue
            for name in derived:
                other = self.mounted_pane(name)
                loading = any(w.group == name and not w.is_finished for w in self.app.workers)
                if other is not None and other.report is not None and not other.stale and not loading:
                    other.inputs_failed(pane.last_failure)

    def hidden_slot_of(self, widget: Widget) -> Container | None:
        """The slot of a hidden pane that ``widget`` is in, if it is in one."""
        for ancestor in widget.ancestors:
            if isinstance(ancestor, Container) and ancestor.has_class("pane-slot"):
                return ancestor if ancestor.id != self.current else None
        return None
