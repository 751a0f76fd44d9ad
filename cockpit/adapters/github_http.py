"""The one HTTP client the GitHub adapter sends through, and the door every request passes.

``open_client`` builds an ``httpx.Client`` whose request hook (httpx's public ``event_hooks``,
called before each single send, whatever transport or proxy the client then picks) is the one
place where:

- a read-only session refuses any method but GET/HEAD before a byte is sent (``ReadOnlyError``);
  nothing in the adapter can send around it, since every request goes through this client;
- every attempt sent is counted (retries, redirects and 304s included; refused ones not);

and whose response hook keeps the rate-limit headers of the last answer (``Meter``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from urllib.parse import urlsplit

import httpx

from cockpit import logging_setup
from cockpit.adapters.tls import shared_context
from cockpit.domain.github import RateLimit
from cockpit.errors import ReadOnlyError

SAFE_METHODS = frozenset({"GET", "HEAD"})
"""The only methods a read-only session sends."""
USER_AGENT = "release-cockpit"


class Meter:
    """What was sent, and the budget the last answer reported; per thread too (one pane's load
    while other loads run)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.sent = 0
        self.rate_limit: RateLimit | None = None
        self._mine = threading.local()

    def count_sent(self) -> None:
        """One more request left the process."""
        with self._lock:
            self.sent += 1
        self._mine.sent = getattr(self._mine, "sent", 0) + 1

    def count_not_modified(self) -> None:
        """One more request (already counted as sent) was answered 304 from the ETag cache."""
        self._mine.not_modified = getattr(self._mine, "not_modified", 0) + 1

    def thread_counts(self) -> tuple[int, int]:
        """(sent, answered 304) by the calling thread so far."""
        return getattr(self._mine, "sent", 0), getattr(self._mine, "not_modified", 0)

    def observe(self, response: httpx.Response) -> None:
        """Keep the ``X-RateLimit-*`` budget of an answer that has one."""
        headers = response.headers
        try:
            limit = int(float(headers["X-RateLimit-Limit"]))
            remaining = int(float(headers["X-RateLimit-Remaining"]))
            reset = float(headers.get("X-RateLimit-Reset") or 0)
        except (KeyError, TypeError, ValueError):
            return
        with self._lock:
            self.rate_limit = RateLimit(limit=limit, remaining=remaining, reset_at=reset)


def quiet_library_logs() -> None:
    """Keep ``httpx``/``httpcore`` records off the screen (they would draw over the TUI).

    Their records reach the root logger only while a ``--debug`` log is open (a redacting file).
    """
    for name in ("httpx", "httpcore"):
        logger = logging.getLogger(name)
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())
        # httpcore's trace of each connection says nothing the transport's own debug lines do not
        logger.propagate = name == "httpx" and logging_setup.debug_enabled()


def open_client(
    *,
    token: str | None,
    timeout: float,
    read_only: bool,
    meter: Meter,
    transport: httpx.BaseTransport | None = None,
) -> httpx.Client:
    """The client for one GitHub API: its token, timeout, and the door (see the module docstring).

    Redirects are not followed by httpx: the transport follows GitHub's own, within its host.
    ``transport``: an httpx transport for tests (``httpx.MockTransport``); None for the network.
    """

    def door(request: httpx.Request) -> None:
        method = request.method.upper()
        if read_only and method not in SAFE_METHODS:
            raise ReadOnlyError(
                f"this session is read-only: refused to send {method} {urlsplit(str(request.url)).path}"
            )
        meter.count_sent()

    quiet_library_logs()
    headers = {"User-Agent": USER_AGENT, "Accept": "application/vnd.github+json"}
    if token:
        headers["Authorization"] = f"token {token}"
    return httpx.Client(
        headers=headers,
        verify=shared_context(),
        timeout=httpx.Timeout(timeout),
        follow_redirects=False,
        event_hooks={"request": [door], "response": [meter.observe]},
        transport=transport,
    )


def close_quietly(client: httpx.Client) -> None:
    """Close the connection pool; a failure to close is nobody's concern."""
    with contextlib.suppress(Exception):
        client.close()
