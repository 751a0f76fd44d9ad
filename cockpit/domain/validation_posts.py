"""The bulk validation comments and the validation issue as previewed before they are posted.

Apart from ``cockpit.domain.validation`` (the defaults the config reads) so that reading the config
does not build these dataclasses: the actions that post them are loaded after the first screen.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CommentStep:
    """One closed milestone issue in the bulk validation: posted, or skipped with ``reason``."""

    number: int
    title: str
    post: bool
    reason: str = ""


@dataclass(frozen=True)
class CommentPlan:
    """What posting the validation comment on every closed milestone issue would do, as previewed."""

    repository: str
    text: str
    steps: tuple[CommentStep, ...]

    @property
    def to_post(self) -> tuple[CommentStep, ...]:
        return tuple(s for s in self.steps if s.post)


@dataclass(frozen=True)
class IssueDraft:
    """The validation issue as previewed: where, its exact title and body."""

    repository: str
    title: str
    body: str
