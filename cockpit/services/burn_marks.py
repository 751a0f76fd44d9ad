"""The days marked under the burn-down: the branch cut, each RC tag, the final-RC target.

A mark sits under the sparkline's cell that holds its day. Both sparklines (Textual's in the UI, the
report's Unicode line) fold a long series into cells the same way: cell ``c`` of ``width`` covers
days ``c*n//width`` to ``(c+1)*n//width - 1``; a series no longer than the width has a cell a day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from cockpit.domain.reports import ReleaseDays
from cockpit.services.rc_sizes import short_tag
from cockpit.services.trends import DailySeries

MARK, AXIS = "┬", "─"


@dataclass(frozen=True)
class Mark:
    """One marked day: ``cut``, ``rc1``, ``target``."""

    label: str
    day: date


def burn_down_marks(days: ReleaseDays) -> tuple[Mark, ...]:
    """The cut, each RC tag and the final-RC target, in day order (the cut first on a tie)."""
    marks = [Mark("cut", days.cut)] if days.cut else []
    marks += [Mark(short_tag(tag), day) for tag, day in days.rc_tags]
    if days.final_rc_target:
        marks.append(Mark("target", days.final_rc_target))
    order = {"cut": 0, "target": 2}
    return tuple(sorted(marks, key=lambda m: (m.day, order.get(m.label, 1))))


def cell_of(index: int, length: int, width: int) -> int:
    """The cell that holds day ``index`` of a ``length``-day series drawn in ``width`` cells."""
    if length <= width or width <= 0:
        return index
    cell = index * width // length
    while cell > 0 and cell * length // width > index:
        cell -= 1
    while (cell + 1) * length // width <= index:
        cell += 1
    return cell


def mark_line(series: DailySeries, marks: tuple[Mark, ...], width: int) -> str:
    """An axis as wide as the sparkline drawn in ``width`` cells, ``┬`` under the cells of the marked
    days inside the series (``──┬───┬─``)."""
    length = len(series.values)
    cells = [AXIS] * min(length, width)
    for mark in marks:
        index = (mark.day - series.start).days
        if 0 <= index < length:
            cells[cell_of(index, length, width)] = MARK
    return "".join(cells)


def legend(series: DailySeries, marks: tuple[Mark, ...]) -> str:
    """``cut 06-04, rc1 07-01, rc2 07-15, target 12-10 (ahead)``: a day after the series' end is ahead."""
    words = []
    for mark in marks:
        ahead = " (ahead)" if series.values and mark.day > series.end else ""
        words.append(f"{mark.label} {mark.day.strftime('%m-%d')}{ahead}")
    return ", ".join(words)
