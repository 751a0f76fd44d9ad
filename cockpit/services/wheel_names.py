"""Wheel filenames and versions as the release reads them: ``name-version[-build]-python-abi-platform.whl``."""

from __future__ import annotations

import re
from dataclasses import dataclass

_RELEASE_PART = re.compile(r"^[vV]?(\d+(?:\.\d+)*)")


@dataclass(frozen=True)
class WheelName:
    """The parts of a wheel filename; tag sets stay dotted as written (``py2.py3``)."""

    name: str  # normalised: lowercase, runs of -_. become _
    version: str  # as written, local part included (2.5.0+cu130)
    python: str
    abi: str
    platform: str

    @property
    def public_version(self) -> str:
        """The version without its ``+local`` part: ``2.5.0+cu130`` -> ``2.5.0``."""
        return self.version.split("+", 1)[0]

    @property
    def local_version(self) -> str:
        """The ``+local`` part without its ``+``: ``2.5.0+cu130`` -> ``cu130``; "" when none."""
        return self.version.split("+", 1)[1] if "+" in self.version else ""

    def tags(self) -> set[tuple[str, str]]:
        """Every (python tag, platform) this wheel installs on, free-threaded abi folded in.

        Free-threaded wheels are named ``cp313-cp313t``; the release speaks of ``cp313t``.
        """
        pairs = set()
        for py in self.python.split("."):
            tag = py + "t" if self.abi == py + "t" else py
            for plat in self.platform.split("."):
                pairs.add((tag, plat))
        return pairs


def normalise_name(name: str) -> str:
    """Wheel-filename form of a project name: lowercase, runs of ``-_.`` become ``_``."""
    return re.sub(r"[-_.]+", "_", name).lower()


def parse_wheel_filename(filename: str) -> WheelName | None:
    """Split ``name-version[-build]-python-abi-platform.whl``; None when it is not a wheel name."""
    if not filename.lower().endswith(".whl"):
        return None
    parts = filename[:-4].split("-")
    if len(parts) == 6:
        del parts[2]  # the optional build tag
    if len(parts) != 5 or not all(parts):
        return None
    name, version, python, abi, platform = parts
    return WheelName(normalise_name(name), version, python, abi, platform)


def release_of(version: str) -> tuple[int, ...]:
    """The numeric release of a version, trailing zeros dropped: ``2.5.0rc1+cu130`` -> (2, 5)."""
    match = _RELEASE_PART.match(version.strip())
    if not match:
        return ()
    numbers = [int(n) for n in match.group(1).split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def same_version(found: str, release: str) -> bool:
    """Whether a wheel's version is the release's: local parts (``+cu130``) ignored, ``2.5`` == ``2.5.0``."""
    public = found.split("+", 1)[0].strip()
    if public.lower().lstrip("v") == release.strip().lower().lstrip("v"):
        return True
    if not release_of(public) or release_of(public) != release_of(release):
        return False
    numeric = _RELEASE_PART.match(public)
    return numeric is not None and numeric.end() == len(public)
