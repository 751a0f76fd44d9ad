"""The ``?`` (and ``F1``) screen: the keys of the current pane and of the app, generated from their
bindings, with the user's ``[keymap]`` applied (a remapped key shows its new key, an unbound one
says so)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label

from cockpit.ui.keymap import key_label
from cockpit.ui.rows_table import RowsTable


def binding_rows(
    bindings: Iterable[BindingType], keymap: Mapping[str, str] | None = None
) -> list[tuple[str, str, str]]:
    """(key, description, id) for each ``Binding``, with the user's keymap applied by binding id.

    Tuples in BINDINGS are skipped: they have no id.
    """
    keymap = keymap or {}
    return [
        (key_label(b, keymap), b.tooltip or b.description, b.id or "")
        for b in bindings
        if isinstance(b, Binding) and not b.system
    ]


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
        self.sections = (
            (pane_title, binding_rows(pane_bindings, keymap)),
            ("Everywhere", binding_rows(app_bindings, keymap)),
        )

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            for title, rows in self.sections:
                yield Label(Text(title, style="bold"), classes="help-title")
                # The panes' table, which looks as DataTable does (tests/ui/test_help_screen.py).
                table = RowsTable(cursor_type="none", show_cursor=False, classes="help-table")
                table.add_columns("Key", "Binding id", "What it does")
                for key, text, binding_id in rows:
                    table.add_row(
                        Text(key, style="dim" if key == "unbound" else "bold"),
                        Text(binding_id, style="dim"),
                        Text(text),
                    )
                if not rows:
                    table.add_row("", "", Text("no keys of its own"))
                yield table
            yield Label(
                "esc or ? to close · ctrl+p: every command of every pane · [keymap] in cockpit.toml remaps by id",
                classes="dialog-hint",
            )

    def action_close(self) -> None:
        self.dismiss(None)
