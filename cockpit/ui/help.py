"""The ``?`` (and ``F1``) screen: the keys of the current pane and of the app, generated from their
bindings, with the user's ``[keymap]`` applied (a remapped key shows its new key, an unbound one
says so)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from cockpit.ui.keymap import key_label
from cockpit.ui.viewer_keys import off_here


def binding_rows(
    bindings: Iterable[BindingType], keymap: Mapping[str, str] | None = None, off: Mapping[str, str] | None = None
) -> list[tuple[str, str, str]]:
    """(key, description, id) for each ``Binding``, with the user's keymap applied by binding id; a
    binding whose id is in ``off`` says it is off and why (``off[id]``).

    Tuples in BINDINGS are skipped: they have no id.
    """
    keymap, off = keymap or {}, off or {}
    return [
        (key_label(b, keymap), _said(b, off.get(b.id or "")), b.id or "")
        for b in bindings
        if isinstance(b, Binding) and not b.system
    ]


def key_table(rows: list[tuple[str, str, str]]) -> Table:
    """The keys as a table whose last column wraps: a description is read whole at any width (issue 32:
    they were cut mid-sentence at the dialog's edge)."""
    table = Table(box=None, expand=True, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("Key", no_wrap=True)
    table.add_column("Binding id", no_wrap=True, style="dim", overflow="fold")
    table.add_column("What it does", ratio=1, overflow="fold")
    for key, text, binding_id in rows:
        table.add_row(Text(key, style="dim" if key == "unbound" else "bold"), Text(binding_id), Text(text))
    if not rows:
        table.add_row("", "", Text("no keys of its own"))
    return table


def _said(binding: Binding, off: str | None) -> str:
    what = binding.tooltip or binding.description
    return f"off: {off}. {what}" if off else what


class HelpScreen(ModalScreen[None]):
    """Lists ``pane_bindings`` under the pane's name, then the app's keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="help.close", tooltip="Close the help"),
        Binding("question_mark", "close", "Close", show=False, id="help.toggle", tooltip="Close the help"),
        Binding("f1", "close", "Close", show=False, id="help.close_f1", tooltip="Close the help"),
    ]

    def __init__(
        self,
        pane_title: str,
        pane_bindings: Iterable[BindingType],
        app_bindings: Iterable[BindingType],
        *,
        keymap: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.pane_title = pane_title
        self.listed = (list(pane_bindings), list(app_bindings))
        self.keymap = keymap
        self.sections: tuple[tuple[str, list[tuple[str, str, str]]], ...] = ()

    def compose(self) -> ComposeResult:
        pane_bindings, app_bindings = self.listed
        off = off_here(self, [b for b in pane_bindings if isinstance(b, Binding)])  # a viewer's changing keys
        self.sections = (
            (self.pane_title, binding_rows(pane_bindings, self.keymap, off)),
            ("Everywhere", binding_rows(app_bindings, self.keymap)),
        )
        with VerticalScroll(classes="dialog help"):
            for title, rows in self.sections:
                yield Label(Text(title, style="bold"), classes="help-title")
                yield Static(key_table(rows), classes="help-table")
            yield Label(
                "esc or ? to close · ctrl+p: every command of every pane · [keymap] in cockpit.toml remaps by id",
                classes="dialog-hint",
            )

    def action_close(self) -> None:
        self.dismiss(None)
