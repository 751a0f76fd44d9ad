"""``cockpit serve``: the release in a web browser, through textual-serve, always read-only.

textual-serve runs one command per browser session and relays its terminal over a websocket. That
command is fixed here, before any browser connects: ``cockpit --read-only view`` on this release's
config (and the state file it follows). Nothing a browser sends (the page's query, the keys typed)
reaches the command line; the keys reach a viewer, whose actions are refused, which sends nothing but
GET/HEAD and which never takes the state file's lock, so the release manager's session keeps writing.

A browser also chooses its terminal's size (the page's query, then resize messages) and how many sessions
it opens: each session is a process on this machine, so their number is capped (``--max-sessions``) and
the size clamped to MAX_WIDTH x MAX_HEIGHT whatever the browser asks.

The one module of the cockpit on private names of a library (textual-serve's ``Server``), because
textual-serve offers no public way to do what serving safely needs: its public ``Server.serve()``
binds inside ``aiohttp.web.run_app`` with its address message silenced (so ``--port 0`` could not say
which port it got, nor could a taken port be said in one line), installs its own Ctrl-C handler (so
the viewers could not be closed and waited for), and relays every resize a browser sends straight to
the viewer. So ``ViewerServer`` runs the routes of ``Server._make_app()`` under its own runner, and
clamps each resize in ``Server._process_messages`` (``handle_websocket``, the session cap and the
first size, is public). ``tests/unit/test_serve.py`` checks those two names and what they take, so
a textual-serve release that changes them fails a test, not a release manager's ``cockpit serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import shlex
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cockpit import __version__
from cockpit.errors import CockpitError, ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
MAX_WIDTH, MAX_HEIGHT = 400, 200
"""The largest terminal a browser session gets, in cells (a 4K screen at a small font fits)."""
_DEFAULT_SIZE = (80, 24)
_REFUSED_HOLD = 60.0
"""Seconds a refused browser session keeps its message on screen before the page says the session ended."""
_WILDCARDS = {"", "0.0.0.0", "::"}
_VIEWER_QUIT_WAIT = 10.0
"""Seconds the viewers of open browser sessions get to quit once serving stops."""


class ServeError(CockpitError):
    """The browser viewer could not be served (the port is taken, the host is not this machine's)."""

    title = "Serve"


def viewer_command(config: Path, state: Path | None = None) -> str:
    """The shell command textual-serve runs for each browser session: a read-only viewer of ``config``
    following ``state`` (default: the config's own state file). Paths are made absolute and quoted."""
    argv = [sys.executable, "-m", "cockpit", "--config", str(config.resolve()), "--read-only", "view"]
    if state is not None:
        argv += ["--state", str(state.resolve())]
    return shlex.join(argv)


def terminal_size(width: object, height: object) -> tuple[int, int]:
    """The browser's asked size clamped to 1..MAX_WIDTH x 1..MAX_HEIGHT; what is not a whole number is 80x24."""
    sizes = []
    for asked, default, most in ((width, _DEFAULT_SIZE[0], MAX_WIDTH), (height, _DEFAULT_SIZE[1], MAX_HEIGHT)):
        try:
            value = int(str(asked).strip()) if not isinstance(asked, bool) else default
        except ValueError:
            value = default
        sizes.append(min(max(value, 1), most))
    return sizes[0], sizes[1]


def full_text(max_sessions: int) -> str:
    """What the page of a browser session over the cap shows instead of a viewer."""
    return (
        f"Release Cockpit: this server already runs {max_sessions} browser session(s), the most it serves "
        f"(cockpit serve --max-sessions {max_sessions}).\r\nClose another tab showing it, then reload this page."
    )


def is_loopback(host: str) -> bool:
    """True when ``host`` is reachable only from this machine (127.0.0.0/8, ::1, a name resolving only there)."""
    if host in _WILDCARDS:
        return False
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in found)


def network_warning(host: str, port: int) -> str:
    """What a release manager must know before serving beyond this machine."""
    where = "every network interface" if host in _WILDCARDS else host
    return (
        f"warning: serving on {where}, not loopback: anyone on the network who can reach port {port} of this "
        "machine can view the release (read-only). Serve on 127.0.0.1 (the default) to keep it to this machine."
    )


