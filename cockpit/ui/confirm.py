"""Modal dialogs: confirm an action (typed confirmation for irreversible ones), and ask for a line of text."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

_PREVIEW_ROWS = 20  # the dry run's box on a roomy screen (it scrolls beyond)
_AROUND_PREVIEW = 12


class ConfirmScreen(ModalScreen[str | None]):
    """Shows the action, its danger and the exact dry-run text; dismisses with the typed text or None.

    Without ``expected`` the result is "" on confirm. With ``expected`` (irreversible actions) the
    confirm button stays disabled until the typed text equals it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Confirm", id="confirm.yes", tooltip="Run the action as shown"),
        Binding("enter", "confirm", "Confirm", show=False, id="confirm.enter", tooltip="Run the action as shown"),
        Binding("n", "cancel", "Cancel", id="confirm.no", tooltip="Do nothing"),
        Binding("escape", "cancel", "Cancel", id="confirm.escape", tooltip="Do nothing"),
    ]

    def __init__(self, title: str, danger: str, dry_run: str, *, expected: str | None = None) -> None:
        super().__init__()
        self.action_title, self.danger, self.dry_run, self.expected = title, danger, dry_run, expected

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog", classes=f"dialog -{self.danger}"):
            yield Label(Text(self.action_title, style="bold"), id="confirm-title")
            yield Label(Text(f"Danger: {self.danger}"), id="confirm-danger", classes=f"-{self.danger}")
            yield Static(Text(self.dry_run), id="confirm-dry-run")
            if self.expected is not None:
                yield Label(Text(f"This cannot be undone. Type {self.expected} to enable the button."))
                yield Input(placeholder=self.expected, id="confirm-typed")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    "Confirm (y)",
                    variant="error" if self.expected else "primary",
                    id="confirm-yes",
                    disabled=self.expected is not None,
                )
                yield Button("Cancel (n)", id="confirm-no")

    def on_mount(self) -> None:
        self._fit_preview()
        if self.expected is not None:
            self.query_one("#confirm-typed", Input).focus()

    def on_resize(self) -> None:
        self._fit_preview()

    def _fit_preview(self) -> None:
        # The preview scrolls; it gives way so that the buttons stay on a small terminal (80x24): the dialog is
        # at most 90% of the screen, and the rest of it (border, padding, title, danger, margins, buttons, the
        # typed-version field) takes _AROUND_PREVIEW rows.
        around = _AROUND_PREVIEW + (4 if self.expected is not None else 0)
        room = int(self.app.size.height * 0.9) - around
        self.query_one("#confirm-dry-run", Static).styles.max_height = max(3, min(_PREVIEW_ROWS, room))

    @property
    def typed(self) -> str:
        return self.query_one("#confirm-typed", Input).value if self.expected is not None else ""

    @on(Input.Changed, "#confirm-typed")
    def _typed_changed(self, event: Input.Changed) -> None:
        self.query_one("#confirm-yes", Button).disabled = event.value != self.expected

    @on(Input.Submitted, "#confirm-typed")
    def _typed_submitted(self) -> None:
        self.action_confirm()

    @on(Button.Pressed, "#confirm-yes")
    def action_confirm(self) -> None:
        if self.expected is not None and self.typed != self.expected:
            self.notify(f"Type {self.expected} exactly to confirm.", severity="warning", markup=False)
            return
        self.dismiss(self.typed)

    @on(Button.Pressed, "#confirm-no")
    def action_cancel(self) -> None:
        self.dismiss(None)


class TextInputScreen(ModalScreen[str | None]):
    """Ask for one line of text (a note); dismisses with the text, or None on escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="input.cancel", tooltip="Close without saving")
    ]

    def __init__(self, prompt: str, *, value: str = "") -> None:
        super().__init__()
        self.prompt, self.value = prompt, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.prompt))
            # Not selected: a prefilled "@author " stays when the first key is typed after it.
            yield Input(value=self.value, id="text-input", select_on_focus=False)
            yield Label("enter to save · esc to cancel", classes="dialog-hint")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
