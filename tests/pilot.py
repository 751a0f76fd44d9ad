"""Driving a Textual app in tests: wait until the background work a key started is done."""

from __future__ import annotations


async def settle(app, pilot, *, rounds: int = 1000) -> None:
    """Wait until every worker (pane loads, actions, checklist re-evaluations) has finished.

    Finished twice in a row: a finished load may post a message that starts another worker.
    ``rounds`` only bounds a hang; a normal wait ends as soon as the work does.
    """
    for _ in range(rounds):
        await pilot.pause()
        if all(w.is_finished for w in app.workers):
            await pilot.pause()
            if all(w.is_finished for w in app.workers):
                return
        await pilot.pause(0.01)
    raise AssertionError("the workers did not finish")


async def wait_until(pilot, condition, *, seconds: float = 30.0) -> None:
    """Wait until ``condition()`` holds (a screen opened, a notice went); ``seconds`` bounds a hang, never a speed."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("not within the bound")
