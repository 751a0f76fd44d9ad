"""While the cockpit's screen is up, the garbage collector stays out of the way of keys: the data of
a load is kept out of its passes once drawn, and the full pass waits until nobody is typing."""

from __future__ import annotations

import gc
import weakref

import pytest

from cockpit import collector


class Report:
    """Stands for a pane's report: something in a reference cycle, as widgets and caches are."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector_on():
    thresholds = gc.get_threshold()
    # Python's own thresholds, whatever an earlier test in this process left (mypy's API, run by
    # the code-quality test in the same worker, sets 200000 and keeps it).
    gc.set_threshold(700, 10, 10)
    collector.resume()
    gc.enable()
    collector.sweep()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.enable()


def test_a_drawn_report_is_left_out_of_collections_until_the_idle_sweep_reclaims_its_garbage(collector_on):
    report = Report()
    gone = weakref.ref(report)
    collector.settle()  # the pane drew it
    del report  # the next load replaced it
    gc.collect()
    assert gone() is not None, "a collection during keys does not walk what was frozen"
    assert collector.sweep()
    assert gone() is None, "the sweep, when nobody types, reclaims it"
    assert not collector.sweep(), "nothing to do until something is frozen or collected again"


def test_the_sweep_waits_while_the_collector_is_paused(collector_on):
    collector.settle()
    collector.pause()
    try:
        assert not collector.sweep()
    finally:
        collector.resume()
    assert collector.sweep()


def test_while_the_screen_is_up_young_collections_are_rare_and_the_old_thresholds_come_back(collector_on):
    before = gc.get_threshold()
    previous = collector.interactive()
    assert previous == before
    assert gc.get_threshold() == collector.INTERACTIVE_THRESHOLDS
    assert collector.INTERACTIVE_THRESHOLDS[0] > before[0]
    collector.restore(previous)
    assert gc.get_threshold() == before


def test_what_was_frozen_goes_back_to_the_collector_when_the_screen_goes(collector_on):
    report = Report()
    gone = weakref.ref(report)
    collector.settle()
    del report
    collector.release()
    gc.collect()
    assert gone() is None
    assert not collector.sweep(), "nothing left for a sweep"


def test_a_load_arriving_while_keys_are_pressed_never_piles_up_for_one_long_middle_collection(collector_on):
    previous = collector.interactive()
    young = collector.INTERACTIVE_THRESHOLDS[0]
    largest_middle = 0

    def watch(phase: str, info: dict[str, int]) -> None:
        nonlocal largest_middle
        if phase == "start" and info["generation"] == 1:
            largest_middle = max(largest_middle, len(gc.get_objects(generation=1)))

    arrived: list[list[Report]] = []  # what a load keeps: it survives every collection
    gc.callbacks.append(watch)
    try:
        for _batch in range(40):
            arrived.append([Report() for _ in range(young)])
    finally:
        gc.callbacks.remove(watch)
        collector.restore(previous)
    assert largest_middle, "the middle generation was collected while the load arrived"
    assert largest_middle <= 3 * young, (
        f"a middle collection walked {largest_middle} objects: a pause on some keystroke, not a young collection's"
    )
