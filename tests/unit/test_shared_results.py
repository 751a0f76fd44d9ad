"""A result several panes share is reused within its interval, and read again at once after something the
cockpit did changed what it reads (``forget``): a run approved from the watch screen shows on the checklist
at the next look, not a refresh interval later."""

from __future__ import annotations

from cockpit.loaders.shared import Shared


def test_a_result_is_reused_within_its_interval_and_computed_again_after_forget():
    shared: Shared[int] = Shared()
    calls: list[int] = []

    def compute() -> int:
        calls.append(len(calls) + 1)
        return len(calls)

    assert shared.get(compute, reuse_within=3600) == 1
    assert shared.get(compute, reuse_within=3600) == 1, "reused: the interval has not passed"
    shared.forget()
    assert shared.last == 1, "the last result is still there for whoever shows it while it is read again"
    assert shared.get(compute, reuse_within=3600) == 2
    assert shared.get(compute, reuse_within=3600) == 2
    Shared[int]().forget()  # nothing computed yet: nothing to forget, no error
