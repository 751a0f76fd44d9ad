"""The cherry-picks pane's `v`: confirm the reading of a request read from prose (kept in the state file, like
the other overrides), or withdraw the confirmation; and the hint the detail view gives about it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding

from cockpit.domain.picks import PickFlag, PickRow, ReadingConfirmed
from cockpit.services.pick_readings import reading_key, reading_of
from cockpit.ui.acting import perform, refused_in_viewer
from cockpit.ui.keymap import key_label

if TYPE_CHECKING:
    from cockpit.ui.panes.base import Pane


def confirm_hint(pane: Pane, row: PickRow) -> str:
    binding = next(b for b in pane.BINDINGS if isinstance(b, Binding) and b.id == "picks.confirm_reading")
    key = key_label(binding, pane.backend.config.keymap or {})
    if PickFlag.READ_FROM_PROSE in row.flags:
        return f"Check the reading against the sentence, then confirm it: {key}"
    return f"The reading is confirmed; {key} withdraws the confirmation"


def confirm_reading(pane: Pane, row: PickRow | None, on_done: Callable[[bool], None]) -> None:
    """Confirm the reading of ``row`` (a prose request); on a confirmed one, withdraw the confirmation."""
    if row is None or refused_in_viewer(pane, "a reading is not confirmed from here"):
        return
    if not row.request.prose:
        pane.notify("This request was not read from prose: there is no reading to confirm.", severity="warning")
        return
    home = row.repository or pane.backend.config.release.repository
    key = reading_key(home, row.request.comment_id)
    reading = reading_of(row.request, home) if PickFlag.READ_FROM_PROSE in row.flags else None
    perform(pane, pane.PANE, "picks.confirm_reading", ReadingConfirmed(key, reading), confirm=False, on_done=on_done)
