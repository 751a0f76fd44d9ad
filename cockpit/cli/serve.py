"""``cockpit serve``: the release in a web browser, through textual-serve, always read-only.

textual-serve runs one command per browser session and relays its terminal over a websocket. That
command is fixed here, before any browser connects: ``cockpit --read-only view`` on this release's
config (and the state file it follows). Nothing a browser sends (the page's query, the keys typed)
reaches the command line; the keys reach a viewer, whose actions are refused, which sends nothing but
GET/HEAD and which never takes the state file's lock, so the release manager's session keeps writing.
"""

from __future__ import annotations

import argparse
import asyncio
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


def run_serve(args: argparse.Namespace) -> int:
    """``cockpit serve``: serve the release of ``--config`` (and ``--state``) until Ctrl-C."""
    from cockpit.cli.commands import config_path, load

    load(args)  # a bad config is said now, once, not in every browser tab
    return serve(config_path(args), state=args.state, host=args.host, port=args.port)


def serve(
    config: Path,
    *,
    state: Path | None = None,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    say: Callable[[str], None] | None = None,
) -> int:
    """Serve read-only viewers of ``config`` on ``host:port`` (0: any free port) until SIGINT/SIGTERM.

    The page's address goes to stdout; what it serves and any warning to stderr.
    """
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}: expected a TCP port, 0 to 65535 (0: any free port)")
    tell = say or (lambda line: print(line, file=sys.stderr, flush=True))
    command = viewer_command(config, state)
    if not is_loopback(host):
        tell(f"cockpit: {network_warning(host, port)}")
    _show_textual_serve_errors()
    server = _viewer_server(command, host, port)

    def ready(url: str) -> None:
        print(url, flush=True)
        tell(f"each browser tab is a read-only viewer of {config} ({'state ' + str(state) if state else 'its state'})")
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


def _viewer_server(command: str, host: str, port: int) -> Any:
    """textual-serve's server for ``command``, binding first and then saying the real address."""
    from aiohttp import web
    from textual_serve.server import Server

    class ViewerServer(Server):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.sessions: set[asyncio.Task[Any]] = set()

        async def on_startup(self, app: web.Application) -> None:
            """Quiet: ``serve`` prints the address once the port is bound (textual-serve's banner would not)."""

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """One browser session (its viewer runs as long as it does), kept so that stopping can end it."""
            session = asyncio.current_task()
            assert session is not None
            self.sessions.add(session)
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions.discard(session)

        async def end_sessions(self) -> None:
            """Close every browser session; textual-serve then tells its viewer to quit and waits for it."""
            for session in list(self.sessions):
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
