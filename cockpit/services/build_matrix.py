"""What builds a release has, read from the build matrix generator's text, and the wheels they make.

PyTorch's policy is every CPython minor version that is not end-of-life (RFC-0038), but which builds
exist, free-threaded ones included, is what test-infra's ``generate_binary_build_matrix.py`` says for
its ``release`` (or ``test``) channel: read that, do not derive it from a rule. The file's dictionaries
(``PYTHON_ARCHES_DICT``, ``CUDA_ARCHES_DICT``, ``ROCM_ARCHES_DICT``, ``STABLE_CUDA_VERSIONS``, and the lists
``CUDA_ARCHES_NO_WINDOWS`` and ``CUDA_AARCH64_ARCHES``) are literals, read here with ``ast.literal_eval``
from text an adapter fetched; nothing is executed. A CUDA or ROCm version must be digits and dots
(``12.6``): it becomes a sub-index name (``cu126``) put in URLs and on the screen, so anything else
(``12.6; rm -rf``, an escape sequence) makes the whole matrix unreadable, said with the reason.

Platform tags: every Linux x86_64 wheel, CPU, CUDA, ROCm and XPU alike, is built in a manylinux 2.28
image and tagged ``manylinux_2_28_x86_64`` (never ``linux_x86_64``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from cockpit.domain.build_matrix import BuildMatrix as BuildMatrix
from cockpit.domain.build_matrix import MatrixError as MatrixError
from cockpit.domain.build_matrix import PlatformTags as PlatformTags
from cockpit.domain.build_matrix import bound_pairs as bound_pairs
from cockpit.domain.build_matrix import bound_table as bound_table
from cockpit.domain.build_matrix import expected_variants as expected_variants
from cockpit.domain.build_matrix import matrix_from_profile as matrix_from_profile
from cockpit.domain.build_matrix import variant_name as variant_name

CHANNELS = ("release", "test", "nightly")
_VERSION = re.compile(r"^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$")  # 12.6, 7.14: what a sub-index name is made of
AARCH64_SUFFIX = "-aarch64"  # CUDA_AARCH64_ARCHES spells its entries 13.0-aarch64


def _literal(tree: ast.Module, name: str) -> object:
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            try:
                return ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):  # e.g. {[1]: 2}: unhashable
                raise MatrixError(f"{name} in the build matrix generator is not a literal") from None
    raise MatrixError(f"the build matrix generator has no {name}")


def _versions(table: object, name: str, channel: str) -> tuple[str, ...]:
    if not isinstance(table, dict) or channel not in table:
        raise MatrixError(f"{name} has no {channel!r} channel (expected one of {', '.join(CHANNELS)})")
    values = table[channel]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise MatrixError(f"{name}[{channel!r}] must be a list of version strings, got {values!r}")
    return tuple(values)


def _checked_versions(values: Sequence[str], name: str) -> tuple[str, ...]:
    """``values`` when each is a version such as 12.6; a ``MatrixError`` naming the first that is not."""
    for value in values:
        if not _VERSION.match(value):
            raise MatrixError(f"{name} has {value!r}, which is not a version such as 12.6 or 7.2")
    return tuple(values)


def _optional_list(tree: ast.Module, name: str) -> list[str] | None:
    """A list of strings the generator may leave out (None then); another shape is a ``MatrixError``."""
    try:
        value = _literal(tree, name)
    except MatrixError as exc:
        if exc.message.startswith("the build matrix generator has no"):
            return None
        raise
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MatrixError(f"{name} must be a list of version strings, got {value!r}")
    return value


def read_build_matrix(text: str, channel: str = "release") -> BuildMatrix:
    """The ``channel`` of the matrix generator ``text``; ``MatrixError`` names what is missing."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise MatrixError(f"the build matrix generator is not Python ({exc.msg}, line {exc.lineno})") from None
    except (ValueError, RecursionError, MemoryError) as exc:  # a NUL byte; nesting too deep for the parser
        raise MatrixError(f"the build matrix generator is not Python ({type(exc).__name__})") from None
    stable = _literal(tree, "STABLE_CUDA_VERSIONS")
    if not isinstance(stable, dict) or not isinstance(stable.get(channel), str):
        raise MatrixError(f"STABLE_CUDA_VERSIONS has no {channel!r} version")
    no_windows = _optional_list(tree, "CUDA_ARCHES_NO_WINDOWS") or []
    aarch64 = _optional_list(tree, "CUDA_AARCH64_ARCHES")
    python = _versions(_literal(tree, "PYTHON_ARCHES_DICT"), "PYTHON_ARCHES_DICT", channel)
    cuda = _versions(_literal(tree, "CUDA_ARCHES_DICT"), "CUDA_ARCHES_DICT", channel)
    return BuildMatrix(
        channel=channel,
        python=python,
        cuda=_checked_versions(cuda, f"CUDA_ARCHES_DICT[{channel!r}]"),
        rocm=_checked_versions(
            _versions(_literal(tree, "ROCM_ARCHES_DICT"), "ROCM_ARCHES_DICT", channel), f"ROCM_ARCHES_DICT[{channel!r}]"
        ),
        stable_cuda=_checked_versions([stable[channel]], f"STABLE_CUDA_VERSIONS[{channel!r}]")[0],
        cuda_not_on_windows=_checked_versions(no_windows, "CUDA_ARCHES_NO_WINDOWS"),
        cuda_aarch64=None
        if aarch64 is None
        else _checked_versions([v.removesuffix(AARCH64_SUFFIX) for v in aarch64], "CUDA_AARCH64_ARCHES"),
    )


def python_tag(build: str) -> str:
    """``3.14`` -> ``cp314``; ``3.14t`` (free-threaded) -> ``cp314t``."""
    threaded = build.endswith("t")
    major, _, minor = build.removesuffix("t").partition(".")
    if not (major.isdigit() and minor.isdigit()):
        raise MatrixError(f"{build!r} is not a Python build such as 3.13 or 3.13t")
    return f"cp{major}{minor}{'t' if threaded else ''}"


def python_tags(builds: Sequence[str], *, not_for_pypi: Sequence[str] = ()) -> tuple[str, ...]:
    """The wheel tags of ``builds``, leaving out the pre-release CPythons that are not staged for PyPI."""
    return tuple(python_tag(b) for b in builds if b not in set(not_for_pypi))


def pypi_bound(variant: str, platform: str, bound: Sequence[tuple[str, str]], matrix: BuildMatrix) -> bool:
    """Whether the wheels of ``variant`` for ``platform`` go to PyPI (the profile's ``pypi.bound_variants``).

    ``bound`` pairs a platform tag (``*`` a wildcard) with ``stable_cuda``, ``cpu`` or ``""`` (wheels with
    no local version, as on macOS).
    """
    from fnmatch import fnmatchcase

    for plat, which in bound:
        wanted = variant_name("cuda", matrix.stable_cuda) if which == "stable_cuda" else which
        if fnmatchcase(platform, plat) and (variant == wanted or (not wanted and variant in ("", "cpu"))):
            return True
    return False
