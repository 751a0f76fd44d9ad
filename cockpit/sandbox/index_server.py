"""The wheel-index emulator: a PEP 503 index and the PyPI JSON API, served from ``World`` data.

Routes (``<p>`` is a project name; non-normalised names are redirected to the PEP 503 form):

- ``/whl/test/`` and ``/whl/`` root pages (links to each project of the RC and stable channel),
  ``/whl/test/<p>/`` (RC channel, every variant), ``/whl/<p>/`` (stable), and per-variant
  sub-indexes ``/whl/test/<variant>/`` and ``/whl/test/<variant>/<p>/`` (and stable likewise), as
  PyTorch lays out its test channel (``/whl/test/cu126/torch/``); ``/whl/staging/<p>/`` holds
  the wheels staged for PyPI (``world_promotion``). Pages are PEP 503 HTML or PEP
  691 JSON by content negotiation (``Accept``; ``Vary: Accept``; 406 when neither is acceptable),
  with checksums, PEP 658/714 metadata and PEP 592 yanked files: see ``index_pages``. Channel
  pages use path-absolute hrefs, variant pages relative ones (``../torch-...whl``), as real
  indexes mix both.
- Files, ``/whl/[test/][<variant>/]<filename>``: ``HEAD`` answers 200 with ``Content-Length`` =
  the world's size and no body; ``GET`` answers **403** (the sandbox holds sizes, not gigabytes of
  wheels), so ``pip install`` fails loudly instead of installing a placeholder. Their core
  metadata, ``<filename>.metadata`` (PEP 658), answers ``GET`` and ``HEAD``.
- ``/pypi/<p>/json`` and ``/pypi/<p>/<version>/json`` from ``World.pypi`` (404 ``{"message":
  "Not Found"}`` when unknown); file URLs there point at ``/packages/<filename>`` (HEAD only).

Every 200 to a GET or HEAD carries a strong ``ETag`` (a digest of what was answered, so it changes
when the world does); a request whose ``If-None-Match`` names it is answered 304 with no body, as a
static index behind a CDN answers.

Request log, fault injection and the ``/_sandbox/`` control paths come from ``SandboxServer``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from urllib.parse import quote, unquote

from cockpit.sandbox import index_pages as pages
from cockpit.sandbox.http_base import Request, Response, SandboxServer
from cockpit.sandbox.model import SbPyPIRelease, SbWheel, World

HTML = "text/html; charset=utf-8"
METADATA = ".metadata"
STABLE = "stable"
CHANNELS = ("test", "staging")  # the RC channel, and the wheels staged for PyPI (no local version)
FILE_SUFFIX = re.compile(r"\.(whl|zip|tar\.gz|tar\.bz2)$")


def normalise(name: str) -> str:
    """PEP 503 project name: lowercase, runs of ``-_.`` become ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def version_key(version: str) -> tuple:
    """Sort key that puts 2.10.0 after 2.9.1 (numeric parts first, then the rest as text)."""
    numbers = re.match(r"\d+(?:\.\d+)*", version)
    head = tuple(int(n) for n in numbers.group(0).split(".")) if numbers else ()
    return head, version


