"""The command palette's cockpit commands: every key of every pane by name, with its key; the
themes; refreshing everything.

Choosing a pane's command shows that pane first, then runs the same action as its key, so refusals
(read-only), confirmations and the audit log are exactly those of the key. A key the user unbound
in ``[keymap]`` stays reachable here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from cockpit.ui.keymap import key_label, merged_bindings

MOVES = {"table.down", "table.up", "table.first", "table.last", "table.clear_filter"}
"""Keys that only make sense pressed, not chosen from a list."""


@dataclass(frozen=True)
class Command:
    """One palette entry: what it is called, its key ("" for none), what it does, and the call."""

    name: str
    key: str
    help: str
    run: Callable[[], Any]

    def label(self) -> Text:
        text = Text(self.name)
        if self.key:
            text.append(f"  {self.key}", style="dim")
        return text


def _pane_runner(app: Any, pane_name: str, action: str) -> Callable[[], Any]:
    async def run() -> None:
        app.action_show_pane(pane_name)
        pane = app.mounted_pane(pane_name)
        if pane is None:  # chosen in the instant after start, before the pane is in place
            app.notify("That pane is still starting; choose the command again in a moment.", markup=False)
            return
        await pane.run_action(action)

    return run


def pane_commands(app: Any) -> list[Command]:
    """A command for every key of every pane (moves excluded, and in a read-only session the keys that
    change something), in pane order."""
    keymap = app.backend.config.keymap
    out = []
    from cockpit.ui.pane_table import pane_class
    from cockpit.ui.viewer_keys import off_in_viewer

    for name, title, _path in app.PANES:
        label = title.split(" ", 1)[-1]
        bindings = merged_bindings(pane_class(name))
        off = off_in_viewer(app.backend, bindings)  # a viewer is not offered what it may not do
        for binding in bindings:
            if binding.id in MOVES or binding.id in off:
                continue
            out.append(
                Command(
                    f"{label}: {binding.description}",
                    key_label(binding, keymap),
                    binding.tooltip or "",
                    _pane_runner(app, name, binding.action),
                )
            )
    return out


def app_commands(app: Any) -> list[Command]:
    """Refreshing, and a "Switch theme" for every registered theme (the current one marked)."""
    keymap = app.backend.config.keymap
    refresh = next(b for b in merged_bindings(type(app)) if b.id == "app.refresh_all")
    out = [Command("Refresh all", key_label(refresh, keymap), "Load every pane again", app.action_refresh_all)]
    if app.backend.config.repos:  # the repository filter of a release over several repositories
        from cockpit.ui.repo_gates import palette_commands

        out += [Command(name, "@", help, run) for name, help, run in palette_commands(app)]
    from cockpit.ui.theme_choice import theme_names

    for theme in theme_names(app):
        current = " (current)" if theme == app.theme else ""
        out.append(
            Command(
                f"Switch theme: {theme}{current}",
                "",
                "Use this theme and remember it for next time",
                partial(app.switch_theme, theme),
            )
        )
    return out


class CockpitCommands(Provider):
    """Every pane's keys, refresh and the themes. Over a dialog only refresh and themes are offered:
    a pane's key would act behind the dialog."""

    async def startup(self) -> None:
        app = self.app
        over_a_pane = self.screen is app.screen_stack[0]
        self._commands = (pane_commands(app) if over_a_pane else []) + app_commands(app)

    async def discover(self) -> Hits:
        for command in self._commands:
            yield DiscoveryHit(command.label(), command.run, text=command.name, help=command.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands:
            score = matcher.match(command.name)
            if score > 0:
                label = matcher.highlight(command.name)
                if command.key:
                    label = label + Content.styled(f"  {command.key}", "dim")
                yield Hit(score, label, command.run, text=command.name, help=command.help)
