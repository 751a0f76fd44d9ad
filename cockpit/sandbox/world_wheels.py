"""Release-candidate wheels in the test channel, the previous release in stable, and PyPI.

The test channel is laid out as PyTorch's is: the core package and its domain libraries
(``PACKAGES``), each built for every accelerator variant in its own sub-index
(``/whl/test/cu126/torchlet/``; the plain ``/whl/test/torchlet/`` lists them all), with the
variant as the local version (``2.5.0+cu126``; the macOS builds of ``cpu`` have none, as torch's
do) and the platform tags each variant really publishes (``VARIANTS``: every Linux build, ROCm and
XPU too, is ``manylinux_2_28_*``: the profile's ``platform_tags``, read from test-infra's build matrix).

A normal world plants one gap of each kind, each in its own variant (``GAPS``): a missing wheel
in ``cpu`` and in ``cu128`` (an aarch64 build), a yanked file in ``cu126`` with no replacement
(PEP 592: it counts as not staged), a wheel over PyPI's 1000 MB limit in ``cu126``, and in
``rocm6.3`` a wheel whose METADATA (PEP 658) says a release-candidate version. An ``all_green``
world has none: every expected file of every variant staged, each in bounds. Stable holds the
previous patch release; PyPI has 2.4.0 and 2.4.1 of every package.

``truth["storage"]`` names every planted gap, flat (``missing``, ``yanked``, ``oversize``,
``wrong_version``) and per variant (``by_variant[variant][kind]``), with ``expected_count``,
``packages`` and ``variants`` (variant -> platforms). ``truth["storage"]["earlier_rcs"]`` holds
rc1's sizes (tag -> filename -> bytes), which the demo writes into a new state file as the cockpit
would have recorded them when it judged rc1 (``demo.seed_rc_sizes``).
"""

from __future__ import annotations

import hashlib
import random

from cockpit.domain.artifacts import ExpectedArtifact
from cockpit.sandbox.model import SbPyPIRelease, SbWheel
from cockpit.sandbox.world_names import DAY, T_CUT, iso

PACKAGE = "torchlet"
PACKAGES = ("torchlet", "torchlet-vision", "torchlet-audio")
X86, ARM, WIN, MAC = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64")
VARIANTS = {
    "cpu": (X86, ARM, WIN, MAC),
    "cu126": (X86, WIN),
    "cu128": (X86, ARM, WIN),
    "rocm6.3": (X86,),
    "xpu": (X86, WIN),
}
PLATFORMS = (X86, ARM, WIN, MAC)  # the stable channel's previous release
# The wheels that go to PyPI and face its limit, one variant a platform as PyTorch's do
# ([storage.pypi_bound]); the rest stay on the download site, judged against their own history.
PYPI_BOUND = {"cu126": (X86,), "cu128": (ARM,), "cpu": (WIN, MAC)}
PYTHON_TAGS = ("cp310", "cp311", "cp312", "cp313", "cp313t")
PREVIOUS_TAGS = ("cp39", "cp310", "cp311", "cp312")
MB = 1024 * 1024
# MiB; every healthy wheel stays under the 850 MB (decimal) warning line: 780 MiB x 1.03 is 843 MB.
_CORE_MB = {
    "cpu": {X86: 180, ARM: 140, WIN: 210, MAC: 72},
    "cu126": {X86: 760, WIN: 740},
    "cu128": {X86: 775, ARM: 700, WIN: 750},
    "rocm6.3": {X86: 780},
    "xpu": {X86: 450, WIN: 430},
}
_DOMAIN_MB = {"torchlet-vision": 7.5, "torchlet-audio": 3.4}
RC1_OVERSIZE_BYTES = 930_000_000  # the wheel over the limit at rc2 weighed 930 MB at rc1
YANK_REASON = "built against the wrong CUDA runtime; use rc3"
RC_METADATA_VERSION = "2.5.0rc2+rocm6.3"
# kind -> (package, variant, platform, python tag)
GAPS = {
    "missing": (("torchlet", "cpu", WIN, "cp313t"), ("torchlet", "cu128", ARM, "cp312")),
    "yanked": (("torchlet-audio", "cu126", WIN, "cp311"),),
    "oversize": (("torchlet", "cu126", X86, "cp313t"),),
    "wrong_version": (("torchlet-vision", "rocm6.3", X86, "cp310"),),
}


