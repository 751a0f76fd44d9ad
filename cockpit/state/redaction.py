"""Tokens never reach a file: anything shaped like a GitHub token, and the token the session uses,
is replaced by ``[redacted token]`` in whatever the cockpit writes (state file, audit log, debug log).
"""

from __future__ import annotations

import re
import threading
from typing import Any

REDACTED = "[redacted token]"
# Classic tokens (ghp_ personal, gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_ refresh)
# and fine-grained ones (github_pat_). Not anchored on word boundaries: a token glued to other text
# ("GH_TOKEN=xghp_...", "ghp_..._suffix") is still a token.
_TOKEN = re.compile(r"gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}")
_MIN_SECRET = 8
"""Shorter values are not remembered: replacing a common word everywhere would garble the file."""

_lock = threading.Lock()
_secrets: set[str] = set()


def add_secret(secret: str | None) -> None:
    """Remember a value that must never be written (the token in use, whatever its shape)."""
    if secret and len(secret) >= _MIN_SECRET:
        with _lock:
            _secrets.add(secret)


def forget_secrets() -> None:
    """Forget every remembered value (tests)."""
    with _lock:
        _secrets.clear()


def redact(text: str) -> str:
    """``text`` without the session's token or anything shaped like a GitHub token."""
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return _TOKEN.sub(REDACTED, text)


def redact_all(value: Any) -> Any:
    """``value`` with every string in it redacted: table keys, values, list items, at any depth."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_all(item) for item in value]
    return value
