"""`cockpit serve` on the sandbox release, without a browser: the page it serves, and the session a
websocket opens, are a read-only viewer that never holds the state file's lock, whatever the page's
query asks for; Ctrl-C (SIGTERM) with a session open stops it cleanly, viewer included."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

import aiohttp
import pytest

from cockpit.state.store import StateStore

from .serving import HANG_GUARD, served

pytestmark = pytest.mark.slow


def test_a_browser_session_is_a_viewer_that_never_takes_the_lock_and_ends_with_the_server(sandbox):
    state = sandbox.config.resolved_state_path
    manager = StateStore(state)
    manager.set_signoff("tag_final_rc", done=True, who="Release Manager")
    manager.close()  # the release manager steps away: the lock is free for anyone who would take it
    before = state.read_bytes()
    sandbox.github.request_log.clear()

    with served(sandbox.config_path) as server:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", server.url)
        assert not any("warning" in line for line in server.said), server.said
        ws_url = server.url.replace("http://", "ws://") + "ws?width=140&height=40&read_only=0&take_over=1"

        async def visit() -> tuple[int, float]:
            async with aiohttp.ClientSession() as session:
                async with session.get(server.url + "?read_only=0&write=1") as page:
                    assert page.status == 200
                    assert "Release Cockpit" in await page.text() and "(read-only)" in await page.text()
                async with session.ws_connect(ws_url) as socket, asyncio.timeout(HANG_GUARD):
                    drawn = b""
                    async for message in socket:
                        drawn += message.data if message.type == aiohttp.WSMsgType.BINARY else b""
                        if b"READ-ONLY" in drawn:
                            break
                    assert b"READ-ONLY" in drawn, "the session's viewer never drew its badge"
                    returning = StateStore(state)  # the viewer is running: the release manager gets the lock
                    try:
                        assert not returning.read_only, returning.read_only_reason
                    finally:
                        returning.close()

                    stopping = time.monotonic()
                    server.process.send_signal(signal.SIGTERM)  # Ctrl-C with the session open
                    async for _ in socket:
                        pass
                    status = await asyncio.to_thread(server.process.wait, HANG_GUARD)
                    return status, time.monotonic() - stopping

        status, took = asyncio.run(visit())
        assert status == 0, server.said
        # The session is closed and its viewer told to quit at once (under a second here); left to
        # aiohttp's own shutdown, an open session held Ctrl-C up for over 20 seconds.
        assert took < 40, f"stopping took {took:.1f}s with a browser session open"
        with pytest.raises(ProcessLookupError):  # no viewer of this server is left running
            os.killpg(server.process.pid, 0)

    assert "stopped serving" in server.said
    assert state.read_bytes() == before
    assert {entry["method"] for entry in sandbox.github.log()} <= {"GET", "HEAD"}


def viewers_of(server) -> list[int]:
    """The processes `cockpit serve` started for browser sessions (its own process group, itself aside)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != server.process.pid:
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == server.process.pid:
                found.append(int(entry))
    return found


def terminal_of(pid: int) -> tuple[str, str]:
    env = dict(v.split("=", 1) for v in Path(f"/proc/{pid}/environ").read_text().split("\0") if "=" in v)
    return env.get("COLUMNS", ""), env.get("ROWS", "")


def test_a_browser_over_the_session_cap_is_told_so_and_starts_no_viewer_and_no_terminal_is_huge(sandbox):
    with served(sandbox.config_path, "--max-sessions", "1") as server:
        assert any("at most 1 browser session(s) at a time" in line for line in server.said), server.said
        ws_url = server.url.replace("http://", "ws://") + "ws"

        async def visit() -> None:
            async with (
                aiohttp.ClientSession() as session,
                asyncio.timeout(HANG_GUARD),
                session.ws_connect(ws_url + "?width=100000&height=99999") as first,
            ):
                drawn = b""
                async for message in first:
                    drawn += message.data if message.type == aiohttp.WSMsgType.BINARY else b""
                    if b"READ-ONLY" in drawn:
                        break
                viewers = viewers_of(server)
                assert viewers and {terminal_of(pid) for pid in viewers} == {("400", "200")}

                async with session.ws_connect(ws_url + "?width=80&height=24") as second:
                    message = await second.receive()
                    assert message.type == aiohttp.WSMsgType.BINARY
                    text = message.data.decode()
                    assert "already runs 1 browser session(s)" in text and "--max-sessions 1" in text
                    assert viewers_of(server) == viewers, "no viewer was started for the refused page"

        asyncio.run(visit())
        assert server.stop() == 0
