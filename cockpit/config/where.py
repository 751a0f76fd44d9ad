"""Where a value sits in ``cockpit.toml``: the file and the dotted key that every message names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cockpit.domain.text import inert
from cockpit.errors import ConfigError


class Where:
    """A table of the file (``prefix`` is its dotted key, "" for the top) and the warnings found so far.

    Every error is one line: ``<file>: key '<dotted key>': expected <what>, got <type> <value>``.
    """

    __slots__ = ("path", "prefix", "warnings")

    def __init__(self, path: Path, prefix: str = "", warnings: list[str] | None = None) -> None:
        self.path, self.prefix = path, prefix
        self.warnings = [] if warnings is None else warnings  # shared by a whole reading, in the order found

    @property
    def folder(self) -> Path:
        """The config's folder, which relative paths start from."""
        return self.path.parent

    def dotted(self, key: str) -> str:
        """``key`` as the file's dotted key (``storage.variants.cu126``)."""
        return f"{self.prefix}.{key}" if self.prefix else key

    def child(self, key: str) -> Where:
        """The table under ``key``."""
        return Where(self.path, self.dotted(key), self.warnings)

    def named(self, prefix: str) -> Where:
        """This table under another name in messages (``repo[1] (vision)``)."""
        return Where(self.path, prefix, self.warnings)

    def fail(self, key: str, expected: str, got: Any = None) -> ConfigError:
        """The error for a wrong value of ``key`` (``got``: the value, when showing it helps)."""
        got_text = "" if got is None else f", got {type(got).__name__} {got!r}"
        return ConfigError(inert(f"{self.path}: key '{self.dotted(key)}': expected {expected}{got_text}"))

    def missing(self, key: str, expected: str) -> ConfigError:
        """The error for a required ``key`` that is absent."""
        return ConfigError(inert(f"{self.path}: missing key '{self.dotted(key)}': expected {expected}"))

    def warn(self, text: str) -> None:
        """Note something that is not an error (an unknown key) for the command to show."""
        self.warnings.append(inert(f"{self.path}: {text}"))
