"""What every part of the GitHub adapter shares: its transport, its counters, and how a list is read.

``GitHubRest`` holds one ``Transport`` (``github_transport``) and reads JSON through it: one object
(``_get``) or a paged list, 100 a page, following ``Link`` headers (``_pages``); a body that is not
what the cockpit needs becomes a ``GitHubError`` saying what was being read (``_parsed``). The
client's reads and writes (``github.py``, ``github_ci.py``, ``github_writes.py``) build on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from cockpit.adapters import github_parse as parse
from cockpit.adapters.github_transport import Transport
from cockpit.domain.github import RateLimit
from cockpit.errors import GitHubError

T = TypeVar("T")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
_MAX_PAGES = 200  # a runaway Link chain must end


def repo_path(repo: str) -> str:
    """``/repos/owner/name`` for ``repo``; a name not of that form is refused before anything is sent."""
    if not _REPO.match(repo or ""):
        raise GitHubError(f"repository {repo!r} is not of the form 'owner/name'")
    return f"/repos/{repo}"


class GitHubRest:
    """One GitHub API URL, its token and its limits; thread-safe enough for the UI's workers."""

    def __init__(
        self,
        api_url: str,
        token: str | None,
        *,
        timeout: float = 15,
        retries: int = 3,
        max_rate_limit_wait: float = 30,
        read_only: bool = False,
    ) -> None:
        self._t = Transport(
            api_url,
            token,
            timeout=timeout,
            retries=retries,
            max_rate_limit_wait=max_rate_limit_wait,
            read_only=read_only,
        )
        self.read_only = read_only

    @property
    def request_count(self) -> int:
        """Requests actually sent (retries, redirects and 304s included; refused mutations excluded)."""
        return self._t.meter.sent

    def thread_request_counts(self) -> tuple[int, int]:
        """(sent, answered 304) by the calling thread so far: one load's cost while other loads run."""
        return self._t.meter.thread_counts()

    @property
    def rate_limit(self) -> RateLimit | None:
        """The budget the last response reported, or None before the first answer."""
        return self._t.meter.rate_limit

    def close(self) -> None:
        """Close the connection pool."""
        self._t.close()

    def _get(self, path: str, what: str, **params: Any) -> Any:
        return self._t.request("GET", path, what, params={k: v for k, v in params.items() if v is not None})[0]

    def _pages(
        self, path: str, what: str, *, wrap: str | None = None, limit: int | None = None, **params: Any
    ) -> list[Any]:
        """Every row of a paged list (100 a page), following ``rel="next"`` up to ``limit`` rows."""
        query: dict[str, Any] | None = {"per_page": 100, **{k: v for k, v in params.items() if v is not None}}
        rows: list[Any] = []
        url = path
        for _ in range(_MAX_PAGES):
            data, link = self._t.request("GET", url, what, params=query)
            rows.extend(self._parsed(partial(parse.list_of, data, what, wrap), what))
            if limit is not None and len(rows) >= limit:
                return rows[:limit]
            match = _NEXT.search(link or "")
            if not match:
                return rows
            url, query = match.group(1), None
        raise GitHubError(f"{what}: more than {_MAX_PAGES} pages; stopped following GitHub's Link header")

    @staticmethod
    def _parsed(fn: Callable[[], T], what: str) -> T:
        try:
            return fn()
        except parse.Malformed as exc:
            raise GitHubError(f"{what}: GitHub answered something unexpected ({exc})") from None
