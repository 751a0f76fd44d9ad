"""What every emulator does as an HTTP server: it ends its clients' connections when it stops."""

from __future__ import annotations

import threading

import httpx

from cockpit.sandbox.http_base import SandboxServer


def _handler_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "process_request_thread" in t.name}


def test_stopping_an_emulator_ends_the_connections_its_clients_keep_open():
    """A client keeps its HTTP/1.1 connection open between requests (httpx does), and the server's
    thread for it waits for the next request. A stopped emulator must not leave that thread waiting for
    ever: in the test suite each one held a whole cockpit, and a worker ended with hundreds of them."""
    before = _handler_threads()
    server = SandboxServer()
    url = server.start()
    with httpx.Client() as client:
        assert client.get(f"{url}/anything").status_code == 404
        assert client.get(f"{url}/again").status_code == 404  # the same connection, kept open
        waiting = _handler_threads() - before
        assert waiting, "the connection's handler thread waits for the next request"
        server.stop()
        for thread in waiting:
            thread.join(timeout=20)  # bounds a hang; ending the connection takes milliseconds
        assert not [t for t in waiting if t.is_alive()]


def test_an_emulator_started_again_after_stopping_answers_on_its_new_address():
    server = SandboxServer()
    first = server.start()
    server.stop()
    second = server.start()
    try:
        with httpx.Client() as client:
            assert client.get(f"{second}/x").status_code == 404
    finally:
        server.stop()
    assert first.startswith("http://127.0.0.1:") and second.startswith("http://127.0.0.1:")
