"""What the GitHub emulator's route handlers use of the emulator they serve in.

The handlers (``github_routes``, ``github_search``, ``github_merge_routes``, ``github_evidence_routes``)
are written against this protocol, not against ``github_server.GitHubEmulator``, which imports them
to build its routing table; the emulator is checked against it where it hands itself to them.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

from cockpit.sandbox.github_objects import Urls
from cockpit.sandbox.github_state import RepoState
from cockpit.sandbox.http_base import Request, Response
from cockpit.sandbox.model import SbPull, SbReview, World

if TYPE_CHECKING:
    from cockpit.sandbox.release_effects import StagingEffects


class EmulatorHost(Protocol):
    """The emulator as its handlers see it: its repositories under one lock, and GitHub's common answers."""

    base_url: str
    repos: dict[str, RepoState]
    users: dict[str, str]
    next_comment_id: int

    @property
    def lock(self) -> AbstractContextManager[Any]:
        """Held while a handler reads or changes ``repos``."""
        ...

    def error(self, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        """GitHub's error answer."""
        ...

    def validation_failed(self, resource: str, field: str, code: str = "invalid", value: Any = None) -> Response:
        """GitHub's 422 naming the resource and field."""
        ...

    def paged(
        self,
        request: Request,
        items: list[Any],
        render_item: Callable[[Any], Any] = ...,
        wrap: str | None = None,
    ) -> Response:
        """One page of ``items`` with its Link header."""
        ...

    def urls(self, state: RepoState) -> Urls:
        """The addresses of ``state``'s repository on this emulator."""
        ...

    def moved_or_gone(self, state: RepoState, number: int, rest: str = "") -> Response | None:
        """301 for a transferred issue, 410 for a deleted one, else None."""
        ...

    # The JSON of one object, shared between the handlers' modules.
    def _milestone(
        self, state: RepoState, number: int | None, counts: dict[int, tuple[int, int]]
    ) -> dict[str, Any] | None: ...

    def _issue(
        self, state: RepoState, item: Any, counts: dict | None = None, comments: dict[int, int] | None = None
    ) -> dict[str, Any]: ...

    def _comment(self, state: RepoState, comment: Any) -> dict[str, Any]: ...

    def _comment_body(self, request: Request) -> str | Response: ...

    def _pull(self, state: RepoState, pull: SbPull, counts: dict, complete: bool = True) -> dict[str, Any]: ...

    def _review(self, state: RepoState, r: SbReview) -> dict[str, Any]: ...


class ActionsHost(EmulatorHost, Protocol):
    """The emulator as the release day's routes see it: its world, and the run routes they fall back to."""

    world: World
    release_effects: StagingEffects | None  # what the release workflows change when they succeed

    def list_jobs(self, request: Request, state: RepoState, run_id: str) -> Response:
        """The emulator's own jobs of a run it planted."""
        ...

    def rerun_failed_jobs(self, request: Request, state: RepoState, run_id: str) -> Response:
        """The emulator's own re-run of a run it planted."""
        ...
