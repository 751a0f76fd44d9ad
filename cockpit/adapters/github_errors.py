"""GitHub's answers and httpx's failures turned into ``GitHubError``/``RateLimited`` a person can act on.

Messages are rebuilt from the status, what was asked and GitHub's own ``message``; nothing is
copied from a library's text wholesale. The transport scrubs the token from whatever is left.
Rate limits are recognised the way GitHub documents them
(https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api): a 403 or 429
with ``x-ratelimit-remaining: 0`` (primary), a ``retry-after`` header, or the limit's message.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import httpx

from cockpit.errors import GitHubError, GitHubUnanswered, RateLimited


def github_message(data: Any) -> str:
    """GitHub's ``message`` of an error body, with the fields its ``errors`` list names."""
    if isinstance(data, dict):
        message = str(data.get("message") or "").strip()
        errors = data.get("errors")
        if isinstance(errors, list):
            fields = [f"{e.get('field')} {e.get('code')}" for e in errors if isinstance(e, dict) and e.get("field")]
            if fields:
                message = f"{message} ({', '.join(fields)})" if message else ", ".join(fields)
        return message[:300]
    return ""


def rate_limit_kind(status: int, headers: Mapping[str, str], message: str) -> str | None:
    """ "primary" or "secondary" when this answer is GitHub's rate limit, else None."""
    if status not in (403, 429):
        return None
    said = message.lower()
    if headers.get("x-ratelimit-remaining") == "0" or said.startswith("api rate limit exceeded"):
        return "primary"
    if "secondary rate limit" in said or "retry-after" in headers or status == 429:
        return "secondary"
    return None


def _reset_at(headers: Mapping[str, str], wait: float | None) -> float | None:
    try:
        if headers.get("retry-after"):
            return time.time() + float(headers["retry-after"])
        if headers.get("x-ratelimit-reset"):
            return float(headers["x-ratelimit-reset"])
    except (TypeError, ValueError):
        pass
    return time.time() + wait if wait else None


def rate_limited(what: str, headers: Mapping[str, str], max_wait: float, wait: float | None = None) -> RateLimited:
    """The budget is gone for longer than this session waits: say until when (``status`` None)."""
    reset = _reset_at(headers, wait)
    when = time.strftime("%H:%M:%S", time.localtime(reset)) if reset else "an unknown time"
    secs = f" (in {max(0, int(reset - time.time()))} s)" if reset else ""
    error = RateLimited(
        f"{what}: GitHub's rate limit is exhausted until {when}{secs}, longer than this session waits "
        f"({max_wait:g} s). Try again then, or use a token with a larger budget.",
        reset_at=reset,
    )
    error.status = None  # type: ignore[attr-defined]
    return error


def status_error(
    status: int, headers: Mapping[str, str], data: Any, what: str, *, retries: int, max_wait: float
) -> GitHubError:
    """The error for GitHub's answer ``status`` (with its decoded body ``data``) to ``what``."""
    message = github_message(data)
    said = f": {message}" if message else ""
    if rate_limit_kind(status, headers, message):
        return rate_limited(what, headers, max_wait)  # its status stays None: not a refusal of this request
    if status == 401:
        error = GitHubError(f"{what}: GitHub refused the token (401{said}). Set GH_TOKEN or run 'cockpit auth login'.")
    elif status == 403:
        error = GitHubError(f"{what}: forbidden (403{said}). The token may lack access to this repository.")
    elif status == 404:
        error = GitHubError(
            f"{what}: not found (404). Check the repository name and number, and that the token can see it."
        )
    elif status == 410:
        error = GitHubError(f"{what}: it was deleted on GitHub (410{said}).")
    elif status in (301, 302, 307, 308):
        error = GitHubError(f"{what}: GitHub moved it ({status}) somewhere this session does not follow.")
    elif status == 422:
        error = GitHubError(f"{what}: GitHub refused the request (422{said}).")
    elif status >= 500:
        error = GitHubError(f"{what}: GitHub failed ({status}{said}) after {retries} retries; try again in a minute.")
    else:
        error = GitHubError(f"{what}: GitHub answered {status}{said}.")
    error.status = status  # type: ignore[attr-defined]
    return error


def network_error(exc: httpx.HTTPError | httpx.InvalidURL, what: str, *, api_url: str, timeout: float) -> GitHubError:
    """The error for a request to ``api_url`` that got no answer (``exc`` from httpx)."""
    error: GitHubError
    if isinstance(exc, httpx.TimeoutException):
        error = GitHubUnanswered(
            f"{what}: GitHub did not answer within {timeout:g} s. Check the network or raise github.timeout_s."
        )
    elif isinstance(exc, httpx.NetworkError):
        error = GitHubUnanswered(f"{what}: cannot reach {api_url}. Check the network and github.api_url.")
    else:
        error = GitHubError(f"{what}: the request to {api_url} failed ({type(exc).__name__}).")
    error.status = None  # type: ignore[attr-defined]
    return error
