"""Why a session cannot write its state file, and what the release manager can do about it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ReadOnlyReason:
    """One reason a session is read-only.

    ``summary`` is a few words for the header badge ("state locked by pid 4242 on build-7");
    ``detail`` says what happened, naming who, where and since when; ``remedy`` how to get a
    session that writes (empty when there is nothing to do, as for a viewer).
    """

    summary: str
    detail: str
    remedy: str = ""

    def __str__(self) -> str:
        return f"{self.detail}; {self.remedy}" if self.remedy else self.detail


VIEWER = ReadOnlyReason("viewer", "viewer mode (--read-only)")
