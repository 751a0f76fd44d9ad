"""PyGithub and requests exceptions turned into ``GitHubError``/``RateLimited`` a person can act on.

Messages are rebuilt from the status, what was asked and GitHub's own ``message``; nothing is
copied from the library's text wholesale, and the token is scrubbed from whatever is left.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import requests
import urllib3
from github.GithubException import (
    BadCredentialsException,
    GithubException,
    RateLimitExceededExceedsMaxWait,
    RateLimitExceededException,
)

from cockpit.errors import GitHubError, RateLimited

if TYPE_CHECKING:
    from cockpit.adapters.github_transport import Transport


def _github_message(data: Any) -> str:
    if isinstance(data, dict):
        message = str(data.get("message") or "").strip()
        errors = data.get("errors")
        if isinstance(errors, list):
            fields = [f"{e.get('field')} {e.get('code')}" for e in errors if isinstance(e, dict) and e.get("field")]
            if fields:
                message = f"{message} ({', '.join(fields)})" if message else ", ".join(fields)
        return message[:300]
    return ""


def _reset_at(headers: Any, wait: float | None) -> float | None:
    headers = {str(k).lower(): v for k, v in (headers or {}).items()}
    try:
        if headers.get("retry-after"):
            return time.time() + float(headers["retry-after"])
        if headers.get("x-ratelimit-reset"):
            return float(headers["x-ratelimit-reset"])
    except (TypeError, ValueError):
        pass
    return time.time() + wait if wait else None


def _rate_limited(what: str, headers: Any, wait: float | None, max_wait: float) -> RateLimited:
    reset = _reset_at(headers, wait)
    when = time.strftime("%H:%M:%S", time.localtime(reset)) if reset else "an unknown time"
    secs = f" (in {max(0, int(reset - time.time()))} s)" if reset else ""
    return RateLimited(
        f"{what}: GitHub's rate limit is exhausted until {when}{secs}, longer than this session waits "
        f"({max_wait:g} s). Try again then, or use a token with a larger budget.",
        reset_at=reset,
    )


def _from_github(exc: GithubException, what: str, t: Transport) -> GitHubError:
    status, message = exc.status, _github_message(exc.data)
    said = f": {message}" if message else ""
    if isinstance(exc, RateLimitExceededExceedsMaxWait):
        return _rate_limited(what, exc.headers, exc.wait, t.max_wait)
    if isinstance(exc, RateLimitExceededException) or status == 429:
        return _rate_limited(what, exc.headers, None, t.max_wait)
    if isinstance(exc, BadCredentialsException) or status == 401:
        return GitHubError(f"{what}: GitHub refused the token (401{said}). Set GH_TOKEN or run 'cockpit auth login'.")
    if status == 403:
        return GitHubError(f"{what}: forbidden (403{said}). The token may lack access to this repository.")
    if status == 404:
        return GitHubError(
            f"{what}: not found (404). Check the repository name and number, and that the token can see it."
        )
    if status == 410:
        return GitHubError(f"{what}: it was deleted on GitHub (410{said}).")
    if status in (301, 302, 307, 308):
        return GitHubError(f"{what}: GitHub moved it ({status}) somewhere this session does not follow.")
    if status == 422:
        return GitHubError(f"{what}: GitHub refused the request (422{said}).")
    if status >= 500:
        return GitHubError(f"{what}: GitHub failed ({status}{said}) after {t.retries} retries; try again in a minute.")
    return GitHubError(f"{what}: GitHub answered {status}{said}.")


def _timed_out(exc: BaseException) -> bool:
    """requests reports a read timeout that exhausted the retries as a ConnectionError."""
    reason = getattr(exc.args[0], "reason", None) if exc.args else None
    return isinstance(reason, (TimeoutError, urllib3.exceptions.TimeoutError))


def translate(exc: BaseException, what: str, t: Transport) -> GitHubError:
    """The project error for ``exc`` raised while doing ``what`` (e.g. "read issues of acme/x")."""
    if isinstance(exc, GithubException):
        error = _from_github(exc, what, t)
    elif isinstance(exc, requests.Timeout) or _timed_out(exc):
        error = GitHubError(
            f"{what}: GitHub did not answer within {t.timeout:g} s. Check the network or raise github.timeout_s."
        )
    elif isinstance(exc, requests.ConnectionError):
        error = GitHubError(f"{what}: cannot reach {t.api_url}. Check the network and github.api_url.")
    elif isinstance(exc, requests.RequestException):
        error = GitHubError(f"{what}: the request to {t.api_url} failed ({type(exc).__name__}).")
    elif isinstance(exc, ValueError):
        error = GitHubError(f"{what}: GitHub answered a body that is not valid JSON.")
    else:
        error = GitHubError(f"{what}: unexpected failure talking to {t.api_url} ({type(exc).__name__}).")
    error.message = t.scrub(error.message)
    error.args = (error.message,)
    error.status = exc.status if isinstance(exc, GithubException) else None  # type: ignore[attr-defined]
    return error
