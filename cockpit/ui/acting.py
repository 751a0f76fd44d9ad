"""Running a registered action from a key: refusal first, then the confirm modal, then a worker.

Every key that changes the world goes through ``perform``, so the read-only promise, the dry-run
text and the typed confirmation of irreversible actions are the same on every pane.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widget import Widget

from cockpit.ui.action_effects import follow
from cockpit.ui.confirm import ConfirmScreen
from cockpit.ui.host import require_host
from cockpit.ui.panes.base import Pane
from cockpit.ui.widgets import error_text


def _describe(widget: Widget, pane: str, action_id: str) -> tuple[str, str]:
    """(title, danger) of an action; unknown actions count as mutating so they are confirmed."""
    for action in require_host(widget).backend.actions.for_pane(pane):
        if action.id == action_id:
            return action.title, str(action.danger)
    return action_id, "mutating"


def refused_in_viewer(widget: Widget, what: str) -> bool:
    """In a read-only session, say at once that ``what`` is not done from here (before a form, a note or a read
    is asked for: issue 32) and return True; the registry would refuse it again, for the record."""
    if not require_host(widget).backend.read_only:
        return False
    widget.app.notify(f"read-only session: {what}", title="Not done", severity="warning", markup=False)
    return True


def perform(
    widget: Widget,
    pane: str,
    action_id: str,
    target: Any,
    *,
    confirm: bool = True,
    danger: str | None = None,
    on_done: Callable[[bool], None] | None = None,
    preview_in_worker: bool = False,
    again: str | None = None,
) -> None:
    """Ask the registry whether ``action_id`` may run on ``target``; confirm unless safe; run it.

    ``preview_in_worker``: the action's dry run reads the network (which PR head, which comments are
    there): it is made in a worker first, and the refusal is asked after it, since it judges that
    preview; the confirmation opens when both are known.

    A refusal is shown as a notification and nothing else happens. ``confirm=False`` skips the
    modal for non-irreversible actions the user already confirmed another way (a checklist tick).
    ``danger="irreversible"`` asks for the typed version even when the action itself is milder
    (ticking the PyPI step records that an irreversible thing was done).
    ``on_done(ok)`` runs on the UI thread after the action finished.
    ``again``: a second question, asked after the confirmation and before anything runs (what the
    tracker says against a merge); the action runs only when both are answered yes.
    """
    app = widget.app
    backend = require_host(widget).backend
    registry = backend.actions
    if preview_in_worker:
        _preview_then_confirm(widget, pane, action_id, target, on_done, again)
        return
    try:
        reason = registry.refusal(action_id, target)
    except Exception as exc:
        reason = error_text(exc)
    if reason:
        app.notify(reason, title="Not done", severity="warning", markup=False)
        return
    title, registered = _describe(widget, pane, action_id)
    danger = danger or registered
    if danger == "safe" or (not confirm and danger != "irreversible"):
        _run(widget, pane, action_id, target, None, None, on_done)
        return
    expected = backend.config.release.version if danger == "irreversible" else None
    try:
        dry_run = registry.dry_run(action_id, target)
    except Exception as exc:
        app.notify(error_text(exc), title="Cannot describe the action", severity="error", markup=False)
        return

    def confirmed(typed: str | None) -> None:
        if typed is None:
            app.notify(f"{title}: cancelled", markup=False)
        elif again:
            _ask_again(
                widget,
                title,
                again,
                lambda: _run(widget, pane, action_id, target, typed if expected else None, expected, on_done),
            )
        else:
            _run(widget, pane, action_id, target, typed if expected else None, expected, on_done)

    app.push_screen(ConfirmScreen(title, danger, dry_run, expected=expected), confirmed)


def _preview_then_confirm(
    widget: Widget,
    pane: str,
    action_id: str,
    target: Any,
    on_done: Callable[[bool], None] | None,
    again: str | None = None,
) -> None:
    app = widget.app
    backend = require_host(widget).backend
    registry = backend.actions
    title, danger = _describe(widget, pane, action_id)

    def work() -> None:
        try:
            dry_run = registry.dry_run(action_id, target)
            reason = dry_run if dry_run.startswith("(cannot describe") else registry.refusal(action_id, target)
        except Exception as exc:
            dry_run, reason = "", error_text(exc)
        app.call_from_thread(shown, dry_run, reason)

    def shown(dry_run: str, reason: str | None) -> None:
        if reason:
            app.notify(reason, title="Not done", severity="warning", markup=False)
            return

        def confirmed(typed: str | None) -> None:
            if typed is None:
                app.notify(f"{title}: cancelled", markup=False)
            elif again:
                _ask_again(widget, title, again, lambda: _run(widget, pane, action_id, target, None, None, on_done))
            else:
                _run(widget, pane, action_id, target, None, None, on_done)

        app.push_screen(ConfirmScreen(title, danger, dry_run), confirmed)

    app.notify(f"{title}: reading what it would do…", markup=False)
    app.run_worker(
        work,
        name=f"{action_id}.preview",
        group="actions",
        description=f"Previewing {action_id}",
        thread=True,
        exit_on_error=False,
    )


def _ask_again(widget: Widget, title: str, question: str, then: Callable[[], None]) -> None:
    """The second question of an action the user confirmed once; ``then`` only on a second yes."""

    def answered(typed: str | None) -> None:
        if typed is None:
            widget.app.notify(f"{title}: cancelled", markup=False)
        else:
            then()

    widget.app.push_screen(ConfirmScreen(f"{title}: are you sure?", "mutating", question), answered)


def _run(
    widget: Widget,
    pane: str,
    action_id: str,
    target: Any,
    typed: str | None,
    expected: str | None,
    on_done: Callable[[bool], None] | None,
) -> None:
    app = widget.app
    backend = require_host(widget).backend
    registry = backend.actions

    def work() -> None:
        try:
            result = registry.run(action_id, target, confirmed=True, typed=typed, expected_typed=expected)
            ok, message = bool(result.ok), str(result.message)
        except Exception as exc:  # the registry should not raise, but a crash must not reach the screen
            ok, message = False, error_text(exc)
        app.call_from_thread(_finished, ok, message)

    def _finished(ok: bool, message: str) -> None:
        app.notify(message, severity="information" if ok else "error", markup=False)
        if ok:  # the other panes showing what it changed load again (issue 32: one action, every pane current)
            # The pane that acted follows its own action; ``pane`` names whose action it is (the checklist runs
            # the milestone's chores), and a screen (a detail, the watch screen) acts for ``pane``.
            follow(widget, action_id, widget.PANE if isinstance(widget, Pane) else pane)
        if on_done is not None:
            on_done(ok)

    app.run_worker(
        work, name=action_id, group="actions", description=f"Running {action_id}", thread=True, exit_on_error=False
    )
