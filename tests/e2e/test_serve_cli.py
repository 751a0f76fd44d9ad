"""`cockpit serve` on the sandbox release, without a browser: the page it serves, and the session a
websocket opens, are a read-only viewer that never holds the state file's lock, whatever the page's
query asks for; Ctrl-C (SIGTERM) with a session open stops it cleanly, viewer included."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time

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
        assert took < 15, f"stopping took {took:.1f}s with a browser session open"
        with pytest.raises(ProcessLookupError):  # no viewer of this server is left running
            os.killpg(server.process.pid, 0)

    assert "stopped serving" in server.said
    assert state.read_bytes() == before
    assert {entry["method"] for entry in sandbox.github.log()} <= {"GET", "HEAD"}
