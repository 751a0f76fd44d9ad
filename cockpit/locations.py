"""The cockpit's own folder outside any release: the cache (sandbox worlds, an early debug log)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$COCKPIT_CACHE_DIR``, else ``release-cockpit`` in the XDG cache folder (``~/.cache``)."""
    if os.environ.get("COCKPIT_CACHE_DIR"):
        return Path(os.environ["COCKPIT_CACHE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "release-cockpit"
