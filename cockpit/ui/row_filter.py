"""The ``/`` filter of a table: a regular expression over a row's text, ``!`` in front inverts it.

Case is ignored unless the expression has a capital letter (smart case, as in lazygit and vim).
A half-typed expression is not an error to raise: ``RowFilter.problem`` says what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True)
class RowFilter:
    """A parsed filter; ``problem`` is set (and nothing is filtered) when the expression is invalid."""

    text: str = ""
    pattern: re.Pattern[str] | None = None
    invert: bool = False
    problem: str = ""

    @property
    def active(self) -> bool:
        """True when it hides rows."""
        return self.pattern is not None

    def keeps(self, row_text: str) -> bool:
        """Whether a row whose cells read ``row_text`` stays visible."""
        if self.pattern is None:
            return True
        return bool(self.pattern.search(row_text)) != self.invert


def parse_filter(text: str) -> RowFilter:
    """``"open"``, ``"!landed"``, ``"#1[0-9]{4}"``: the filter the release manager typed."""
    invert = text.startswith("!")
    expression = text[1:] if invert else text
    if not expression:
        return RowFilter(text)
    flags = 0 if any(c.isupper() for c in expression) else re.IGNORECASE
    try:
        return RowFilter(text, re.compile(expression, flags), invert)
    except (re.error, RecursionError, OverflowError) as exc:
        return RowFilter(text, problem=f"invalid regex: {exc}")


def row_text(cells: Iterable[object]) -> str:
    """The text of a table row as shown: its cells' plain text joined by spaces."""
    return " ".join(cell.plain if isinstance(cell, Text) else str(cell) for cell in cells)
