"""A tiny threaded HTTP server for the sandbox emulators, with a request log and fault injection.

The GitHub emulator and the wheel-index emulator both subclass ``SandboxServer``:

    class MyEmulator(SandboxServer):
        def handle(self, request: Request) -> Response:
            if request.route == "/hello":
                return Response.json({"hello": "world"})
            return self.error(404, "Not Found")

    with MyEmulator() as emu:          # start() returns the base URL, http://127.0.0.1:PORT
        httpx.get(emu.base_url + "/hello")
        emu.log()                      # [{"method", "path", "status", "time"}, ...]
        emu.faults.status_burst(503, count=2, path=r"/hello")

Every server also answers the sandbox control paths (never logged, never faulted):

- ``GET /_sandbox/log``: the request log as JSON, ``[{"method","path","status","time"}]``; the path
  includes the query string exactly as sent; ``time`` is epoch seconds.
- ``DELETE /_sandbox/log``: clear the log.
- ``GET /_sandbox/faults``: the armed faults; ``POST`` one fault object or a list; ``DELETE`` clears.

A fault is ``{"kind": ..., "path": REGEX or null, "count": N or null, ...params}``: latency,
a 5xx burst, GitHub's primary and secondary rate limits, a malformed body, a 404, a timeout; the
kinds and their parameters are in ``cockpit.sandbox.http_faults``.

Subclasses override ``handle`` and may override ``error_body`` (the JSON of an error) and
``finish_response`` (add headers such as ETag or rate limits to every answer, including faults).
A ``Content-Length`` set in ``Response.headers`` is sent as is (a HEAD declaring a file's size).
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cockpit.sandbox.http_faults import Fault, FaultPlan

CONTROL_PREFIX = "/_sandbox/"


@dataclass
class Request:
    """One request as the emulator sees it.

    ``path`` is the raw path with its query string (as logged); ``route`` is the path without the
    query, still percent-encoded so ``release%2F2.5`` stays one segment; ``query`` maps each
    parameter to its last value.
    """

    method: str
    path: str
    route: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes = b""

    def json(self) -> Any:
        """The body parsed as JSON; ``None`` when empty. Raises ``ValueError`` when malformed."""
        if not self.body.strip():
            return None
        return json.loads(self.body)

    def header(self, name: str, default: str = "") -> str:
        return self.headers.get(name.lower(), default)


@dataclass
class Response:
    """What a handler answers. ``body`` is bytes; use ``Response.json`` for JSON answers."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"

    @classmethod
    def json(cls, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
        body = json.dumps(data, separators=(",", ":")).encode()
        return cls(status=status, body=body, headers=dict(headers or {}))


class RequestLog:
    """Every request served (control paths excepted), in arrival order of completion; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: list[dict[str, Any]] = []

    def record(self, method: str, path: str, status: int) -> None:
        with self._lock:
            self._entries.append({"method": method, "path": path, "status": status, "time": time.time()})

    def entries(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self._entries]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_log = logging.getLogger("cockpit.sandbox")


class _QuietHTTPServer(ThreadingHTTPServer):
    """Never prints over the cockpit's screen: socketserver's default writes a traceback to
    stderr whenever a client goes away mid-answer (the app quitting with a load in flight, a
    client giving up on a slow fault).

    Its listen queue holds 128 connections, not socketserver's 5: the cockpit opens a dozen at once on
    a cold load, and on a busy machine, before the serving thread accepts them, the kernel dropped the
    ones over five (``ListenOverflows`` in ``/proc/net/netstat``). A dropped handshake is retried by
    TCP after 1, 3, 7, ... s, so a request of the sandbox took up to a minute for no reason of its own."""

    request_queue_size = 128

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._connections: set[Any] = set()
        self._connections_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """End every connection still open, as a server going away does.

        A client keeps an HTTP/1.1 connection open between requests, and its handler thread waits on it
        for the next one. Without this, a stopped emulator left those threads waiting for ever, each
        holding what it had been given (in the tests, a whole cockpit: its answers, its caches): a test
        worker ended with some two hundred of them and a heap of a million objects."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # already closed by its handler
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return
        _log.error("a sandbox emulator failed to answer %s", client_address, exc_info=True)


class SandboxServer:
    """Base of the emulators: serve ``handle`` on 127.0.0.1 (ephemeral port) in a daemon thread."""

    server_name = "sandbox"

    def __init__(self) -> None:
        self.faults = FaultPlan()
        self.request_log = RequestLog()
        self._httpd: _QuietHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self.base_url = ""

    def handle(self, request: Request) -> Response:
        """Answer one (non-control) request. Subclasses override this."""
        return self.error(404, "Not Found")

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        """The JSON body of an error answer; GitHub's emulator adds ``documentation_url``."""
        return {"message": message}

    def error(self, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        return Response.json(self.error_body(status, message), status=status, headers=headers)

    def finish_response(self, request: Request, response: Response) -> Response:
        """Last look at every answer (faults included) before it is sent; the default keeps it."""
        return response

    def log(self) -> list[dict[str, Any]]:
        """The request log: ``[{"method","path","status","time"}]``."""
        return self.request_log.entries()

    def start(self) -> str:
        """Start serving; return the base URL ``http://127.0.0.1:PORT``."""
        if self._httpd is not None:
            return self.base_url
        self._stopping.clear()
        handler = type("Handler", (_Handler,), {"sandbox": self})
        self._httpd = _QuietHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"{self.server_name}:{port}",
            daemon=True,
        )
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        """Stop serving and wake handlers sleeping on a latency or timeout fault."""
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.close_connections()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> SandboxServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)

    def _control(self, request: Request) -> Response:
        what = request.route[len(CONTROL_PREFIX) :].strip("/")
        if what == "log" and request.method == "GET":
            return Response.json(self.log())
        if what == "log" and request.method == "DELETE":
            self.request_log.clear()
            return Response(status=204)
        if what == "faults" and request.method == "GET":
            return Response.json(self.faults.armed())
        if what == "faults" and request.method == "DELETE":
            self.faults.clear()
            return Response(status=204)
        if what == "faults" and request.method == "POST":
            try:
                armed = self.faults.add_json(request.json())
            except ValueError as exc:
                return self.error(422, f"bad fault: {exc}")
            return Response.json([f.as_dict() for f in armed], status=201)
        return self.error(404, "Not Found")

    def _faulted(self, request: Request, fault: Fault) -> Response | None:
        kind, p = fault.kind, fault.params
        if kind == "status":
            status = int(p.get("status", 503))
            return self.error(status, p.get("message", "Server Error"))
        if kind == "rate_limit":
            reset = int(time.time() + float(p.get("reset_in", 3600)))
            headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}
            return self.error(int(p.get("status", 403)), "API rate limit exceeded for 127.0.0.1.", headers)
        if kind == "secondary_rate_limit":
            retry_after = p.get("retry_after", 60)
            headers = {} if retry_after is None else {"Retry-After": str(int(retry_after))}
            return self.error(
                int(p.get("status", 403)),
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                headers,
            )
        if kind == "malformed":
            return Response(status=200, body=b'{"message": "truncated', headers={})
        if kind == "not_found":
            return self.error(404, "Not Found")
        if kind == "timeout":
            self._sleep(float(p.get("seconds", 30)))
        return None

    def serve(self, request: Request) -> Response:
        """Control paths, then faults, then ``handle``; never raises."""
        if request.route.startswith(CONTROL_PREFIX):
            return self._control(request)
        delay, fault = self.faults.take(request.path)
        self._sleep(delay)
        response = self._faulted(request, fault) if fault else None
        if response is None:
            try:
                response = self.handle(request)
            except Exception as exc:  # an emulator bug must answer 500, not kill the handler
                response = self.error(500, f"emulator error: {type(exc).__name__}: {exc}")
        return self.finish_response(request, response)


class _Handler(BaseHTTPRequestHandler):
    sandbox: SandboxServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: avoid a 40 ms stall each

    def log_message(self, format: str, *args: Any) -> None:  # keep stderr quiet (it is a TUI)
        pass

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        request = Request(
            method=self.command,
            path=self.path,
            route=parts.path,
            query=query,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
        )
        response = self.sandbox.serve(request)
        if not request.route.startswith(CONTROL_PREFIX):
            self.sandbox.request_log.record(request.method, request.path, response.status)
        try:
            self.send_response(response.status)
            no_body = response.status in (204, 304) or self.command == "HEAD"
            if response.status not in (204, 304):
                self.send_header("Content-Type", response.content_type)
            for name, value in response.headers.items():
                self.send_header(name, value)
            if not any(name.lower() == "content-length" for name in response.headers):
                # an explicit Content-Length wins: a HEAD may declare a size it does not send
                self.send_header("Content-Length", "0" if response.status in (204, 304) else str(len(response.body)))
            self.end_headers()
            if not no_body:
                self.wfile.write(response.body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _serve
