"""The build matrix generator the sandbox serves, so that the cockpit reads its Python builds as it does PyTorch's.

``add_build_matrix(world)`` puts a small module of our own at ``tools/scripts/generate_binary_build_matrix.py``
on ``main`` of ``pytorch/test-infra`` (the repository and file ``[storage] build_matrix_repository`` and
``build_matrix_file`` default to, from the profile), read through the contents API. It holds only the
dictionaries the cockpit reads, shaped as test-infra's are (a channel -> versions literal each); its
``release`` channel is exactly the builds of the world's wheels (``world_wheels.PYTHON_TAGS``: 3.10 to
3.13 and the free-threaded 3.13t) and its CUDA and ROCm versions are the world's variants (the CUDA built on
aarch64 too, in ``CUDA_AARCH64_ARCHES``), so the variants derived from it are exactly ``VARIANTS``. The ``test`` and
``nightly`` channels add a pre-release CPython, as the real file does, which the release must not expect.
"""

from __future__ import annotations

import hashlib

from cockpit.sandbox.model import SbRepo, World
from cockpit.sandbox.world_wheels import ARM, PYPI_BOUND, PYTHON_TAGS, VARIANTS, X86

REPOSITORY, PATH, REF = "pytorch/test-infra", "tools/scripts/generate_binary_build_matrix.py", "main"
PRERELEASE = ("3.14", "3.14t")  # in the test and nightly channels only: not yet released


def builds(tags: tuple[str, ...] = PYTHON_TAGS) -> tuple[str, ...]:
    """``cp313t`` -> ``3.13t``: the build each wheel tag comes from."""
    return tuple(f"{t[2]}.{t[3:].removesuffix('t')}{'t' if t.endswith('t') else ''}" for t in tags)


def _versions(prefix: str, platform: str = X86) -> list[str]:
    names = [v.removeprefix(prefix) for v, on in VARIANTS.items() if v.startswith(prefix) and platform in on]
    return [f"{n[:-1]}.{n[-1]}" if prefix == "cu" else n for n in names]


def generator_text(python: tuple[str, ...] | None = None) -> str:
    """The sandbox's generator module: its channels' Python builds, CUDA and ROCm versions."""
    release = list(builds() if python is None else python)
    cuda, rocm = _versions("cu"), _versions("rocm")
    # the stable CUDA is the one whose Linux x86_64 wheels go to PyPI ([storage.pypi_bound]: cu126)
    stable = next(
        f"{v[2:-1]}.{v[-1]}" for v, platforms in PYPI_BOUND.items() if v.startswith("cu") and X86 in platforms
    )
    channels = {"nightly": release + list(PRERELEASE), "test": release + list(PRERELEASE), "release": release}
    lines = [
        '"""Which wheels the sandbox\'s torchlet is built as, per channel (a stand-in for test-infra\'s generator)."""',
        "",
        f"PYTHON_ARCHES_DICT = {channels!r}",
        f"CUDA_ARCHES_DICT = {dict.fromkeys(channels, cuda)!r}",
        f"ROCM_ARCHES_DICT = {dict.fromkeys(channels, rocm)!r}",
        f"STABLE_CUDA_VERSIONS = {dict.fromkeys(channels, stable)!r}",
        "CUDA_ARCHES_NO_WINDOWS = []",
        # the CUDA builds on aarch64, spelt as test-infra's are (13.0-aarch64): the world's cu128 only
        f"CUDA_AARCH64_ARCHES = {[f'{v}-aarch64' for v in _versions('cu', ARM)]!r}",
        "",
        "",
        "def main() -> None:",
        '    raise SystemExit("the sandbox only serves this file; nothing runs it")',
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
        "",
    ]
    return "\n".join(lines)


def add_build_matrix(world: World) -> None:
    """Serve the generator on ``main`` of the sandbox's ``pytorch/test-infra`` (see the module docstring)."""
    text = generator_text()
    head = hashlib.sha1(f"test-infra:{text}".encode()).hexdigest()
    repo = world.repos.setdefault(REPOSITORY, SbRepo(REPOSITORY, branches={REF: head}))
    repo.files.setdefault(REF, {})[PATH] = text
