"""`cockpit serve` gives every browser session a read-only viewer, stays on this machine unless told
otherwise, and says plainly when it is not."""

from __future__ import annotations

import asyncio
import shlex
import socket
import sys
from pathlib import Path

import pytest

from cockpit.cli import serve as serving
from cockpit.cli.main import parse_command_line
from cockpit.errors import ConfigError


def test_the_command_each_browser_session_runs_is_a_read_only_viewer_of_this_release(tmp_path):
    config, state = tmp_path / "rel ease" / "cockpit.toml", tmp_path / "their state.toml"
    argv = shlex.split(serving.viewer_command(config, state))

    assert argv[:3] == [sys.executable, "-m", "cockpit"]
    args = parse_command_line(argv[3:])
    assert args.handler == "cockpit.cli.commands:run_view"  # `cockpit view`: read-only whatever else is said
    assert args.read_only and not args.take_over
    assert args.config == config.resolve() and args.state == state.resolve()


def test_without_a_state_file_the_viewer_follows_the_configs_own(tmp_path):
    args = parse_command_line(shlex.split(serving.viewer_command(tmp_path / "cockpit.toml"))[3:])
    assert args.state is None and args.handler == "cockpit.cli.commands:run_view"


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_addresses_stay_on_this_machine(host):
    assert serving.is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "10.1.2.3", "192.168.0.7"])
def test_every_other_address_is_on_the_network(host):
    assert not serving.is_loopback(host)


class _FakeServer:
    """Stands for textual-serve's server: bound at once, stopped at once."""

    def __init__(self, command: str, host: str, port: int, max_sessions: int) -> None:
        self.command, self.host, self.port, self.max_sessions = command, host, port, max_sessions

    async def run_until_stopped(self, ready):
        ready(serving.page_url(self.host, self.port or 8123) + "/")


@pytest.fixture
def fake_server(monkeypatch):
    started: list[_FakeServer] = []

    def make(command: str, host: str, port: int, *, max_sessions: int) -> _FakeServer:
        started.append(_FakeServer(command, host, port, max_sessions))
        return started[-1]

    monkeypatch.setattr(serving, "_viewer_server", make)
    return started


def test_serving_on_loopback_prints_the_address_and_warns_of_nothing(fake_server, tmp_path, capsys):
    assert serving.serve(tmp_path / "cockpit.toml", port=0) == 0
    out, err = capsys.readouterr()
    assert out == "http://127.0.0.1:8123/\n"
    assert "warning" not in err and "read-only viewer" in err
    assert fake_server[0].host == "127.0.0.1"
    assert fake_server[0].command == serving.viewer_command(tmp_path / "cockpit.toml")


@pytest.mark.parametrize("host, where", [("0.0.0.0", "every network interface"), ("10.1.2.3", "10.1.2.3")])
def test_serving_beyond_loopback_warns_that_anyone_on_the_network_can_view(fake_server, tmp_path, capsys, host, where):
    serving.serve(tmp_path / "cockpit.toml", host=host, port=8123)
    err = capsys.readouterr().err
    assert f"warning: serving on {where}, not loopback: anyone on the network" in err
    assert "read-only" in err


def test_a_wildcard_host_is_shown_by_this_machines_name(monkeypatch):
    monkeypatch.setattr(socket, "gethostname", lambda: "build-7")
    assert serving.page_url("0.0.0.0", 8000) == "http://build-7:8000"
    assert serving.page_url("::1", 8000) == "http://[::1]:8000"


@pytest.mark.parametrize("port", [-1, 65536])
def test_a_port_out_of_range_is_refused_with_what_was_expected(fake_server, tmp_path, port):
    with pytest.raises(ConfigError, match="expected a TCP port, 0 to 65535"):
        serving.serve(tmp_path / "cockpit.toml", port=port)
    assert not fake_server


def test_a_port_already_taken_is_said_in_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(serving.ServeError, match=rf"cannot serve on 127\.0\.0\.1:{port}: "):
            serving.serve(tmp_path / "cockpit.toml", port=port, say=lambda line: None)


def test_a_missing_config_is_said_before_serving(tmp_path, capsys, monkeypatch):
    from cockpit.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0"]) == 2
    assert "no cockpit.toml in" in capsys.readouterr().err


