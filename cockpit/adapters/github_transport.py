"""How the GitHub adapter talks HTTP: PyGithub's Requester, tamed for an interactive terminal app.

- Retries: ``GithubRetry`` with a few quick retries of 5xx, no retry of POST (a comment must not be
  posted twice), and never a wait longer than ``max_rate_limit_wait`` (PyGithub would otherwise
  sleep until the rate limit resets, up to an hour); no throttling between requests.
- Read-only: the requests adapter under PyGithub refuses any method but GET/HEAD before a byte
  is sent, so no code path (ours or PyGithub's) can bypass it.
- Counting and rate limits: every attempt sent (retries and 304s included) is counted at the same
  layer, and the rate-limit headers of the last response are kept.
- Conditional requests: GETs carry ``If-None-Match`` from a local ETag cache; a 304 answers from
  the cache and costs no rate-limit unit.
- Outside text: every string of a decoded answer (and of an error body) is made inert here, once
  (``cockpit.domain.text``): no title, body, job name or error message can reach a screen raw.
- Redirects: a moved repository or a transferred issue answers 301 (or 307/308) within the same
  API; it is followed here, query kept (PyGithub would drop the query: a milestone filter lost
  turns into every issue of the repository), never to another host.
- Logging: PyGithub's stderr handler and urllib3's warnings are silenced (they would draw over the
  TUI). The token appears in no message: errors are rebuilt from status and GitHub's message.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from github import Auth, Github, GithubRetry
from github.GithubException import RateLimitExceededExceedsMaxWait
from github.Requester import Requester
from requests.adapters import HTTPAdapter

from cockpit import logging_setup
from cockpit.adapters.github_errors import translate
from cockpit.domain.github import RateLimit
from cockpit.domain.text import inert, inert_json
from cockpit.errors import CockpitError, GitHubError, ReadOnlyError

SAFE_METHODS = frozenset({"GET", "HEAD"})
_ETAG_CACHE_SIZE = 4000
_RETRIED_METHODS = frozenset({"GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"})
_MAX_REDIRECTS = 3
_log = logging.getLogger("cockpit.github")


def silence_library_logs() -> None:
    """Remove PyGithub's stderr handler and keep ``github``/``urllib3`` records off the screen.

    Their records reach the root logger only while a ``--debug`` log is open (a redacting file).
    """
    for name in ("github", "urllib3"):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            if isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler):
                logger.removeHandler(handler)
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())
        logger.propagate = logging_setup.debug_enabled()


class _Meter:
    """What was sent, and the budget the last response reported; shared by adapter and retry."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent = 0
        self.rate_limit: RateLimit | None = None
        self.mine = threading.local()  # per thread: what one pane's load cost while others run

    def count(self, not_modified: bool = False) -> None:
        if not_modified:  # an answered request already counted when sent
            self.mine.not_modified = getattr(self.mine, "not_modified", 0) + 1
            return
        with self.lock:
            self.sent += 1
        self.mine.sent = getattr(self.mine, "sent", 0) + 1

    def observe(self, headers: Any) -> None:
        try:
            limit = int(float(headers["X-RateLimit-Limit"]))
            remaining = int(float(headers["X-RateLimit-Remaining"]))
            reset = float(headers.get("X-RateLimit-Reset") or 0)
        except (KeyError, TypeError, ValueError):
            return
        with self.lock:
            self.rate_limit = RateLimit(limit=limit, remaining=remaining, reset_at=reset)


class _CockpitRetry(GithubRetry):
    """``GithubRetry`` that counts each extra attempt and refuses a ``Retry-After`` beyond the cap."""

    meter: _Meter | None = None

    def new(self, **kw: Any) -> _CockpitRetry:
        retry = super().new(**kw)
        retry.meter = self.meter
        return retry

    def sleep_for_retry(self, response: Any) -> bool:
        wait = self.get_retry_after(response)
        if wait and self.max_rate_limit_wait is not None and wait > self.max_rate_limit_wait:
            raise RateLimitExceededExceedsMaxWait(response.status, None, dict(response.headers), wait=wait)
        return super().sleep_for_retry(response)

    def sleep(self, response: Any = None) -> None:
        super().sleep(response)
        if self.meter is not None:
            self.meter.count()  # urllib3 sleeps once before each extra attempt


class _GuardedAdapter(HTTPAdapter):
    """The requests adapter under PyGithub: refuses writes when read-only, counts, watches limits,
    follows GitHub's redirects within the same host."""

    def __init__(self, meter: _Meter, read_only: bool, **kwargs: Any) -> None:
        self.meter, self.read_only = meter, read_only
        super().__init__(**kwargs)

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        method = (request.method or "").upper()
        if self.read_only and method not in SAFE_METHODS:
            path = urlsplit(request.url or "").path
            raise ReadOnlyError(f"this session is read-only: refused to send {method} {path}")
        self.meter.count()
        response = super().send(request, *args, **kwargs)
        self.meter.observe(response.headers)
        for _ in range(_MAX_REDIRECTS):
            moved = self._moved_to(request, response, method)
            if moved is None:
                break
            response.close()
            request = request.copy()
            request.url = moved
            self.meter.count()
            response = super().send(request, *args, **kwargs)
            self.meter.observe(response.headers)
        return response

    @staticmethod
    def _moved_to(request: requests.PreparedRequest, response: requests.Response, method: str) -> str | None:
        """Where a redirect points, when it is one to follow (same API; writes only on 307/308)."""
        status, location = response.status_code, response.headers.get("location")
        if status not in (301, 302, 307, 308) or not location:
            return None
        if status in (301, 302) and method not in SAFE_METHODS:
            return None
        here, there = urlsplit(request.url or ""), urlsplit(urljoin(request.url or "", location))
        if (there.scheme, there.netloc) != (here.scheme, here.netloc):
            raise GitHubError(f"GitHub moved {here.path} to another host ({there.netloc}); not followed")
        query = there.query or here.query  # GitHub's Location may leave the query out
        return there._replace(query=query).geturl()


