"""The publish dialog: the Markdown the tracker will show and its diff against the published
comment, scrollable, before anything is sent."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class PublishPreviewScreen(ModalScreen[bool]):
    """Shows the preview (the action's dry run); dismisses True to publish, False to cancel."""

    DEFAULT_CSS = """
    PublishPreviewScreen { align: center middle; }
    PublishPreviewScreen #publish-dialog { height: 90%; }
    PublishPreviewScreen #publish-preview { height: 1fr; background: $boost; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Publish", id="publish.yes", tooltip="Send this status to the tracker"),
        Binding("n", "cancel", "Cancel", id="publish.no", tooltip="Send nothing"),
        Binding("escape", "cancel", "Cancel", id="publish.escape", tooltip="Send nothing"),
    ]

    def __init__(self, preview: str) -> None:
        super().__init__()
        self.preview = preview

    def compose(self) -> ComposeResult:
        with Vertical(id="publish-dialog", classes="dialog -mutating"):
            yield Label(Text("Publish the status to the tracker", style="bold"))
            yield Label(Text("Danger: mutating · the comment below replaces the published one"), classes="-mutating")
            with VerticalScroll(id="publish-preview"):
                yield Static(Text(self.preview), id="publish-preview-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Publish (y)", variant="primary", id="publish-yes")
                yield Button("Cancel (n)", id="publish-no")

    def on_mount(self) -> None:
        self.query_one("#publish-preview", VerticalScroll).focus()

    @on(Button.Pressed, "#publish-yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#publish-no")
    def action_cancel(self) -> None:
        self.dismiss(False)