def test_the_demo_serves_its_sandbox_release_to_browsers(monkeypatch, tmp_path, capsys):
    from cockpit.cli import commands

    served: dict[str, object] = {}

    class Servers:
        def __init__(self, world, owned, s3=False):
            self.github_url = self.index_url = "http://127.0.0.1:1"

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    monkeypatch.setattr(commands, "_scaled_world", lambda args: object())
    monkeypatch.setattr("cockpit.sandbox.demo.SandboxServers", Servers)
    monkeypatch.setattr(commands, "_sandbox_config", lambda world, servers: tmp_path / "cockpit.toml")
    monkeypatch.setattr(commands, "open_app", lambda *a, **k: pytest.fail("the demo opened the cockpit here"))
    monkeypatch.setattr(serving, "serve", lambda path, **kw: served.update(path=path, **kw) or 0)

    args = parse_command_line(["demo", "--serve", "--port", "9001", "--max-sessions", "3"])
    assert commands.run_demo(args) == 0
    assert served == {"path": tmp_path / "cockpit.toml", "host": "127.0.0.1", "port": 9001, "max_sessions": 3}
    assert f"cockpit --config {Path(tmp_path / 'cockpit.toml')}" in capsys.readouterr().err


def test_a_release_manager_caps_the_browser_sessions_and_eight_is_the_default(fake_server, tmp_path, capsys):
    assert parse_command_line(["serve"]).max_sessions == serving.DEFAULT_MAX_SESSIONS == 8
    assert parse_command_line(["serve", "--max-sessions", "2"]).max_sessions == 2
    serving.serve(tmp_path / "cockpit.toml", port=0, max_sessions=2)
    assert fake_server[0].max_sessions == 2
    assert "at most 2 browser session(s) at a time, each at most 400x200 cells" in capsys.readouterr().err


@pytest.mark.parametrize("cap", [0, -3])
def test_a_cap_below_one_session_is_refused_with_what_was_expected(fake_server, tmp_path, cap):
    with pytest.raises(ConfigError, match=rf"--max-sessions {cap}: expected at least 1"):
        serving.serve(tmp_path / "cockpit.toml", port=0, max_sessions=cap)
    assert not fake_server


@pytest.mark.parametrize(
    "width, height, size",
    [
        ("140", "40", (140, 40)),
        ("100000", "99999", (400, 200)),
        (10**9, 10**9, (400, 200)),
        ("0", "-5", (1, 1)),
        ("wide", "", (80, 24)),
        (80.5, None, (80, 24)),
        ("9" * 5000, True, (80, 24)),
    ],
)
def test_the_terminal_a_browser_asks_for_is_clamped_to_a_sane_size(width, height, size):
    assert serving.terminal_size(width, height) == size


def test_every_resize_a_browser_sends_is_clamped_before_it_reaches_the_viewer():
    from aiohttp import WSMsgType

    class Message:
        type = WSMsgType.TEXT

        def __init__(self, envelope):
            self.envelope = envelope

        def json(self):
            return self.envelope

    class Browser:
        def __init__(self, *envelopes):
            self.messages = [Message(e) for e in envelopes]

        def __aiter__(self):
            return self

        async def __anext__(self):
            if not self.messages:
                raise StopAsyncIteration
            return self.messages.pop(0)

    class Viewer:
        def __init__(self):
            self.sizes: list[tuple[int, int]] = []

        async def set_terminal_size(self, width, height):
            self.sizes.append((width, height))

    server = serving._viewer_server("true", "127.0.0.1", 0, max_sessions=1)
    viewer = Viewer()
    resizes = [{"width": 120, "height": 30}, {"width": 50000, "height": 70000}, {"width": "x", "height": -1}]
    asyncio.run(server._process_messages(Browser(*(["resize", r] for r in resizes)), viewer))
    assert viewer.sizes == [(120, 30), (400, 200), (80, 1)]


def test_the_textual_serve_internals_cockpit_serve_builds_on_are_still_there():
    """cockpit/cli/serve.py uses two private names of textual-serve's Server (its docstring says why):
    a release that renames them, or changes what they take, must fail here first."""
    import inspect

    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    make_app = Server.__dict__.get("_make_app")
    assert make_app is not None and inspect.iscoroutinefunction(make_app)
    assert list(inspect.signature(make_app).parameters) == ["self"]
    process = Server.__dict__.get("_process_messages")
    assert process is not None and inspect.iscoroutinefunction(process)
    assert list(inspect.signature(process).parameters) == ["self", "websocket", "app_service"]
    # What the overrides rely on being public: the session handler, and the resize it clamps.
    assert inspect.iscoroutinefunction(Server.handle_websocket)
    assert list(inspect.signature(AppService.set_terminal_size).parameters) == ["self", "width", "height"]
    # _process_messages calls app_service.set_terminal_size for a resize: the clamp replaces exactly that.
    assert "set_terminal_size" in inspect.getsource(process)
