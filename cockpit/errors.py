"""The project's error hierarchy: every error has a short title and a message a person can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cockpit.domain.staging import StagingTrouble


class CockpitError(Exception):
    """Base of every error the cockpit raises on purpose.

    ``title`` names the area ("Config", "GitHub", "Git"), ``message`` says what was wrong and what
    was expected. ``str(err)`` is the one line shown to a user.
    """

    title = "Cockpit"

    def __init__(self, message: str, *, title: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if title is not None:
            self.title = title

    def __str__(self) -> str:
        return f"{self.title}: {self.message}"


class ConfigError(CockpitError):
    """The config file is missing, unreadable, or a key is missing or of the wrong type."""

    title = "Config"


class StateError(CockpitError):
    """The session state file cannot be read or written."""

    title = "State"


class GitError(CockpitError):
    """A git command failed, a ref is missing, or the path is not a usable clone."""

    title = "Git"


class GitHubError(CockpitError):
    """The GitHub API failed, refused, or answered something unexpected."""

    title = "GitHub"


class GitHubUnanswered(GitHubError):
    """GitHub did not answer at all (a timeout, an unreachable host), as opposed to answering with an error:
    a loader asking many things stops asking after the first such failure and says so for the rest."""


class RateLimited(GitHubError):
    """GitHub's (primary or secondary) rate limit is exhausted until ``reset_at`` (epoch seconds)."""

    def __init__(self, message: str, *, reset_at: float | None = None) -> None:
        super().__init__(message)
        self.reset_at = reset_at


class StorageError(CockpitError):
    """The wheel index or PyPI could not be read."""

    title = "Storage"


class StagingUnreadable(StorageError):
    """The S3 staging prefix could not be read; ``trouble`` says why (no boto3, no credentials, 403, ...)."""

    title = "Staging"

    def __init__(self, message: str, trouble: StagingTrouble) -> None:
        super().__init__(message)
        self.trouble = trouble


class ProjectNotFound(StorageError):
    """The index answered 404 for a project page: nothing of that project is staged there."""


class ReadOnlyError(CockpitError):
    """Something tried to change the world in a read-only session."""

    title = "Read-only"


class ActionRefused(CockpitError):
    """An action was refused (read-only, not applicable, already done); the message says why."""

    title = "Refused"
