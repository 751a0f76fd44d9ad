"""The ``?`` screen: the keys of the current pane and of the app, generated from their BINDINGS."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label


def binding_rows(bindings: list[BindingType], keymap: dict[str, str] | None = None) -> list[tuple[str, str, str]]:
    """(key, description, id) for each ``Binding``, with the user's keymap applied by binding id.

    Tuples in BINDINGS are skipped: they have no id.
    """
    keymap = keymap or {}
    rows = []
    for b in bindings:
        if isinstance(b, Binding):
            key = keymap.get(b.id or "") or b.key_display or b.key
            rows.append((key, b.tooltip or b.description, b.id or ""))
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists ``pane_bindings`` under the pane's name, then the app's keys."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="help.close", tooltip="Close the help"),
        Binding("question_mark", "close", "Close", show=False, id="help.toggle", tooltip="Close the help"),
    ]

    def __init__(self, pane_title: str, pane_bindings: list[BindingType], app_bindings: list[BindingType],
                 *, keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self.pane_title = pane_title
        self.sections = ((pane_title, binding_rows(pane_bindings, keymap)),
                         ("Everywhere", binding_rows(app_bindings, keymap)))

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            for title, rows in self.sections:
                yield Label(Text(title, style="bold"), classes="help-title")
                table = DataTable(cursor_type="none", show_cursor=False, classes="help-table")
                table.add_columns("Key", "What it does", "Binding id")
                for key, text, binding_id in rows:
                    table.add_row(Text(key, style="bold"), Text(text), Text(binding_id))
                if not rows:
                    table.add_row("", Text("no keys of its own"), "")
                yield table
            yield Label("esc or ? to close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