def page_url(host: str, port: int) -> str:
    """The address to open in a browser (and the one the page's websocket connects back to)."""
    if host in _WILDCARDS:
        host = socket.gethostname()
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def serve(
    config: Path,
    *,
    state: Path | None = None,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    say: Callable[[str], None] | None = None,
) -> int:
    """Serve read-only viewers of ``config`` on ``host:port`` (0: any free port) until SIGINT/SIGTERM,
    at most ``max_sessions`` browser sessions at a time.

    The page's address goes to stdout; what it serves and any warning to stderr.
    """
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}: expected a TCP port, 0 to 65535 (0: any free port)")
    if max_sessions < 1:
        raise ConfigError(f"--max-sessions {max_sessions}: expected at least 1 (browser sessions served at once)")
    tell = say or (lambda line: print(line, file=sys.stderr, flush=True))
    command = viewer_command(config, state)
    if not is_loopback(host):
        tell(f"cockpit: {network_warning(host, port)}")
    _show_textual_serve_errors()
    server = _viewer_server(command, host, port, max_sessions=max_sessions)

    def ready(url: str) -> None:
        print(url, flush=True)
        tell(f"each browser tab is a read-only viewer of {config} ({'state ' + str(state) if state else 'its state'})")
        tell(f"at most {max_sessions} browser session(s) at a time, each at most {MAX_WIDTH}x{MAX_HEIGHT} cells")
        tell("Ctrl-C stops serving")

    asyncio.run(server.run_until_stopped(ready))
    tell("stopped serving")
    return 0


def _show_textual_serve_errors() -> None:
    """A viewer that failed to start is said in one line on stderr (never a traceback)."""

    class OneLine(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            print(f"cockpit serve: {record.getMessage()}", file=sys.stderr, flush=True)

    served = logging.getLogger("textual-serve")
    served.setLevel(logging.WARNING)
    served.propagate = False
    if not any(type(h).__name__ == "OneLine" for h in served.handlers):
        served.addHandler(OneLine())


def _viewer_server(command: str, host: str, port: int, *, max_sessions: int = DEFAULT_MAX_SESSIONS) -> Any:
    """textual-serve's server for ``command``, binding first and then saying the real address; at most
    ``max_sessions`` sessions, each terminal clamped to MAX_WIDTH x MAX_HEIGHT."""
    from aiohttp import web
    from textual_serve.server import Server

    class ViewerServer(Server):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sessions: set[asyncio.Task[Any]] = set()
            self.refused: set[asyncio.Task[Any]] = set()  # pages told the server is full; no viewer behind them

        async def on_startup(self, app: web.Application) -> None:
            """Quiet: ``serve`` prints the address once the port is bound (textual-serve's banner would not)."""

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """One browser session (its viewer runs as long as it does), kept so that stopping can end it."""
            if len(self.sessions) >= max_sessions:
                return await self.refuse(request)
            session = asyncio.current_task()
            assert session is not None
            self.sessions.add(session)
            width, height = terminal_size(request.query.get("width", "80"), request.query.get("height", "24"))
            sized = request.clone(rel_url=request.rel_url.update_query(width=width, height=height))
            try:
                return await super().handle_websocket(sized)
            finally:
                self.sessions.discard(session)

        async def refuse(self, request: web.Request) -> web.WebSocketResponse:
            """Over the cap: the page shows why, no viewer is started; the socket closes after a while."""
            task = asyncio.current_task()
            assert task is not None
            self.refused.add(task)
            websocket = web.WebSocketResponse(heartbeat=15)
            try:
                await websocket.prepare(request)
                await websocket.send_bytes(full_text(max_sessions).encode())
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(_REFUSED_HOLD):
                        async for _message in websocket:  # nothing a refused page sends is acted on
                            pass
            except asyncio.CancelledError:
                pass  # serving stops
            finally:
                self.refused.discard(task)
            await websocket.close()
            return websocket

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:
            """textual-serve's, with every resize the browser asks for clamped."""
            resize = app_service.set_terminal_size

            async def clamped(width: object, height: object) -> None:
                await resize(*terminal_size(width, height))

            app_service.set_terminal_size = clamped
            await super()._process_messages(websocket, app_service)

        async def end_sessions(self) -> None:
            """Close every browser session; textual-serve then tells its viewer to quit and waits for it."""
            for session in [*self.sessions, *self.refused]:
                session.cancel()
            if self.sessions:
                await asyncio.wait(list(self.sessions), timeout=_VIEWER_QUIT_WAIT)

        async def run_until_stopped(self, ready: Callable[[str], None]) -> None:
            stopped = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stopped.set)
            runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
            await runner.setup()
            try:
                site = web.TCPSite(runner, self.host or None, self.port)
                try:
                    await site.start()
                except OSError as exc:
                    raise ServeError(f"cannot serve on {self.host}:{self.port}: {exc.strerror or exc}") from None
                self.port = runner.addresses[0][1]
                self.public_url = page_url(self.host, self.port)
                ready(self.public_url + "/")
                await stopped.wait()
                await self.end_sessions()
            finally:
                await runner.cleanup()

    title = f"Release Cockpit {__version__} (read-only)"
    return ViewerServer(command, host=host, port=port, title=title)
