"""The build matrix's release channel as data, and the variants and PyPI-bound set it gives (pure, no parsing).

Kept in the domain, apart from the parser (``services.build_matrix``), because the config's PyTorch defaults
(``config.pytorch``: the init example's variants, ``[storage.pypi_bound]``'s default) are derived from the
profile's copy with these, and the config is read before the first screen, where no service is imported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cockpit.errors import ConfigError

# A variant's sub-index name, as it is put in a URL path and on the screen: ``cu130``, ``rocm7.2``, ``xpu``.
# The one rule for names written in [storage.variants] and for names derived from the build matrix. Here, not
# in ``domain.artifacts``: the config reads it before the first screen, and that module is not needed then.
VARIANT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class MatrixError(ConfigError):
    """The build matrix generator's text does not hold the dictionaries expected."""

    title = "Build matrix"


@dataclass(frozen=True)
class BuildMatrix:
    """One channel of the build matrix: Python builds (``3.14t`` free-threaded), CUDA and ROCm versions."""

    channel: str
    python: tuple[str, ...]
    cuda: tuple[str, ...]
    rocm: tuple[str, ...]
    stable_cuda: str
    cuda_not_on_windows: tuple[str, ...] = ()
    cuda_aarch64: tuple[str, ...] | None = None  # CUDA_AARCH64_ARCHES, suffix dropped; None: not in the file


@dataclass(frozen=True)
class PlatformTags:
    """The wheel platform tags of each OS the release builds for."""

    linux_x86_64: str = "manylinux_2_28_x86_64"
    linux_aarch64: str = "manylinux_2_28_aarch64"
    windows: str = "win_amd64"
    macos_arm64: str = "macosx_*_arm64"


def variant_name(kind: str, version: str = "") -> str:
    """The sub-index a variant's wheels live in: ``cu130``, ``rocm7.2``, ``xpu``, ``cpu``."""
    if kind == "cuda":
        return "cu" + version.replace(".", "")
    if kind == "rocm":
        return f"rocm{version}"
    return kind


def expected_variants(
    matrix: BuildMatrix, tags: PlatformTags = PlatformTags(), *, xpu: bool = True
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each variant of the release and the platforms its wheels are built for, as the matrix says.

    CPU everywhere; CUDA on Linux x86_64 and Windows (less the versions kept off Windows), and on Linux
    aarch64 those of ``CUDA_AARCH64_ARCHES`` (``generate_wheels_matrix`` builds them there), or the stable
    CUDA alone when the file has no such list; ROCm on Linux x86_64; XPU on Linux x86_64 and Windows.
    Every Linux x86_64 wheel carries the manylinux 2.28 tag. A name that is not a sub-index name
    (``VARIANT_NAME``) is a ``MatrixError``: it would be put in a URL.
    """
    variants: list[tuple[str, tuple[str, ...]]] = [
        ("cpu", (tags.linux_x86_64, tags.linux_aarch64, tags.windows, tags.macos_arm64))
    ]
    on_aarch64 = (matrix.stable_cuda,) if matrix.cuda_aarch64 is None else matrix.cuda_aarch64
    for cuda in matrix.cuda:
        platforms = [tags.linux_x86_64]
        if cuda in on_aarch64:
            platforms.append(tags.linux_aarch64)
        if cuda not in matrix.cuda_not_on_windows:
            platforms.append(tags.windows)
        variants.append((variant_name("cuda", cuda), tuple(platforms)))
    variants.extend((variant_name("rocm", rocm), (tags.linux_x86_64,)) for rocm in matrix.rocm)
    if xpu:
        variants.append(("xpu", (tags.linux_x86_64, tags.windows)))
    for name, _platforms in variants:
        if not VARIANT_NAME.match(name):
            raise MatrixError(f"{name!r} is not a variant name such as cu130 or rocm7.2")
    return tuple(variants)


def bound_table(bound: Sequence[tuple[str, str]], stable_cuda: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``pypi.bound_variants`` pairs as ``[storage.pypi_bound]`` holds them (variant -> platforms), the
    ``stable_cuda`` one named by ``stable_cuda``; ``""`` (no local version, macOS) is the ``cpu`` entry's."""
    table: dict[str, list[str]] = {}
    for platform, which in bound:
        variant = variant_name("cuda", stable_cuda) if which == "stable_cuda" else which or "cpu"
        table.setdefault(variant, []).append(platform)
    return tuple((variant, tuple(platforms)) for variant, platforms in table.items())


def bound_pairs(raw: object) -> tuple[tuple[str, str], ...]:
    """The profile's ``pypi.bound_variants`` as (platform, variant) pairs; ``MatrixError`` for another shape."""
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw
    ):
        raise MatrixError(f"pypi.bound_variants must be a list of [platform, variant] pairs, got {raw!r}")
    return tuple((p[0], p[1]) for p in raw)


def matrix_from_profile(values: Mapping[str, object]) -> BuildMatrix:
    """A ``BuildMatrix`` from the profile's recorded copy (used until the file itself is read)."""

    def strs(key: str) -> tuple[str, ...]:
        raw = values[key]
        if not isinstance(raw, list | tuple) or not all(isinstance(v, str) for v in raw):
            raise MatrixError(f"{key} must be a list of strings, got {raw!r}")
        return tuple(raw)

    stable = values["variants.stable_cuda"]
    if not isinstance(stable, str):
        raise MatrixError(f"variants.stable_cuda must be a string, got {stable!r}")
    return BuildMatrix(
        channel="release",
        python=strs("python.release_builds"),
        cuda=strs("variants.cuda"),
        rocm=strs("variants.rocm"),
        stable_cuda=stable,
        cuda_not_on_windows=strs("variants.cuda_not_on_windows"),
        cuda_aarch64=strs("variants.cuda_aarch64") if "variants.cuda_aarch64" in values else None,
    )
