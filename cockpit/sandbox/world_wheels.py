"""Release-candidate wheels in the test channel, the previous release in stable, and PyPI.

The RC set is every platform x Python tag, except exactly one missing file; exactly one file is
over PyPI's 1000 MB limit (an ``all_green`` world has neither: every wheel staged, each in bounds). Stable holds the previous patch release; PyPI has 2.4.0 and 2.4.1.
"""

from __future__ import annotations

import hashlib
import random

from cockpit.sandbox.model import SbPyPIRelease, SbWheel
from cockpit.sandbox.world_names import DAY, T_CUT, iso

PACKAGE = "torchlet"
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64")
PYTHON_TAGS = ("cp310", "cp311", "cp312", "cp313", "cp313t")
PREVIOUS_TAGS = ("cp39", "cp310", "cp311", "cp312")
MB = 1024 * 1024
_BASE_MB = {"manylinux_2_28_x86_64": 780, "manylinux_2_28_aarch64": 160, "win_amd64": 210, "macosx_11_0_arm64": 72}
MISSING = ("win_amd64", "cp313t")
OVERSIZE = ("manylinux_2_28_x86_64", "cp313t")


def wheel_name(package: str, version: str, tag: str, platform: str) -> str:
    """``torchlet-2.5.0-cp312-cp312-manylinux_2_28_x86_64.whl``; free-threaded is ``cp313-cp313t``."""
    python = tag.rstrip("t")
    return f"{package}-{version}-{python}-{tag}-{platform}.whl"


def _wheel(rng: random.Random, seed: int, channel: str, version: str, tag: str, platform: str, size_mb: float) -> SbWheel:
    name = wheel_name(PACKAGE, version, tag, platform)
    size = int(size_mb * MB) + rng.randrange(MB)
    return SbWheel(channel, PACKAGE, name, size, hashlib.sha256(f"{seed}:{channel}:{name}".encode()).hexdigest())


def wheels_and_pypi(rng: random.Random, seed: int, version: str, previous: str = "2.4.1", *,
                    all_green: bool = False) -> tuple[list[SbWheel], list[SbPyPIRelease], dict]:
    """The index's files, PyPI's releases, and ``truth["storage"]``."""
    wheels: list[SbWheel] = []
    missing, oversize = ((), ()) if all_green else (MISSING, OVERSIZE)
    for platform in PLATFORMS:
        for tag in PYTHON_TAGS:
            if (platform, tag) == missing:
                continue
            size = 1012 if (platform, tag) == oversize else _BASE_MB[platform] + rng.uniform(-8, 25)
            wheels.append(_wheel(rng, seed, "test", version, tag, platform, size))
        for tag in PREVIOUS_TAGS:
            wheels.append(_wheel(rng, seed, "stable", previous, tag, platform, _BASE_MB[platform] - 30))
    pypi = [SbPyPIRelease(PACKAGE, v, [wheel_name(PACKAGE, v, t, p) for p in PLATFORMS for t in PREVIOUS_TAGS],
                          iso(T_CUT - days * DAY)) for v, days in (("2.4.0", 75), (previous, 20))]
    truth = {"missing": [wheel_name(PACKAGE, version, missing[1], missing[0])] if missing else [],
             "oversize": [wheel_name(PACKAGE, version, oversize[1], oversize[0])] if oversize else [],
             "expected_count": len(PLATFORMS) * len(PYTHON_TAGS), "channel": "test", "stable_version": previous}
    return wheels, pypi, truth
