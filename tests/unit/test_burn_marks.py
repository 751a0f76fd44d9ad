"""The burn-down's marks: the cut, each RC tag and the final-RC target, under the right cell."""

from __future__ import annotations

from datetime import date, timedelta

from cockpit.domain.reports import ReleaseDays
from cockpit.services.burn_marks import Mark, burn_down_marks, cell_of, legend, mark_line
from cockpit.services.trends import BurnDown, DailySeries
from cockpit.services.trends_text import burn_down_lines, folded

START = date(2026, 6, 1)
DAYS = ReleaseDays(
    cut=date(2026, 6, 4),
    rc_tags=(("v2.5.0-rc1", date(2026, 6, 8)), ("v2.5.0-rc2", date(2026, 6, 10))),
    final_rc_target=date(2026, 12, 10),
)


def test_the_marks_are_the_cut_each_rc_and_the_target_in_day_order():
    assert burn_down_marks(DAYS) == (
        Mark("cut", date(2026, 6, 4)),
        Mark("rc1", date(2026, 6, 8)),
        Mark("rc2", date(2026, 6, 10)),
        Mark("target", date(2026, 12, 10)),
    )
    assert burn_down_marks(ReleaseDays()) == ()


def test_a_short_series_has_a_cell_a_day_and_the_target_ahead_is_only_in_the_legend():
    series = DailySeries(START, tuple(range(12)))  # 06-01 .. 06-12
    marks = burn_down_marks(DAYS)
    assert mark_line(series, marks, 60) == "───┬───┬─┬──"
    assert legend(series, marks) == "cut 06-04, rc1 06-08, rc2 06-10, target 12-10 (ahead)"


def test_in_a_folded_series_a_mark_sits_under_the_cell_that_holds_its_day():
    length, width = 124, 37
    cells = folded(list(range(length)), width)  # each cell's value is the last day it covers
    for index in range(length):
        cell = cell_of(index, length, width)
        covered = [d for d in range(length) if cell_of(d, length, width) == cell]
        assert cells[cell] == max(covered) and index in covered
    series = DailySeries(START, tuple(range(length)))
    line = mark_line(series, (Mark("cut", START + timedelta(days=100)),), width)
    assert len(line) == width and line.index("┬") == cell_of(100, length, width) == 30  # cell 30 covers days 100..103


def test_the_report_marks_the_burn_down_under_its_sparkline():
    series = DailySeries(START, (3, 4, 5, 5, 4, 4, 3, 2, 2, 1, 1, 1))
    lines = burn_down_lines(BurnDown(series), DAYS)
    assert lines[1] == "  - open   `▅▇██▇▇▅▄▄▂▂▂`"
    assert lines[2] == "  - marked `───┬───┬─┬──` cut 06-04, rc1 06-08, rc2 06-10, target 12-10 \\(ahead\\)"
    assert burn_down_lines(BurnDown(series), ReleaseDays()) == burn_down_lines(BurnDown(series))
