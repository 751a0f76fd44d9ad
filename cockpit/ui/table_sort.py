"""How a table pane orders its rows: each column says what its cells mean for sorting.

A pane declares its columns as ``Column`` specs whose ``sort_key`` reads the pane's own row object
(a ``MilestoneItem``, a ``PickRow``, ...), not the text drawn: numbers sort as numbers (#9 before
#10), ages as durations (2 h before 2 d before 10 d), states in their meaningful order (open before
merged; red before amber before green) and text case-insensitively. A key of ``None`` means the
cell is empty: those rows go last, whichever the direction. The sort is stable: rows that compare
equal keep the pane's own order, so a sort by state keeps the report's order within each state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import itemgetter
from typing import TYPE_CHECKING, Generic, TypeVar

from rich.console import RenderableType

from cockpit.domain.gates import GateStatus

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

RowT = TypeVar("RowT")
ItemT = TypeVar("ItemT")

STATUS_ORDER = {GateStatus.RED: 0, GateStatus.AMBER: 1, GateStatus.GREEN: 2, GateStatus.UNKNOWN: 3}
"""What needs the release manager first: red, then amber, then green, then what is not known."""


@dataclass(frozen=True)
class Column(Generic[RowT]):
    """One column of a table pane: its id (the table's column key), its header and its sort key.

    ``sort_key`` returns ``None`` for an empty cell (sorted last); ``width`` is the widest the cells
    are drawn (cut with an ellipsis), None for as wide as their text.
    """

    id: str
    title: str
    sort_key: Callable[[RowT], SupportsRichComparison | None]
    width: int | None = None


@dataclass(frozen=True, slots=True)
class TableRow(Generic[RowT]):
    """A row as a table pane draws it: its key in the table, the object it shows and its cells."""

    key: str
    item: RowT
    cells: tuple[RenderableType, ...]


def sort_rows(
    rows: Sequence[ItemT], key: Callable[[ItemT], SupportsRichComparison | None], *, reverse: bool = False
) -> list[ItemT]:
    """``rows`` ordered by ``key``, stable in both directions; rows whose key is None come last."""
    keyed = [(key(row), row) for row in rows]
    present = [pair for pair in keyed if pair[0] is not None]
    present.sort(key=itemgetter(0), reverse=reverse)  # compares keys only, never the rows
    return [row for _key, row in present] + [row for k, row in keyed if k is None]


_DIGITS = re.compile(r"(\d+)")


def text_key(text: str) -> tuple[tuple[int, int, str], ...] | None:
    """Text as a person sorts it: case-insensitively, numbers inside as numbers ("#95" before
    "#102", "rc2" before "rc10"); None for an empty cell."""
    parts = tuple((0, int(p), "") if p.isdigit() else (1, 0, p.casefold()) for p in _DIGITS.split(text.strip()) if p)
    return parts or None


def by_text(text_of: Callable[[ItemT], str]) -> Callable[[ItemT], tuple[tuple[int, int, str], ...] | None]:
    """A sort key that orders rows by the text ``text_of`` gives (see ``text_key``)."""
    return lambda row: text_key(text_of(row))


def newest_first(when: datetime | None) -> float | None:
    """Sort key for a moment the table shows as an age ("3h", "2d"): the youngest age first; None
    when not known. A moment without a time zone is taken as UTC."""
    if when is None:
        return None
    return -(when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def status_rank(status: GateStatus) -> int:
    """Where a gate status sorts: red, amber, green, unknown."""
    return STATUS_ORDER.get(status, len(STATUS_ORDER))
