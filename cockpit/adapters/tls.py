"""One TLS context for every HTTP client of the process.

httpx builds a fresh ``ssl.SSLContext`` for each client it creates, and loading the certificate bundle
costs some 65 ms of CPU each time; a session makes three clients (GitHub, the wheel index, PyPI) and the
CLI and tests build sessions again and again. The context is made on first use, from httpx's own public
``create_ssl_context`` (certifi's bundle, as httpx verifies by default), and shared: an ``SSLContext`` may
be used by many connections and threads at once.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl


@functools.cache
def shared_context() -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context()
