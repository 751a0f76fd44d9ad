"""The command palette's cockpit commands: the current pane's keys, by name.

Choosing one runs the same pane action as its key, so refusals (read-only), confirmations and the
audit log are exactly those of the key.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.widgets import TabbedContent


def pane_commands(screen: Any) -> list[tuple[str, str, Any]]:
    """(name, help, callable) for every key of the pane shown on ``screen``."""
    try:
        tabs = screen.query_one(TabbedContent)
        pane = screen.query_one(f"#pane-{tabs.active}")
    except Exception:  # the palette opened over a modal: no pane commands there
        return []
    title = str(tabs.get_tab(tabs.active).label) if tabs.active else ""
    title = title.split(" ", 1)[-1]
    out = []
    for binding in type(pane).BINDINGS:
        if not isinstance(binding, Binding):
            continue
        out.append((f"{title}: {binding.description}", binding.tooltip or "", partial(pane.run_action, binding.action)))
    return out


class PaneCommands(Provider):
    """Every key of the current pane as a palette command."""

    async def startup(self) -> None:
        self._commands = pane_commands(self.screen)

    async def discover(self) -> Hits:
        for name, help_text, command in self._commands:
            yield DiscoveryHit(Text(name), command, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, command in self._commands:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, text=name, help=help_text)