def wheel_name(package: str, version: str, tag: str, platform: str, variant: str = "") -> str:
    """``torchlet-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl``; free-threaded is ``cp313-cp313t``.

    The name's ``-`` is ``_`` in a wheel filename; the macOS builds of ``cpu`` carry no local
    version and the ``none`` ABI (``torch-2.5.0-cp312-none-macosx_11_0_arm64.whl``).
    """
    python = tag.rstrip("t")
    abi = tag
    if variant == "cpu" and platform.startswith("macosx"):
        variant, abi = "", tag if tag.endswith("t") else "none"
    local = f"+{variant}" if variant else ""
    return f"{package.replace('-', '_')}-{version}{local}-{python}-{abi}-{platform}.whl"


def _size_mb(package: str, variant: str, platform: str) -> float:
    if package in _DOMAIN_MB:
        return _DOMAIN_MB[package] * (4 if variant.startswith(("cu", "rocm")) else 1)
    return _CORE_MB[variant][platform]


def _sha(seed: int, channel: str, name: str) -> str:
    return hashlib.sha256(f"{seed}:{channel}:{name}".encode()).hexdigest()


def wheels_and_pypi(
    rng: random.Random, seed: int, version: str, previous: str = "2.4.1", *, all_green: bool = False
) -> tuple[list[SbWheel], list[SbPyPIRelease], dict]:
    """The index's files, PyPI's releases, and ``truth["storage"]``."""
    gaps = {} if all_green else {where: kind for kind, places in GAPS.items() for where in places}
    wheels: list[SbWheel] = []
    for package in PACKAGES:
        for variant, platforms in VARIANTS.items():
            for platform in platforms:
                for tag in PYTHON_TAGS:
                    gap = gaps.get((package, variant, platform, tag))
                    if gap == "missing":
                        continue
                    name = wheel_name(package, version, tag, platform, variant)
                    size = 1012 if gap == "oversize" else _size_mb(package, variant, platform) * rng.uniform(0.98, 1.03)
                    wheels.append(
                        SbWheel(
                            "test",
                            package,
                            name,
                            int(size * MB) + rng.randrange(MB // 4),
                            _sha(seed, "test", name),
                            variant=variant,
                            yanked=YANK_REASON if gap == "yanked" else None,
                            metadata_version=RC_METADATA_VERSION if gap == "wrong_version" else "",
                        )
                    )
    for platform in PLATFORMS:
        for tag in PREVIOUS_TAGS:
            name = wheel_name(PACKAGE, previous, tag, platform)
            wheels.append(
                SbWheel("stable", PACKAGE, name, int((_CORE_MB["cpu"][platform] - 30) * MB), _sha(seed, "stable", name))
            )
    pypi = [
        SbPyPIRelease(
            package,
            v,
            [wheel_name(package, v, t, p) for p in PLATFORMS for t in PREVIOUS_TAGS],
            iso(T_CUT - days * DAY),
        )
        for package in PACKAGES
        for v, days in (("2.4.0", 75), (previous, 20))
    ]
    truth = _truth(version, gaps, previous)
    truth["earlier_rcs"] = earlier_rc_sizes(wheels, version)
    return wheels, pypi, truth


def earlier_rc_sizes(wheels: list[SbWheel], version: str) -> dict[str, dict[str, int]]:
    """What rc1's wheels weighed, as a cockpit that judged rc1 would have recorded them: the channel now
    holds rc2's files only. Every wheel was a little lighter; the oversize one was already at 93% of
    the limit, so its growth towards it shows before rc2 crossed it."""
    sizes = {}
    for wheel in wheels:
        if wheel.channel != "test":
            continue
        oversize = wheel.size > 1000 * 1000 * 1000
        sizes[wheel.filename] = RC1_OVERSIZE_BYTES if oversize else int(wheel.size * 0.96)
    return {f"v{version}-rc1": sizes}


def _truth(version: str, gaps: dict, previous: str) -> dict:
    """The planted gaps, named as the storage check names them (the file, or the expected wheel's name)."""
    by_variant: dict[str, dict[str, list[str]]] = {v: {k: [] for k in GAPS} for v in VARIANTS}
    for (package, variant, platform, tag), kind in gaps.items():
        if kind == "missing":
            name = ExpectedArtifact(package, version, tag, platform, variant).filename
        else:
            name = wheel_name(package, version, tag, platform, variant)
        by_variant[variant][kind].append(name)
    flat = {kind: sorted(n for v in by_variant.values() for n in v[kind]) for kind in GAPS}
    return {
        **flat,
        "by_variant": by_variant,
        "expected_count": len(PACKAGES) * sum(len(p) for p in VARIANTS.values()) * len(PYTHON_TAGS),
        "packages": list(PACKAGES),
        "variants": {v: list(p) for v, p in VARIANTS.items()},
        "channel": "test",
        "stable_version": previous,
    }
