"""A read-only detail view over a pane: a title and either Markdown or plain lines."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class DetailScreen(ModalScreen[None]):
    """Shows one row in full. ``markdown`` is rendered as Markdown (never as Rich markup)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="detail.close", tooltip="Back to the pane"),
        Binding("q", "close", "Back", show=False, id="detail.quit", tooltip="Back to the pane"),
    ]

    def __init__(self, title: str, *, lines: tuple[str, ...] = (), markdown: str | None = None) -> None:
        super().__init__()
        self.detail_title, self.lines, self.markdown = title, lines, markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog detail"):
            yield Label(Text(self.detail_title, style="bold"), classes="detail-title")
            for line in self.lines:
                yield Static(Text(line), classes="detail-line")
            if self.markdown is not None:
                # imported here: the Markdown widget (markdown-it, pygments) is not needed to start
                from textual.widgets import Markdown

                yield Markdown(self.markdown, classes="detail-markdown")
            yield Label("esc to go back", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
