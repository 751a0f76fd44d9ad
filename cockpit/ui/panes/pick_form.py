"""The small form that composes the bot's cherry-pick command: a category and the issue it fixes."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from cockpit.services.pick_command import BOT_CLASSES, bot_command, fixes_advice

CATEGORIES = BOT_CLASSES


class BotCommandForm(ModalScreen[tuple[str, str] | None]):
    """Dismisses with ``(category, fixes_url)``, or None when cancelled.

    ``category`` preselects one of the bot's five classes (from the request's free-text category).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="bot_form.cancel", tooltip="Close without posting")
    ]

    def __init__(self, pr: int, branch: str, *, fixes: str = "", category: str = "") -> None:
        super().__init__()
        self.pr, self.branch, self.fixes = pr, branch, fixes
        self.category = category if category in CATEGORIES else ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(f"Cherry-pick #{self.pr} onto {self.branch}", style="bold"))
            yield Select(
                [(c, c) for c in CATEGORIES],
                prompt="Category",
                id="bot-category",
                allow_blank=True,
                value=self.category or Select.NULL,
            )
            yield Input(
                value=self.fixes,
                placeholder="Fixes: issue URL (needed for regression, critical, fixnewfeature)",
                id="bot-fixes",
            )
            yield Static("", id="bot-preview")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Continue", variant="primary", id="bot-ok")
                yield Button("Cancel", id="bot-cancel")

    def on_mount(self) -> None:
        self._preview()

    def _values(self) -> tuple[str, str]:
        category = self.query_one("#bot-category", Select).value
        category = category if isinstance(category, str) else ""
        return category, self.query_one("#bot-fixes", Input).value.strip()

    def _problem(self) -> str | None:
        """Why the command cannot be posted as filled in, or None."""
        category, fixes = self._values()
        if not category:
            return "Choose a category."
        try:
            bot_command(branch=self.branch, category=category, fixes=fixes or None)
        except ValueError as exc:
            return str(exc)
        return None

    @on(Select.Changed)
    @on(Input.Changed)
    def _preview(self) -> None:
        category, fixes = self._values()
        problem = self._problem()
        text = problem or f"on #{self.pr}: " + bot_command(branch=self.branch, category=category, fixes=fixes or None)
        advice = None if problem else fixes_advice(category, fixes)
        text = f"{text}  ({advice})" if advice else text
        self.query_one("#bot-preview", Static).update(Text(text))

    @on(Button.Pressed, "#bot-ok")
    @on(Input.Submitted)
    def _submit(self) -> None:
        problem = self._problem()
        if problem:
            self.notify(problem, severity="warning", markup=False)
            return
        self.dismiss(self._values())

    @on(Button.Pressed, "#bot-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
