"""Tables follow the terminal: the widest columns narrow to fit the view, the narrow ones stay whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cockpit.ui.table_parts import FIT_FLOOR, fit_widths


def test_columns_that_fit_keep_their_natural_widths() -> None:
    assert fit_widths([10, 20, 30], 80) == [10, 20, 30]


def test_the_widest_columns_narrow_to_one_cap_and_the_narrow_ones_stay() -> None:
    # the checklist at 80 columns: a 4-wide mark, a 64-wide step, a 60-wide state
    assert fit_widths([4, 64, 60], 78) == [4, 37, 37]


def test_no_column_narrows_below_the_floor_the_table_scrolls_instead() -> None:
    widths = fit_widths([30, 30, 30, 30], 20)
    assert widths == [FIT_FLOOR] * 4


@given(st.lists(st.integers(min_value=1, max_value=200), min_size=1, max_size=12), st.integers(1, 400))
def test_fitted_widths_fit_when_they_can_and_never_grow(natural: list[int], available: int) -> None:
    widths = fit_widths(natural, available)
    assert all(w <= n for w, n in zip(widths, natural, strict=True))
    assert all(w >= min(n, FIT_FLOOR) for w, n in zip(widths, natural, strict=True))
    if sum(min(n, FIT_FLOOR) for n in natural) <= available:
        assert sum(widths) <= available
