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


INTERACTIVE_THRESHOLDS = (1_000, 1, 10_000)
"""Collection thresholds while a screen is up. Python's (700, 10, 10) make a full collection every
few dozen keystrokes, which at PyTorch's scale takes 50 ms and more; with these a full one almost
never comes by itself: ``sweep`` runs it when nobody is typing. The middle generation is collected
every other young collection, so it never holds more than two young collections' survivors: letting
it gather fifty (a load's data arriving while keys are pressed) made a pass of 200 ms and more land
on a keystroke. Young collections stay small: on the benchmark's keys, passes over 10,000 young
objects took three times the collector's time of passes over 1,000 (2 ms a key against 0.6), in
pauses of up to 20 ms against 5."""

_unswept = False
_sweeps = 0


def interactive() -> tuple[int, int, int]:
    """Use ``INTERACTIVE_THRESHOLDS``; returns the thresholds they replace (give them to ``restore``)."""
    previous = gc.get_threshold()
    gc.set_threshold(*INTERACTIVE_THRESHOLDS)
    return previous


def restore(thresholds: tuple[int, int, int]) -> None:
    """Put back the thresholds ``interactive`` replaced."""
    gc.set_threshold(*thresholds)


def settle() -> None:
    """Keep what exists now out of later collections: a pane has just drawn a newly loaded report,
    and its rows, cells and drawn lines stay until the next load.

    Without it every full collection walks all the panes' data again. Frozen objects that later
    become garbage in a cycle are only reclaimed by ``sweep``.
    """
    global _unswept
    gc.freeze()
    _unswept = True


def sweep() -> bool:
    """The full collection, for a moment when nobody is typing: over everything, frozen objects
    included, when ``settle`` froze some since the last sweep (the survivors are frozen again);
    otherwise over what is not frozen, if a young collection has happened since the last full one.
    Nothing (returns False) when there is nothing to do, or the collector is paused or turned off."""
    global _unswept, _sweeps
    if _paused or not gc.isenabled() or not (_unswept or gc.get_count()[2]):
        return False
    if _unswept:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _unswept = False
    else:
        gc.collect()
    _sweeps += 1
    return True


def release() -> None:
    """The screen is gone: whatever ``settle`` and ``resume`` froze goes back to the collector (in a
    process that opens several apps, such as the tests, their frozen garbage is reclaimed)."""
    global _unswept
    gc.unfreeze()
    _unswept = False


def sweeps() -> int:
    """How many times ``sweep`` collected (for tests and benchmarks)."""
    return _sweeps
