"""Project pages of a simple repository index, read as the PEPs say: PEP 503 HTML and PEP 691 JSON.

Both forms give the same ``IndexFile`` list: filename, URL (resolved against the page), sha256,
whether the file is yanked and why (PEP 592: ``data-yanked`` / JSON ``yanked``), and whether its
core metadata is served at ``<url>.metadata`` with which digest (PEP 658/714: ``data-core-metadata``,
falling back to ``data-dist-info-metadata``; JSON ``core-metadata`` / ``dist-info-metadata``).
A repository major version other than 1 (PEP 629 ``pypi:repository-version``, PEP 691
``meta.api-version``) is refused: its meaning is not known to this reader. Every string taken from
the page is made inert (``cockpit.domain.text``); any malformed page raises ``StorageError``.
"""

from __future__ import annotations

import hashlib
import json
import re
from email.parser import HeaderParser
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from cockpit.domain.artifacts import PLAIN, IndexFile
from cockpit.domain.text import inert
from cockpit.errors import StorageError

JSON_TYPE = "application/vnd.pypi.simple.v1+json"
HTML_TYPES = ("text/html", "application/vnd.pypi.simple.v1+html", "application/xhtml+xml")
ACCEPT = f"{JSON_TYPE}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
"""PEP 691's recommended header: JSON first, HTML as the fallback every PEP 503 index serves."""

_SHA256 = re.compile(r"^[0-9a-fA-F]{64}$")


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[dict[str, str | None]] = []
        self.tags = 0
        self.repository_version = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags += 1
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(values)
        elif tag == "meta" and values.get("name") == "pypi:repository-version":
            self.repository_version = values.get("content") or ""

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def parse_project_page(text: str, page_url: str, *, variant: str = PLAIN) -> list[IndexFile]:
    """The file links of a PEP 503 project page, hrefs resolved against ``page_url``.

    The filename is the href's last path segment, percent-decoded (``%2B`` -> ``+``); ``sha256``
    comes from a ``#sha256=<64 hex>`` fragment (other hashes are ignored); links that name no file
    (a trailing ``/``) are skipped. Raises ``StorageError`` when the text holds no HTML tag at all.
    """
    parser = _LinkParser()
    try:
        parser.feed(text)
        parser.close()
    except Exception as exc:  # html.parser raises assorted errors on hostile markup
        raise StorageError(f"{page_url}: the project page is not parseable HTML ({inert(str(exc))})") from exc
    if parser.tags == 0 and text.strip():
        raise StorageError(f"{page_url}: expected a PEP 503 HTML page, got text without any HTML tag")
    _check_major(parser.repository_version, page_url, "pypi:repository-version")
    files = []
    for attrs in parser.links:
        href = attrs.get("href") or ""
        try:
            url, fragment = urldefrag(urljoin(page_url, href.strip()))
            path = urlsplit(url).path
        except ValueError:
            continue  # an href no URL parser accepts (e.g. a broken IPv6 host) names no file
        filename = unquote(path.rsplit("/", 1)[-1])
        if not filename:
            continue
        algo, _, digest = fragment.partition("=")
        metadata = attrs.get("data-core-metadata", attrs.get("data-dist-info-metadata"))
        has_metadata, metadata_sha256 = _html_metadata(metadata)
        files.append(
            IndexFile(
                filename=inert(filename),
                url=inert(url),
                sha256=_sha256(algo, digest),
                variant=variant,
                yanked="data-yanked" in attrs,
                yanked_reason=inert(attrs.get("data-yanked") or ""),
                has_metadata=has_metadata,
                metadata_sha256=metadata_sha256,
            )
        )
    return files


def parse_json_page(text: str, page_url: str, *, variant: str = PLAIN) -> list[IndexFile]:
    """The files of a PEP 691 JSON project page; relative ``url``s are resolved against ``page_url``.

    Raises ``StorageError`` naming the page and the field when the document is not PEP 691's shape.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise StorageError(f"{page_url}: the PEP 691 page is not valid JSON ({inert(str(exc))})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("meta"), dict):
        raise StorageError(f'{page_url}: expected a PEP 691 object with "meta", "name" and "files"')
    _check_major(str(data["meta"].get("api-version", "")), page_url, "meta.api-version", required=True)
    entries = data.get("files")
    if not isinstance(entries, list):
        raise StorageError(f'{page_url}: expected a "files" list in the PEP 691 page')
    return [_json_file(entry, i, page_url, variant) for i, entry in enumerate(entries)]


def _json_file(entry: Any, i: int, page_url: str, variant: str) -> IndexFile:
    where = f"{page_url}: files[{i}]"
    if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("filename", "url")):
        raise StorageError(f'{where}: expected an object with "filename" and "url" strings')
    hashes = entry.get("hashes", {})
    if not isinstance(hashes, dict):
        raise StorageError(f'{where}: expected "hashes" to be an object of hash name to hex digest')
    yanked = entry.get("yanked", False)
    if not isinstance(yanked, (bool, str)):
        raise StorageError(f'{where}: expected "yanked" to be true, false or a reason string')
    metadata = entry.get("core-metadata", entry.get("dist-info-metadata", False))
    if not isinstance(metadata, (bool, dict)):
        raise StorageError(f'{where}: expected "core-metadata" to be a boolean or an object of hashes')
    try:
        url = urldefrag(urljoin(page_url, entry["url"].strip()))[0]
    except ValueError as exc:
        raise StorageError(f"{where}: the url is not a URL ({inert(str(exc))})") from exc
    return IndexFile(
        filename=inert(entry["filename"]),
        url=inert(url),
        sha256=_sha256("sha256", hashes.get("sha256")),
        variant=variant,
        yanked=yanked is not False,
        yanked_reason=inert(yanked) if isinstance(yanked, str) else "",
        has_metadata=metadata is not False,
        metadata_sha256=_sha256("sha256", metadata.get("sha256")) if isinstance(metadata, dict) else None,
    )


def parse_metadata(body: bytes, file: IndexFile) -> tuple[str | None, str | None, str]:
    """``(Name, Version, error)`` of a core metadata file; checks the digest the page stated."""
    if file.metadata_sha256 and hashlib.sha256(body).hexdigest() != file.metadata_sha256:
        return None, None, f"{file.metadata_url}: its sha256 is not the {file.metadata_sha256[:12]}... the page states"
    try:
        headers = HeaderParser().parsestr(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return None, None, f"{file.metadata_url}: not readable as core metadata ({inert(str(exc))})"
    name, version = headers.get("Name"), headers.get("Version")
    if not version:
        return None, None, f"{file.metadata_url}: has no Version: field"
    return (inert(str(name).strip()) if name else None), inert(str(version).strip()), ""


def _html_metadata(value: str | None) -> tuple[bool, str | None]:
    if value is None:
        return False, None
    algo, _, digest = value.partition("=")
    return True, _sha256(algo, digest)


def _sha256(algo: str, digest: Any) -> str | None:
    if algo != "sha256" or not isinstance(digest, str) or not _SHA256.match(digest):
        return None
    return digest.lower()


def _check_major(version: str, page_url: str, key: str, *, required: bool = False) -> None:
    if not version and not required:
        return
    major = version.split(".", 1)[0]
    if major != "1":
        raise StorageError(f"{page_url}: {key} is {inert(version)!r}; this reader knows repository version 1.x")
