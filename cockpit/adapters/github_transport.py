"""How the GitHub adapter talks HTTP: JSON requests to GitHub's documented REST API through httpx.

- The door: every request goes through the one client of ``github_http`` (read-only refusal,
  counting, the rate-limit budget of the last answer).
- Retries, for an interactive terminal app: a few quick retries of 5xx and of a lost connection,
  never a retry of POST that may have reached GitHub (a comment must not be posted twice); a rate
  limit is waited out only when GitHub asks for no longer than ``max_rate_limit_wait``, else it is
  ``RateLimited`` at once (GitHub's reset can be an hour away); no throttling between requests.
- Conditional requests: GETs carry ``If-None-Match`` from a local ETag cache; a 304 answers from
  the cache and costs no rate-limit unit.
- Outside text: every string of a decoded answer (and of an error body) is made inert here, once
  (``cockpit.domain.text``): no title, body, job name or error message can reach a screen raw.
- Redirects: a moved repository or a transferred issue answers 301 (or 307/308) within the same
  API; it is followed here, query kept (GitHub's ``Location`` may leave it out, and a milestone
  filter lost would turn into every issue of the repository), never to another host.
- The token appears in no message: errors are rebuilt from status and GitHub's message, then scrubbed.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

import httpx

from cockpit import logging_setup
from cockpit.adapters import github_errors as errors
from cockpit.adapters.github_http import SAFE_METHODS, Meter, close_quietly, open_client
from cockpit.domain.text import inert, inert_json_text
from cockpit.errors import CockpitError, GitHubError, RateLimited, ReadOnlyError

_ETAG_CACHE_SIZE = 4000
_MAX_REDIRECTS = 3
_UNRETRIED = frozenset({"POST"})  # not idempotent: once it may have reached GitHub, it is not sent again
_BACKOFF_FACTOR, _BACKOFF_MAX = 0.25, 4.0
_UNKNOWN_RESET_WAIT = 60.0  # GitHub's advice when it says neither retry-after nor the reset time
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)  # safe to send again, any method
_log = logging.getLogger("cockpit.github")


@dataclass
class _Cached:
    etag: str
    data: Any
    link: str


def _backoff(retry: int) -> float:
    """Seconds before retry number ``retry`` (1, 2, ...): none before the first, then doubling."""
    return 0.0 if retry <= 1 else min(_BACKOFF_MAX, _BACKOFF_FACTOR * 2 ** (retry - 1))


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def _message_of(response: httpx.Response) -> str:
    try:
        return errors.github_message(json.loads(response.content))
    except (ValueError, RecursionError):
        return ""


class Transport:
    """Raw JSON requests to one GitHub API (see the module docstring)."""

    def __init__(
        self,
        api_url: str,
        token: str | None,
        *,
        timeout: float,
        retries: int,
        max_rate_limit_wait: float,
        read_only: bool,
    ) -> None:
        parts = urlsplit(api_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GitHubError(f"cannot use the API URL {api_url!r}: expected http(s)://host[:port][/path]")
        self.api_url = api_url.rstrip("/")
        self.timeout, self.retries, self.max_wait = timeout, max(0, retries), max_rate_limit_wait
        self.read_only = read_only
        self._secrets = tuple(s for s in (token,) if s)
        logging_setup.add_secret(token)
        self.meter = Meter()
        self.http = open_client(token=token, timeout=timeout, read_only=read_only, meter=self.meter)
        """The one client every request goes through (``github_http``: the read-only door)."""
        self._etags: dict[str, _Cached] = {}
        self._etag_lock = threading.Lock()

    def scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

    def _scrubbed(self, error: CockpitError, message: str) -> CockpitError:
        error.message = self.scrub(message)
        error.args = (error.message,)
        return error

    def request(
        self,
        verb: str,
        url: str,
        what: str,
        *,
        params: dict[str, Any] | None = None,
        body: Any = None,
        fresh: bool = False,
    ) -> tuple[Any, str]:
        """Send one request; return (parsed JSON or None, the Link header). Raises CockpitError only.

        ``url`` is a path under the API URL or a URL GitHub gave (a ``Link``). ``fresh``: a GET sent
        without ``If-None-Match`` (a check just before a write must see the answer itself, not a
        cached copy a weak ETag vouched for)."""
        if url.startswith("http") and not url.startswith(self.api_url + "/"):
            raise GitHubError(f"{what}: GitHub pointed to {urlsplit(url).netloc}, outside {self.api_url}; not followed")
        key = f"{url}?{sorted((params or {}).items())}"
        cached = self._etags.get(key) if verb == "GET" and not fresh else None
        headers = {"If-None-Match": cached.etag} if cached else {}
        try:
            response = self._send(verb, self._absolute(url, params), headers, body, what)
        except ReadOnlyError:
            _log.info("%s %s refused: read-only", verb, url)
            raise ReadOnlyError(f"this session is read-only: refused to {what}") from None
        except CockpitError as exc:  # a redirect elsewhere, a rate limit longer than the wait
            _log.info("%s %s refused: %s", verb, url, exc)
            message = exc.message if isinstance(exc, RateLimited) else f"{what}: {exc.message}"
            raise self._scrubbed(exc, message) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # every library error becomes ours, with no token in it
            _log.info("%s %s failed: %s", verb, url, type(exc).__name__)
            error = errors.network_error(exc, what, api_url=self.api_url, timeout=self.timeout)
            raise self._scrubbed(error, error.message) from None
        status = response.status_code
        _log.debug("%s %s -> %s", verb, url, status)
        if status == 304 and cached:
            self.meter.count_not_modified()
            return cached.data, cached.link
        return self._decoded(verb, key, response, what)

    def _decoded(self, verb: str, key: str, response: httpx.Response, what: str) -> tuple[Any, str]:
        status, text = response.status_code, response.text
        try:
            data = inert_json_text(text) if text.strip() else None
        except (ValueError, RecursionError):  # nested past what can be read is not JSON to us either
            data = ...
        if status >= 300:
            detail = data if isinstance(data, dict) else {"message": inert(text[:200])}
            error = errors.status_error(
                status, response.headers, detail, what, retries=self.retries, max_wait=self.max_wait
            )
            raise self._scrubbed(error, error.message) from None
        if data is ...:
            raise GitHubError(
                self.scrub(f"{what}: GitHub answered {status} with a body that is not valid JSON ({text[:60]!r}...)")
            )
        link = response.headers.get("link", "")
        etag = response.headers.get("etag")
        if verb == "GET" and etag:
            with self._etag_lock:
                self._etags.pop(key, None)
                self._etags[key] = _Cached(etag, data, link)
                if len(self._etags) > _ETAG_CACHE_SIZE:  # oldest first: dicts keep insertion order
                    del self._etags[next(iter(self._etags))]
        return data, link

    def _absolute(self, url: str, params: dict[str, Any] | None) -> str:
        """The URL to send: a path goes under the API URL; parameters sorted (stable URLs and keys)."""
        absolute = self.api_url + url if url.startswith("/") else url
        if not params:
            return absolute
        pairs = sorted((k, str(v).lower() if isinstance(v, bool) else v) for k, v in params.items())
        return f"{absolute}{'&' if '?' in absolute else '?'}{urlencode(pairs)}"

    def _send(self, verb: str, url: str, headers: dict[str, str], body: Any, what: str) -> httpx.Response:
        """Send through the door, following GitHub's redirects and retrying what may be retried."""
        retry, read_retried, redirects = 0, False, 0
        while True:
            try:
                response = self.http.request(verb, url, headers=headers, json=body)
            except _NOT_SENT:
                retry += 1
                if retry > self.retries:
                    raise
                time.sleep(_backoff(retry))
                continue
            except httpx.TransportError:  # sent, and the answer was lost: GitHub may have acted on it
                retry += 1
                if retry > self.retries or read_retried or verb in _UNRETRIED:
                    raise
                read_retried = True
                time.sleep(_backoff(retry))
                continue
            moved = self._moved_to(url, response, verb)
            if moved is not None and redirects < _MAX_REDIRECTS:
                redirects, url = redirects + 1, moved
                continue
            retry += 1
            wait = self._wait_before(retry, verb, response, what)
            if wait is None:
                return response
            _log.info("%s %s answered %s; retry %d in %.1f s", verb, url, response.status_code, retry, wait)
            time.sleep(wait)

    def _wait_before(self, retry: int, verb: str, response: httpx.Response, what: str) -> float | None:
        """Seconds to wait before sending again, or None to keep this answer.

        Raises ``RateLimited`` when GitHub asks for a longer wait than this session allows."""
        if verb in _UNRETRIED or retry > self.retries:
            return None
        status, headers = response.status_code, response.headers
        retry_after = _seconds(headers.get("retry-after"))
        kind = errors.rate_limit_kind(status, headers, _message_of(response)) if status in (403, 429) else None
        if kind == "primary" and retry_after is None:
            reset = _seconds(headers.get("x-ratelimit-reset"))
            wait = reset - time.time() + 1 if reset else _UNKNOWN_RESET_WAIT  # +1: the reset's second is not exact
        elif kind is not None:
            wait = retry_after if retry_after is not None else _UNKNOWN_RESET_WAIT
        elif 500 <= status <= 599:
            wait = retry_after if retry_after is not None else 0.0
        else:
            return None
        if wait > self.max_wait:
            raise errors.rate_limited(what, headers, self.max_wait, wait)
        return max(wait, _backoff(retry))

    @staticmethod
    def _moved_to(url: str, response: httpx.Response, verb: str) -> str | None:
        """Where a redirect points, when it is one to follow (same API; writes only on 307/308)."""
        status, location = response.status_code, response.headers.get("location")
        if status not in (301, 302, 307, 308) or not location:
            return None
        if status in (301, 302) and verb not in SAFE_METHODS:
            return None
        here, there = urlsplit(url), urlsplit(urljoin(url, location))
        if (there.scheme, there.netloc) != (here.scheme, here.netloc):
            raise GitHubError(f"GitHub moved {here.path} to another host ({there.netloc}); not followed")
        query = there.query or here.query  # GitHub's Location may leave the query out
        return urlunsplit((there.scheme, there.netloc, there.path, query, there.fragment))

    def close(self) -> None:
        close_quietly(self.http)
