"""What the wheel-index emulator answers with: simple-repository pages in both forms, and metadata files.

- PEP 503 HTML (``text/html``): one ``<a>`` per file, the href percent-encoded (``+`` as ``%2B``)
  with a ``#sha256=`` fragment, ``data-requires-python`` HTML-escaped (``&gt;=3.10``), PEP 658's
  ``data-dist-info-metadata`` and PEP 714's ``data-core-metadata`` (both ``sha256=<hex>`` of the
  metadata file), and PEP 592's ``data-yanked`` (its value is the reason) on yanked files; the head
  carries PEP 629's ``pypi:repository-version``.
- PEP 691 JSON (``application/vnd.pypi.simple.v1+json``) with PEP 700's additions (api-version
  1.1: ``versions``, per-file ``size`` and ``upload-time``): ``hashes``, ``requires-python``,
  ``core-metadata`` / ``dist-info-metadata``, ``yanked`` (``false``, or the reason string, or
  ``true`` when none is given).
- ``negotiate`` picks the form from the ``Accept`` header as PEP 691 says: the highest quality
  value wins, a type named outright beats a wildcard of the same quality, ties go to the order the
  server prefers (JSON, then the versioned HTML, then ``text/html``); no header, or only ``*/*``
  (curl, an old client), is ``text/html``; ``None`` when nothing is acceptable (406).
- ``core_metadata`` is a wheel's ``METADATA`` as the ``<file>.metadata`` URL serves it.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from urllib.parse import quote

from cockpit.sandbox.model import SbWheel

JSON_TYPE = "application/vnd.pypi.simple.v1+json"
HTML_V1 = "application/vnd.pypi.simple.v1+html"
HTML = "text/html"
SERVED = (JSON_TYPE, HTML_V1, HTML)  # the order this server prefers on equal quality
REQUIRES_PYTHON = ">=3.10"
UPLOAD_TIME = "2026-09-20T08:00:00.000000Z"


def negotiate(accept: str) -> str | None:
    """The content type to answer with for an ``Accept`` header (see the module docstring)."""
    if not accept.strip():
        return HTML
    best: tuple[float, int, int] | None = None
    chosen = None
    for part in accept.split(","):
        media, *params = [p.strip() for p in part.split(";")]
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        for rank, served in enumerate(SERVED):
            if quality > 0 and _matches(media.lower(), served):
                named = media.lower() == served
                candidate = (quality, int(named), -rank if named else rank)
                if best is None or candidate > best:
                    best, chosen = candidate, served
    return chosen


def _matches(media: str, served: str) -> bool:
    if media in ("*/*", served):
        return True
    return media.endswith("/*") and served.startswith(media[:-1])


def core_metadata(wheel: SbWheel) -> bytes:
    """The wheel's ``METADATA``: its project name, and its version (the filename's unless planted)."""
    version = wheel.metadata_version or wheel.filename.split("-")[1]
    return (
        f"Metadata-Version: 2.1\nName: {wheel.package}\nVersion: {version}\n"
        f"Summary: {wheel.package} (sandbox)\nRequires-Python: {REQUIRES_PYTHON}\n\n"
    ).encode()


def metadata_sha256(wheel: SbWheel) -> str:
    """The sha256 of ``core_metadata(wheel)``, as the pages state it."""
    return hashlib.sha256(core_metadata(wheel)).hexdigest()


def html_project_page(name: str, files: list[SbWheel], prefix: str, *, relative: bool) -> str:
    """The PEP 503 page of project ``name``; hrefs are ``../<file>`` on variant pages, else path-absolute."""
    links = []
    for w in sorted(files, key=lambda w: w.filename):
        href = f"{_href_base(w, prefix, relative)}{quote(w.filename)}#sha256={w.sha256}"
        meta = f"sha256={metadata_sha256(w)}"
        attrs = (
            f'href="{html.escape(href)}" data-requires-python="{html.escape(REQUIRES_PYTHON)}" '
            f'data-dist-info-metadata="{meta}" data-core-metadata="{meta}"'
        )
        if w.yanked is not None:
            attrs += f' data-yanked="{html.escape(w.yanked)}"'
        links.append(f"    <a {attrs}>{html.escape(w.filename)}</a><br/>")
    return html_page(f"Links for {name}", "\n".join(links))


def json_project_page(name: str, files: list[SbWheel], prefix: str, *, relative: bool) -> str:
    """The PEP 691 page of project ``name`` (api-version 1.1, PEP 700's fields included)."""
    entries = []
    for w in sorted(files, key=lambda w: w.filename):
        meta = {"sha256": metadata_sha256(w)}
        yanked: bool | str = False if w.yanked is None else (w.yanked or True)
        entries.append(
            {
                "filename": w.filename,
                "url": f"{_href_base(w, prefix, relative)}{quote(w.filename)}",
                "hashes": {"sha256": w.sha256},
                "requires-python": REQUIRES_PYTHON,
                "core-metadata": meta,
                "dist-info-metadata": meta,
                "yanked": yanked,
                "size": w.size,
                "upload-time": UPLOAD_TIME,
            }
        )
    versions = sorted({w.filename.split("-")[1] for w in files}, key=_version_key)
    return json.dumps({"meta": {"api-version": "1.1"}, "name": name, "versions": versions, "files": entries})


def html_root(names: list[str], prefix: str) -> str:
    """The PEP 503 root page: a link per project."""
    links = "\n".join(f'    <a href="{prefix}{quote(n)}/">{html.escape(n)}</a><br/>' for n in names)
    return html_page("Simple index", links)


def json_root(names: list[str]) -> str:
    """The PEP 691 root page."""
    return json.dumps({"meta": {"api-version": "1.1"}, "projects": [{"name": n} for n in names]})


def html_page(title: str, body: str) -> str:
    """An HTML5 page as PEP 503 and PEP 629 describe it."""
    return (
        "<!DOCTYPE html>\n<html>\n  <head>\n"
        '    <meta name="pypi:repository-version" content="1.1">\n'
        f"    <title>{html.escape(title)}</title>\n  </head>\n  <body>\n"
        f"    <h1>{html.escape(title)}</h1>\n{body}\n  </body>\n</html>\n"
    )


def _href_base(w: SbWheel, prefix: str, relative: bool) -> str:
    return "../" if relative else prefix + (f"{quote(w.variant)}/" if w.variant else "")


def _version_key(version: str) -> tuple:
    numbers = re.match(r"\d+(?:\.\d+)*", version)
    return (tuple(int(n) for n in numbers.group(0).split(".")) if numbers else ()), version
