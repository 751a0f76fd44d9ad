"""The garbage collector held off while the cockpit starts: what is built before the first screen
(modules, classes, the widgets of that screen) lives as long as the process, so collecting it is
wasted work, about a twentieth of the time to the first screen.

The entry point calls ``pause`` first thing; the app calls ``resume`` once its first screen is
painted (and when it stops, whatever happened), and every command that opens no screen resumes
before it runs. Objects alive at ``resume`` are frozen: later collections never walk them again.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop automatic collections until ``resume``; nothing if they are already off."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Keep what exists now out of later collections, and collect automatically again if ``pause``
    stopped it (a collector someone else turned off stays off)."""
    global _paused
    gc.freeze()
    if _paused:
        _paused = False
        gc.enable()


def paused() -> bool:
    """Whether ``pause`` is in effect."""
    return _paused
