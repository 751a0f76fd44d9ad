"""Helpers for driving the real app over the sandbox: wait for loads, answer dialogs, read git."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import ModalScreen
from textual.widgets import Button, Input, Select

from cockpit.ui.app import CockpitApp
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.pane_table import PANE_KEYS
from tests.pilot import settle

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from cockpit.backend import Backend


@asynccontextmanager
async def running(
    backend: Backend, *, pane: str | None = None, notifications: bool = False
) -> AsyncIterator[tuple[CockpitApp, Pilot]]:
    """The real app over ``backend`` at 160x48 with every load settled (then pane ``pane`` shown by its digit
    and settled); ``notifications`` keeps the notices on screen for tests that read them there.

    The opening every e2e test of a session shares, written once: no animations (a test waits for
    work, not for a slide), the loads finished before the first key, and the state file's lock
    released when the session ends, however it ends, so the next session on that file is not read-only.
    """
    try:
        app = CockpitApp(backend)
        app.animation_level = "none"
        async with app.run_test(size=(160, 48), notifications=notifications) as pilot:
            await settle(app, pilot)
            if pane is not None:
                await pilot.press(PANE_KEYS[pane])
                await settle(app, pilot)
            yield app, pilot
    finally:
        backend.state.close()


async def answer_dialogs(app, pilot, *, version: str, note: str = "checked by the viewer") -> list[str]:
    """Submit whatever dialog is open, the way a determined user would; names of the dialogs seen.

    A confirmation is confirmed (the version typed back when asked); a form gets its selects and
    empty inputs filled and is submitted; anything else (detail, help) is closed.
    """
    seen = []
    for _ in range(6):
        screen = app.screen
        if not isinstance(screen, ModalScreen):
            return seen
        seen.append(type(screen).__name__)
        if isinstance(screen, ConfirmScreen):
            if screen.expected is not None:
                await pilot.press(*screen.expected)
                await pilot.press("enter")
            else:
                await pilot.press("y")
        else:
            await _submit_form(screen, pilot, version, note)
        await pilot.pause()
        if app.screen is screen:
            await pilot.press("escape")
            await pilot.pause()
    return seen


async def _submit_form(screen, pilot, version: str, note: str) -> None:
    for select in screen.query(Select):
        if select.is_blank():  # as a user would: open it, take the first option after the blank one
            select.focus()
            await pilot.press("enter", "down", "enter")
            await pilot.pause()
    inputs = list(screen.query(Input))
    for field in inputs:
        if not field.value:
            field.value = version if version in (field.placeholder or "") else note
    await pilot.pause()
    buttons = [b for b in screen.query(Button) if not b.disabled and b.variant in ("primary", "error", "success")]
    if inputs:
        inputs[0].focus()
        await pilot.press("enter")
    elif buttons:
        buttons[0].press()
    else:
        await pilot.press("escape")


def git_refs(path: str | Path) -> str:
    """``for-each-ref`` plus HEAD of a clone or bare remote: what a write would change."""
    refs = subprocess.run(
        ["git", "-C", str(path), "for-each-ref", "--format=%(refname) %(objectname)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    head = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout
    sym = subprocess.run(["git", "-C", str(path), "symbolic-ref", "-q", "HEAD"], capture_output=True, text=True).stdout
    return f"{refs}HEAD {head}{sym}"


def screen_text(app) -> str:
    """Every character on the screen (and the notifications) as plain text."""
    import html
    import re

    svg = app.export_screenshot()
    rows: dict[float, list[str]] = {}
    for y, chunk in re.findall(r'<text[^>]*y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(y), []).append(html.unescape(re.sub("<[^>]+>", "", chunk)))
    return "\n".join("".join(parts).replace("\xa0", " ") for _y, parts in sorted(rows.items()))