class IndexEmulator(SandboxServer):
    """Serve ``world.wheels`` as a PEP 503 index and ``world.pypi`` as PyPI's JSON API."""

    server_name = "wheel-index"

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world
        self.variants = {w.variant for w in world.wheels if w.variant}

    def __enter__(self) -> IndexEmulator:
        self.start()
        return self

    def handle(self, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return self.error(405, "Method Not Allowed")
        segments = [unquote(s) for s in request.route.split("/")[1:]]
        if segments and segments[0] == "whl":
            return self._index(request, segments[1:])
        if segments and segments[0] == "pypi":
            return self._pypi(request, segments[1:])
        if len(segments) == 2 and segments[0] == "packages":
            return self._file([w for w in self.world.wheels if w.filename == segments[1]], request)
        return self.error(404, "Not Found")

    def finish_response(self, request: Request, response: Response) -> Response:
        if request.route.startswith("/_sandbox/") or request.method not in ("GET", "HEAD") or response.status != 200:
            return response
        answered = (
            "\0".join(
                (response.content_type, response.headers.get("Content-Length", ""), response.headers.get("ETag", ""))
            ).encode()
            + b"\0"
            + response.body
        )
        etag = f'"{hashlib.sha1(answered).hexdigest()}"'
        response.headers["ETag"] = etag
        wanted = {tag.strip() for tag in request.header("if-none-match").split(",")}
        if etag in wanted or "*" in wanted:
            return Response(status=304, headers={k: v for k, v in response.headers.items() if k in ("ETag", "Vary")})
        return response

    def _index(self, request: Request, segments: list[str]) -> Response:
        channel, prefix = STABLE, "/whl/"
        if segments and segments[0] in CHANNELS:
            channel, prefix, segments = segments[0], f"/whl/{segments[0]}/", segments[1:]
        variant = ""
        if segments and segments[0] in self.variants:
            variant, prefix, segments = segments[0], f"{prefix}{segments[0]}/", segments[1:]
        wheels = [w for w in self.world.wheels if w.channel == channel and (not variant or w.variant == variant)]
        kind = pages.negotiate(request.header("accept"))
        if segments in ([], [""]):
            return self._root(wheels, prefix, kind)
        name = segments[0]
        if len(segments) == 1 and name.endswith(METADATA):
            return self._metadata([w for w in wheels if w.filename == name[: -len(METADATA)]], request)
        if len(segments) == 1 and (FILE_SUFFIX.search(name) or any(w.filename == name for w in wheels)):
            return self._file([w for w in wheels if w.filename == name], request)
        if len(segments) > 2 or (len(segments) == 2 and segments[1] != ""):
            return self.error(404, "Not Found")
        if normalise(name) != name or len(segments) == 1:
            return Response(status=301, headers={"Location": f"{prefix}{quote(normalise(name))}/"}, content_type=HTML)
        files = [w for w in wheels if normalise(w.package) == name]
        if not files:
            return self.error(404, f"project {name} is not in this index")
        if kind is None:
            return _not_acceptable()
        render = pages.json_project_page if kind == pages.JSON_TYPE else pages.html_project_page
        return _page(render(name, files, prefix, relative=bool(variant)), kind)

    def _root(self, wheels: list[SbWheel], prefix: str, kind: str | None) -> Response:
        names = sorted({normalise(w.package) for w in wheels})
        if kind is None:
            return _not_acceptable()
        return _page(pages.json_root(names) if kind == pages.JSON_TYPE else pages.html_root(names, prefix), kind)

    def _metadata(self, matches: list[SbWheel], request: Request) -> Response:
        if not matches:
            return self.error(404, "Not Found")
        body = pages.core_metadata(matches[0])
        if request.method == "HEAD":
            return Response(headers={"Content-Length": str(len(body))}, content_type="application/octet-stream")
        return Response(body=body, content_type="application/octet-stream")

    def _file(self, matches: list[SbWheel], request: Request) -> Response:
        if not matches:
            return self.error(404, "Not Found")
        if request.method == "HEAD":
            return Response(
                headers={"Content-Length": str(matches[0].size), "ETag": f'"{matches[0].sha256[:32]}"'},
                content_type="application/octet-stream",
            )
        return Response(
            status=403,
            body=b"The sandbox index holds sizes, not wheel contents: use HEAD.\n",
            content_type="text/plain; charset=utf-8",
        )

    def _pypi(self, request: Request, segments: list[str]) -> Response:
        if len(segments) not in (2, 3) or segments[-1] != "json":
            return self.error(404, "Not Found")
        name = normalise(segments[0])
        releases = sorted(
            (r for r in self.world.pypi if normalise(r.package) == name), key=lambda r: version_key(r.version)
        )
        if not releases:
            return self.error(404, "Not Found")
        host = request.header("host", "127.0.0.1")
        if len(segments) == 3:
            chosen = [r for r in releases if r.version == segments[1]]
            if not chosen:
                return self.error(404, "Not Found")
            release = chosen[0]
            return Response.json(
                {
                    "info": _info(release, name),
                    "urls": list(self._pypi_files(release, host)),
                }
            )
        return Response.json(
            {
                "info": _info(releases[-1], name),
                "releases": {r.version: list(self._pypi_files(r, host)) for r in releases},
                "urls": list(self._pypi_files(releases[-1], host)),
            }
        )

    def _pypi_files(self, release: SbPyPIRelease, host: str) -> Iterable[dict]:
        for filename in release.filenames:
            known = next((w for w in self.world.wheels if w.filename == filename), None)
            sha = known.sha256 if known else hashlib.sha256(filename.encode()).hexdigest()
            yield {
                "filename": filename,
                "packagetype": "bdist_wheel" if filename.endswith(".whl") else "sdist",
                "size": known.size if known else 0,
                "digests": {"sha256": sha},
                "upload_time_iso_8601": release.upload_time,
                "url": f"http://{host}/packages/{quote(filename)}",
                "yanked": False,
                "yanked_reason": None,
            }


def _info(release: SbPyPIRelease, name: str) -> dict:
    return {"name": name, "version": release.version, "summary": f"{name} (sandbox)", "yanked": False}


def _page(text: str, kind: str) -> Response:
    content_type = kind if kind == pages.JSON_TYPE else f"{kind}; charset=utf-8"
    return Response(body=text.encode(), content_type=content_type, headers={"Vary": "Accept"})


def _not_acceptable() -> Response:
    body = f"406 Not Acceptable: this index serves {', '.join(pages.SERVED)}\n".encode()
    return Response(status=406, body=body, content_type="text/plain; charset=utf-8", headers={"Vary": "Accept"})
