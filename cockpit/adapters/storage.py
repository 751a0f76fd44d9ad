"""The storage adapter: read the wheel index (PEP 691 JSON or PEP 503 HTML, HEAD sizes, PEP 658
metadata files) and PyPI's JSON API.

The contract: every public method returns domain data or raises ``StorageError`` whose message
names the URL and what went wrong (connection refused, timeout, a status other than 200, a page
that is not HTML, a JSON body that is not PyPI's). No httpx exception escapes. File names, URLs,
versions and error text from the servers are made inert as they are read (``cockpit.domain.text``). Only GET and HEAD
requests are sent, so both clients are safe in a read-only session.

Refreshes are conditional, as the GitHub transport's are: each answer that carries an ``ETag`` or a
``Last-Modified`` is kept (per method, URL and ``Accept``), the next request for it sends
``If-None-Match`` / ``If-Modified-Since``, and a 304 is answered from what was kept. A refresh of
an unchanged index costs only 304s (no page is read or parsed again by the server).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import httpx

from cockpit.adapters.simple_index import (
    ACCEPT,
    HTML_TYPES,
    JSON_TYPE,
    parse_json_page,
    parse_metadata,
    parse_project_page,
)
from cockpit.adapters.tls import shared_context
from cockpit.domain.artifacts import PLAIN, IndexFile
from cockpit.domain.text import inert, inert_json_text
from cockpit.errors import ProjectNotFound, StorageError

_log = logging.getLogger("cockpit.storage")

HEAD_CONCURRENCY = 8
GIVE_UP_AFTER = 2
"""Unanswered requests (timeouts, refused connections) after which a batch stops asking: a dead index
then costs a couple of timeouts, not one per wheel (some 400 for a PyTorch RC)."""
VALIDATED_CACHE_SIZE = 4000
"""Answers kept for conditional requests; a PyTorch RC's index check reads some 400 URLs."""
USER_AGENT = "release-cockpit (storage check)"
__all__ = ["ProjectNotFound", "PyPIClient", "WheelIndex", "parse_project_page", "project_name"]


