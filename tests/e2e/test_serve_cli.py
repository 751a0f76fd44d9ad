"""`cockpit serve` on the sandbox release, without a browser: the page it serves, and the session a
websocket opens, are a read-only viewer that never holds the state file's lock, whatever the page's
query asks for; Ctrl-C (SIGTERM) stops it cleanly."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest

from cockpit.state.store import StateStore

from .serving import HANG_GUARD, served

pytestmark = pytest.mark.slow


async def _viewer_screen(url: str, until: str) -> str:
    """Open a browser's websocket session (with a query asking for write access) and collect what the
    viewer draws until ``until`` appears."""
    ws_url = url.replace("http://", "ws://").rstrip("/") + "/ws?width=140&height=40&read_only=0&take_over=1"
    drawn = ""
    async with aiohttp.ClientSession() as session, session.ws_connect(ws_url) as socket:
        async with asyncio.timeout(HANG_GUARD):
            async for message in socket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    drawn += message.data.decode("utf-8", "replace")
                if until in drawn:
                    return drawn
    raise AssertionError(f"the session ended before showing {until!r}")


def test_a_browser_session_is_a_viewer_that_never_takes_the_lock(sandbox):
    state = sandbox.config.resolved_state_path
    manager = StateStore(state)
    manager.set_signoff("tag_final_rc", done=True, who="Release Manager")
    manager.close()  # the release manager steps away: the lock is free for anyone who would take it
    before = state.read_bytes()
    sandbox.github.request_log.clear()

    with served(sandbox.config_path) as server:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", server.url)
        assert not any("warning" in line for line in server.said), server.said

        async def visit() -> None:
            async with aiohttp.ClientSession() as session, session.get(server.url + "?read_only=0") as page:
                assert page.status == 200
                assert "Release Cockpit" in await page.text() and "(read-only)" in await page.text()
            drawn = await _viewer_screen(server.url, "READ-ONLY")
            assert "Release Cockpit" in drawn
            returning = StateStore(state)  # the viewer is running: the release manager still gets the lock
            try:
                assert not returning.read_only, returning.read_only_reason
            finally:
                returning.close()

        asyncio.run(visit())
        assert server.stop() == 0, server.said

    assert "stopped serving" in server.said
    assert state.read_bytes() == before
    assert {entry["method"] for entry in sandbox.github.log()} <= {"GET", "HEAD"}