@dataclass
class _Cached:
    etag: str
    data: Any
    link: str


class Transport:
    """Raw JSON requests to one GitHub API through PyGithub's Requester (see the module docstring)."""

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
        silence_library_logs()
        parts = urlsplit(api_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GitHubError(f"cannot use the API URL {api_url!r}: expected http(s)://host[:port][/path]")
        self.api_url = api_url.rstrip("/")
        self.timeout, self.retries, self.max_wait = timeout, retries, max_rate_limit_wait
        self.read_only = read_only
        self._secrets = tuple(s for s in (token,) if s)
        logging_setup.add_secret(token)
        self.meter = _Meter()
        retry = _CockpitRetry(
            total=retries,
            read=min(retries, 1),
            backoff_factor=0.25,
            backoff_max=4,
            max_rate_limit_wait=max_rate_limit_wait,
            raise_on_status=False,
            allowed_methods=_RETRIED_METHODS,
        )
        retry.meter = self.meter
        self._retry = retry
        try:
            self._github = Github(
                base_url=self.api_url,
                auth=Auth.Token(token) if token else None,
                timeout=max(1, math.ceil(timeout)),
                retry=retry,
                per_page=100,
                seconds_between_requests=None,
                seconds_between_writes=None,
            )
        except Exception as exc:  # PyGithub asserts on a URL it cannot use
            raise GitHubError(
                f"cannot use the API URL {api_url!r}: expected http(s)://host[:port][/path] ({type(exc).__name__})"
            ) from None
        self.requester: Requester = self._github.requester
        self._guard_connections()
        self._etags: dict[str, _Cached] = {}
        self._etag_lock = threading.Lock()

    def _guard_connections(self) -> None:
        """Mount the guarded adapter on every connection PyGithub makes (fail closed if it changed)."""
        names = ("_Requester__createConnection", "_Requester__customConnection")
        if not all(callable(getattr(self.requester, n, None)) for n in names):
            raise GitHubError("this PyGithub version hides its connections; the read-only guard cannot be installed")
        for name in names:
            original = getattr(self.requester, name)

            def guarded(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                cnx = _original(*args, **kwargs)
                if cnx is not None:
                    cnx.timeout = self.timeout  # PyGithub insists on whole seconds, and none for custom hosts
                session = getattr(cnx, "session", None)
                if session is not None and not isinstance(session.get_adapter("http://x"), _GuardedAdapter):
                    for prefix in ("http://", "https://"):
                        session.mount(prefix, _GuardedAdapter(self.meter, self.read_only, max_retries=self._retry))
                return cnx

            setattr(self.requester, name, guarded)

    def scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text

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

        ``fresh``: a GET sent without ``If-None-Match`` (a check just before a write must see the
        answer itself, not a cached copy a weak ETag vouched for)."""
        if self.read_only and verb not in SAFE_METHODS:
            raise ReadOnlyError(f"this session is read-only: refused to {what}")
        if url.startswith("http") and not url.startswith(self.api_url + "/"):
            raise GitHubError(f"{what}: GitHub pointed to {urlsplit(url).netloc}, outside {self.api_url}; not followed")
        key = f"{url}?{sorted((params or {}).items())}"
        cached = self._etags.get(key) if verb == "GET" and not fresh else None
        headers = {"Accept": "application/vnd.github+json"}
        if cached:
            headers["If-None-Match"] = cached.etag
        try:
            status, resp_headers, text = self.requester.requestJson(verb, url, params, headers, body)
        except CockpitError as exc:
            _log.info("%s %s refused: %s", verb, url, exc)
            message = exc.message if isinstance(exc, ReadOnlyError) else f"{what}: {exc.message}"
            raise type(exc)(self.scrub(message)) from None
        except Exception as exc:  # every library error becomes ours, with no token in it
            _log.info("%s %s failed: %s", verb, url, type(exc).__name__)
            raise translate(exc, what, self) from None
        _log.debug("%s %s -> %s", verb, url, status)
        if status == 304 and cached:
            self.meter.count(not_modified=True)
            return cached.data, cached.link
        try:
            data = inert_json(json.loads(text)) if text.strip() else None
        except (ValueError, RecursionError):  # nested past what can be read is not JSON to us either
            data = ...
        if status >= 400:
            detail = data if isinstance(data, dict) else {"message": inert((text or "")[:200])}
            raise translate(Requester.createException(status, resp_headers, detail), what, self) from None
        if data is ...:
            raise GitHubError(
                self.scrub(f"{what}: GitHub answered {status} with a body that is not valid JSON ({text[:60]!r}...)")
            )
        link = resp_headers.get("link", "")
        etag = resp_headers.get("etag")
        if verb == "GET" and etag:
            with self._etag_lock:
                self._etags.pop(key, None)
                self._etags[key] = _Cached(etag, data, link)
                if len(self._etags) > _ETAG_CACHE_SIZE:  # oldest first: dicts keep insertion order
                    del self._etags[next(iter(self._etags))]
        return data, link

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._github.close()
