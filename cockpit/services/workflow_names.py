"""Configured workflow names checked against the names GitHub reports, with the near match offered.

GitHub names a workflow by its ``name:`` line, case-sensitively: a gate waiting for ``lint`` when the
repository's workflow is ``Lint`` waits forever. ``check_names`` compares each configured name with the
repository's workflow list and the branch's runs, and for a name that matches nothing offers the
nearest one (same letters in another case first, then the closest spelling).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches

CUTOFF = 0.6
"""How alike two names must be (difflib's ratio) to be offered as a near match."""


@dataclass(frozen=True)
class NameWarning:
    """A configured workflow name that matches no workflow, and the nearest real one (or None)."""

    configured: str
    near: str | None

    @property
    def message(self) -> str:
        """One line for ``init`` and the CI pane."""
        if self.near is None:
            return f"required workflow {self.configured!r} matches no workflow of the repository"
        return f"required workflow {self.configured!r} matches no workflow; did you mean {self.near!r}?"


def near_match(name: str, known: Iterable[str]) -> str | None:
    """The real name ``name`` most likely means: the same ignoring case, else the closest spelling."""
    names = sorted(set(known))
    same = [n for n in names if n.casefold() == name.casefold()]
    if same:
        return same[0]
    folded = {n.casefold(): n for n in names}
    close = get_close_matches(name.casefold(), list(folded), n=1, cutoff=CUTOFF)
    return folded[close[0]] if close else None


def check_names(configured: Sequence[str], known: Iterable[str]) -> list[NameWarning]:
    """A warning for each configured name that is not one of ``known``, in configured order.

    A configured name is a pattern to the CI gate (``linux-binary-.*``): one that fully matches a known
    name, as a regular expression, matches it too."""
    names = set(known)
    return [NameWarning(c, near_match(c, names)) for c in configured if not _matches(c, names)]


def _matches(configured: str, names: set[str]) -> bool:
    if configured in names:
        return True
    try:
        pattern = re.compile(configured)
    except re.error:
        return False
    return any(pattern.fullmatch(n) for n in names)