def project_name(name: str) -> str:
    """PEP 503 normal form of a project name: lowercase, runs of ``-_.`` become ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


class Unanswered(StorageError):
    """The server did not answer at all (a timeout, a refused connection), as opposed to answering badly."""


class _Client:
    """An httpx client whose failures come out as ``StorageError`` naming the URL."""

    what = "server"

    def __init__(self, base_url: str, *, timeout: float = 15) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self._http = httpx.Client(
            timeout=timeout,
            verify=shared_context(),
            follow_redirects=True,
            headers={"User-Agent": USER_AGENT},
            limits=httpx.Limits(max_connections=HEAD_CONCURRENCY),
        )
        self._validated: dict[tuple[str, str, str], httpx.Response] = {}
        self._validated_lock = threading.Lock()
        self.not_modified = 0
        """Requests answered 304 (from the kept answer) so far."""

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(
        self, method: str, url: str, *, ok: Iterable[int] = (200,), headers: dict[str, str] | None = None
    ) -> httpx.Response:
        key = (method, url, (headers or {}).get("Accept", ""))
        with self._validated_lock:
            kept = self._validated.get(key)
        sent = dict(headers or {})
        if kept is not None:
            if "etag" in kept.headers:
                sent["If-None-Match"] = kept.headers["etag"]
            if "last-modified" in kept.headers:
                sent["If-Modified-Since"] = kept.headers["last-modified"]
        response = self._send(method, url, sent)
        if response.status_code == 304 and kept is not None:
            with self._validated_lock:
                self.not_modified += 1
            return kept
        self._keep(key, response)
        if response.status_code not in tuple(ok):
            reason = inert(response.reason_phrase or "error")
            raise StorageError(f"{method} {url}: answered {response.status_code} {reason}; expected 200")
        return response

    def _keep(self, key: tuple[str, str, str], response: httpx.Response) -> None:
        """Keep a 200 that can be validated for the next request of ``key``; forget any other."""
        with self._validated_lock:
            self._validated.pop(key, None)
            if response.status_code == 200 and ("etag" in response.headers or "last-modified" in response.headers):
                self._validated[key] = response
                if len(self._validated) > VALIDATED_CACHE_SIZE:  # oldest first: dicts keep insertion order
                    del self._validated[next(iter(self._validated))]

    def _send(self, method: str, url: str, headers: dict[str, str]) -> httpx.Response:
        try:
            try:
                return self._http.request(method, url, headers=headers)
            except (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError):
                # A kept-alive connection the server (or the host) dropped between two requests: GET and HEAD
                # change nothing, so they are asked once more on a fresh connection, as browsers and urllib3 do.
                if method not in ("GET", "HEAD"):
                    raise
                _log.debug("%s %s: the connection dropped; asking once more", method, url)
                return self._http.request(method, url, headers=headers)
        except httpx.TimeoutException as exc:
            raise Unanswered(f"{method} {url}: no answer within {self.timeout:g} s ({type(exc).__name__})") from exc
        except httpx.ConnectError as exc:
            raise Unanswered(
                f"{method} {url}: cannot connect ({exc}); is the {self.what} up and the URL right?"
            ) from exc
        except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
            raise StorageError(f"{method} {url}: request failed ({type(exc).__name__}: {exc})") from exc


class WheelIndex(_Client):
    """A simple-repository wheel index laid out like PyTorch's: ``<base>/whl/[test/][<variant>/]<project>/``.

    Project pages are asked for as PEP 691 JSON and read as PEP 503 HTML when that is what the index
    serves (download.pytorch.org serves static HTML); both give the same ``IndexFile``s.
    """

    what = "wheel index"

    def project_url(self, package: str, *, channel: str = "test", variant: str = "") -> str:
        """The project page URL; channel ``"stable"`` (or ``""``) has no channel segment."""
        parts = [self.base_url, "whl"]
        if channel and channel != "stable":
            parts.append(quote(channel))
        if variant:
            parts.append(quote(variant))
        parts.append(quote(project_name(package)))
        return "/".join(parts) + "/"

    def project_files(self, package: str, *, channel: str = "test", variant: str = PLAIN) -> list[IndexFile]:
        """Every file of the project page (sizes not yet known), each marked with ``variant``.

        Asks for PEP 691 JSON and reads PEP 503 HTML when that is what comes back (content
        negotiation, PEP 691's ``Accept`` header). Raises ``ProjectNotFound`` on a 404 and
        ``StorageError`` on any other failure.
        """
        url = self.project_url(package, channel=channel, variant=variant)
        response = self._request("GET", url, ok=(200, 404), headers={"Accept": ACCEPT})
        if response.status_code == 404:
            raise ProjectNotFound(f"GET {url}: answered 404 Not Found; nothing of {inert(package)} is staged there")
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind and kind != JSON_TYPE and kind not in HTML_TYPES:
            raise StorageError(f"GET {url}: expected a PEP 691 JSON or PEP 503 HTML page, got {inert(kind)}")
        try:
            text = response.text
        except (UnicodeDecodeError, LookupError) as exc:
            raise StorageError(f"GET {url}: the page is not decodable text ({exc})") from exc
        parse = parse_json_page if kind == JSON_TYPE else parse_project_page
        return parse(text, str(response.url), variant=variant)

    def size_of(self, file: IndexFile) -> IndexFile:
        """``file`` with ``size`` from a HEAD's Content-Length. Raises ``StorageError`` when the HEAD fails.

        A HEAD that answers without a usable Content-Length leaves ``size`` None with ``size_error``
        saying so: a size nobody stated is unknown, never assumed fine.
        """
        response = self._request("HEAD", file.url)
        length = response.headers.get("content-length", "").strip()
        if length.isdigit():
            return replace(file, size=int(length), size_error="")
        said = f"Content-Length {length!r}" if length else "no Content-Length"
        return replace(file, size=None, size_error=f"HEAD {file.url} answered {response.status_code} with {said}")

    def with_sizes(self, files: Iterable[IndexFile]) -> list[IndexFile]:
        """HEAD every file, at most ``HEAD_CONCURRENCY`` at a time; order kept.

        A HEAD that fails (an error status, a timeout, a refused connection) does not stop the others:
        that file comes back with ``size`` None and the failure in ``size_error``, so the RC check
        reports its size as unknown, with the reason, and still judges every other file. Once
        ``GIVE_UP_AFTER`` HEADs got no answer at all, the files not yet asked about are not asked:
        their ``size_error`` says so and why.
        """
        return self._each(self.size_of, files, "head", lambda f, why: replace(f, size=None, size_error=why))

    def metadata_of(self, file: IndexFile) -> IndexFile:
        """``file`` with the Name and Version of its PEP 658 metadata file, when the page says one is
        served; a metadata file that does not match its stated digest or cannot be parsed leaves
        ``metadata_error`` saying why, one that could not be fetched ``metadata_unread`` (never raises)."""
        try:
            return self._metadata(file)
        except StorageError as exc:  # the request failed: nothing is known about the metadata
            return replace(file, metadata_name=None, metadata_version=None, metadata_unread=str(exc))

    def with_metadata(self, files: Iterable[IndexFile]) -> list[IndexFile]:
        """Read the metadata file of every file that has one, ``HEAD_CONCURRENCY`` at a time; order kept.
        Stops asking, as ``with_sizes`` does, once ``GIVE_UP_AFTER`` requests got no answer."""
        return self._each(
            self._metadata,
            files,
            "metadata",
            lambda f, why: replace(f, metadata_name=None, metadata_version=None, metadata_unread=why),
        )

    def _metadata(self, file: IndexFile) -> IndexFile:
        """``metadata_of``, raising ``StorageError`` when the request itself fails."""
        if not file.has_metadata or file.yanked:
            return file
        response = self._request("GET", file.metadata_url)
        name, version, error = parse_metadata(response.content, file)
        return replace(file, metadata_name=name, metadata_version=version, metadata_error=error)

    def _each(
        self,
        read: Callable[[IndexFile], IndexFile],
        files: Iterable[IndexFile],
        name: str,
        failed: Callable[[IndexFile, str], IndexFile],
    ) -> list[IndexFile]:
        """``read`` every file, ``HEAD_CONCURRENCY`` at a time, order kept; a failure becomes
        ``failed(file, reason)``. After ``GIVE_UP_AFTER`` unanswered requests the rest are not sent."""
        files = list(files)
        if not files:
            return []
        unanswered: list[str] = []
        lock = threading.Lock()

        def one(file: IndexFile) -> IndexFile:
            with lock:
                if len(unanswered) >= GIVE_UP_AFTER:
                    return failed(file, f"not asked: the {self.what} stopped answering ({unanswered[0]})")
            try:
                return read(file)
            except Unanswered as exc:
                with lock:
                    unanswered.append(exc.message)
                return failed(file, str(exc))
            except StorageError as exc:
                return failed(file, str(exc))

        with ThreadPoolExecutor(max_workers=min(HEAD_CONCURRENCY, len(files)), thread_name_prefix=name) as pool:
            return list(pool.map(one, files))


class PyPIClient(_Client):
    """PyPI's JSON API (``<base>/pypi/<project>/json``): which versions and files are published."""

    what = "PyPI server"

    def versions(self, package: str) -> list[str]:
        """Published versions in the order PyPI lists them; ``[]`` when PyPI does not know the project."""
        url = f"{self.base_url}/pypi/{quote(project_name(package))}/json"
        data = self._json(url)
        if data is None:
            return []
        releases = data.get("releases")
        if not isinstance(releases, dict) or not all(isinstance(v, str) for v in releases):
            raise StorageError(f'GET {url}: expected a "releases" object keyed by version')
        return list(releases)

    def release_files(self, package: str, version: str) -> list[str] | None:
        """Filenames published for ``version``; None when that version is not on PyPI."""
        url = f"{self.base_url}/pypi/{quote(project_name(package))}/{quote(version)}/json"
        data = self._json(url)
        if data is None:
            return None
        urls = data.get("urls")
        if not isinstance(urls, list):
            raise StorageError(f'GET {url}: expected a "urls" list of files')
        names = []
        for entry in urls:
            if not isinstance(entry, dict) or not isinstance(entry.get("filename"), str):
                raise StorageError(f'GET {url}: a file entry has no "filename" string')
            names.append(entry["filename"])
        return names

    def _json(self, url: str) -> dict[str, Any] | None:
        response = self._request("GET", url, ok=(200, 404))
        if response.status_code == 404:
            return None
        try:
            data = inert_json_text(response.text)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise StorageError(f"GET {url}: the body is not valid JSON ({inert(str(exc))})") from exc
        if not isinstance(data, dict):
            raise StorageError(f"GET {url}: expected a JSON object, got {type(data).__name__}")
        return data
