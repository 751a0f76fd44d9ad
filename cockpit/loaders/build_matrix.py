"""The builds the release's wheels must cover: ``[storage] python_tags`` and ``variants``, else the build matrix.

PyTorch does not derive its Python versions or its CUDA, ROCm and XPU variants from a rule: test-infra's
build matrix generator (``[storage] build_matrix_file`` in ``build_matrix_repository``, read on its default
branch through the GitHub port) lists them for its ``release`` channel. The file is parsed as data
(``services.build_matrix``), never run. One read gives both, and serves every pane for ``MATRIX_REUSE_S``
(``SharedResults.build_matrix``); a read that fails is not kept, so the next load tries again. When it
cannot be read (offline, 404, not Python, dictionaries missing or mistyped, a version that is not one)
the profile's recorded copy (``python.release_builds``, ``[variants]``) is used and the source line says
so, with the reason: the gates never pass on a guess they do not state.

The indexes: a config naming any (``[storage] platforms`` for the plain index, or ``[storage.variants]``)
gets exactly those, as before; one naming neither gets the matrix's variants, each in its sub-index, with
the profile's platform tags, and no plain index (it lists the same wheels again). ``[storage.pypi_bound]``
left at its default then follows the matrix's stable CUDA.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cockpit.domain.artifacts import MatrixRead, PythonBuilds, ReleaseIndexes
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.domain.gates import Gate
    from cockpit.ports import GitHubPort, Ports
    from cockpit.services.build_matrix import BuildMatrix

MATRIX_REUSE_S = 600.0  # the generator changes with a release's build matrix, not between two loads
CHANNEL = "release"  # the generator's channel for a release's builds (the profile's python.release_builds)
_TABLES = f"CUDA_ARCHES_DICT[{CHANNEL!r}], ROCM_ARCHES_DICT[{CHANNEL!r}]"


def python_builds(backend: Ports) -> PythonBuilds:
    """The configured tags, else the build matrix's release builds, else the profile's copy with the reason."""
    st = backend.config.storage
    if st.python_tags:
        return PythonBuilds(
            st.python_tags, st.python_tags, f"Python builds: {_listed(st.python_tags)} ([storage] python_tags)"
        )
    return matrix_read(backend).builds


def release_indexes(backend: Ports) -> ReleaseIndexes:
    """The configured indexes and PyPI-bound set, else the build matrix's variants (see the module docstring)."""
    st = backend.config.storage
    if st.indexes_configured:
        named = ", ".join(v or "the plain index" for v, _p in st.indexes)
        return ReleaseIndexes(st.indexes, st.pypi_bound, f"Variants: {named} ([storage] platforms / variants)")
    derived = matrix_read(backend).indexes
    return derived if st.pypi_bound_default else replace(derived, pypi_bound=st.pypi_bound)


def matrix_read(backend: Ports) -> MatrixRead:
    """One read of the configured generator for every pane (``MATRIX_REUSE_S``), else the profile's copy."""
    st = backend.config.storage
    try:
        return backend.shared.build_matrix.get(
            lambda: read_release_matrix(backend.github, st.build_matrix_repository, st.build_matrix_file),
            reuse_within=MATRIX_REUSE_S,
        )
    except CockpitError as exc:
        return profile_read(unreadable(exc))


def read_release_matrix(github: GitHubPort, repo: str, path: str) -> MatrixRead:
    """The release channel's builds and variants of the generator ``path`` in ``repo`` (its default branch,
    the profile's ``python.matrix_ref``); a ``CockpitError`` saying why it cannot be read (``unreadable``)."""
    from cockpit.config.pytorch import BUILD_MATRIX_REF, NOT_STAGED_FOR_PYPI
    from cockpit.services.build_matrix import MatrixError, python_tags, read_build_matrix

    ref = BUILD_MATRIX_REF
    found = github.repo_file(repo, path, ref)
    if found is None:
        raise MatrixError(f"{repo} has no {path} at {ref} (404)")
    if found.text is None:
        raise MatrixError(f"{repo} {path} at {ref}: the contents API sent no UTF-8 text (size {found.size} bytes)")
    matrix = read_build_matrix(found.text, CHANNEL)
    if not matrix.python:
        raise MatrixError(f"PYTHON_ARCHES_DICT[{CHANNEL!r}] lists no Python build")
    where = f"{repo} {path} at {ref}" + (f", blob {found.sha[:8]}" if found.sha else "")
    builds = PythonBuilds(
        python_tags(matrix.python),
        python_tags(matrix.python, not_for_pypi=NOT_STAGED_FOR_PYPI),
        f"Python builds: {_listed(matrix.python)} (PYTHON_ARCHES_DICT[{CHANNEL!r}] of {where})",
    )
    return MatrixRead(builds, _indexes(matrix, f"({_TABLES} of {where})", fallback=False))


def read_matrix(github: GitHubPort, repo: str, path: str) -> PythonBuilds:
    """The Python builds of ``read_release_matrix``."""
    return read_release_matrix(github, repo, path).builds


def _indexes(matrix: BuildMatrix, why: str, *, fallback: bool) -> ReleaseIndexes:
    from cockpit.config.pytorch import PLATFORM_TAGS, PYPI_BOUND_PAIRS, XPU
    from cockpit.services.build_matrix import bound_table, expected_variants

    variants = expected_variants(matrix, PLATFORM_TAGS, xpu=XPU)
    copy = "the profile's copy, " if fallback else ""
    return ReleaseIndexes(
        variants,
        bound_table(PYPI_BOUND_PAIRS, matrix.stable_cuda),
        f"Variants: {copy}{_listed(tuple(v for v, _p in variants))} {why}",
        derived=True,
        fallback=fallback,
    )


def unreadable(exc: CockpitError) -> str:
    """Why the matrix was not read, one inert line: what a ``MatrixError`` read, or who a GitHub error was from."""
    from cockpit.domain.text import inert
    from cockpit.services.build_matrix import MatrixError

    return inert(exc.message if isinstance(exc, MatrixError) else str(exc))


def profile_read(reason: str) -> MatrixRead:
    """The profile's recorded release builds and variants, with why the file itself was not used."""
    from cockpit.config.pytorch import PROFILE_MATRIX

    return MatrixRead(
        profile_builds(reason), _indexes(PROFILE_MATRIX, f"(build matrix unreadable: {reason})", fallback=True)
    )


def profile_builds(reason: str) -> PythonBuilds:
    """The profile's recorded release builds, with why the file itself was not used."""
    from cockpit.config.pytorch import NOT_STAGED_FOR_PYPI, RELEASE_BUILDS
    from cockpit.services.build_matrix import python_tags

    return PythonBuilds(
        python_tags(RELEASE_BUILDS),
        python_tags(RELEASE_BUILDS, not_for_pypi=NOT_STAGED_FOR_PYPI),
        f"Python builds: the profile's copy, {_listed(RELEASE_BUILDS)} (build matrix unreadable: {reason})",
        fallback=True,
    )


def with_source(gate: Gate, builds: PythonBuilds, indexes: ReleaseIndexes | None = None) -> Gate:
    """``gate`` with the builds' source as its first detail line, and the variants' when they were derived;
    a fallback also says so in the summary."""
    shown = indexes if indexes is not None and indexes.derived else None
    guessed = [
        what
        for what, used in (("Python builds", builds.fallback), ("variants", shown is not None and shown.fallback))
        if used
    ]
    summary = gate.summary + (
        f" ({' and '.join(guessed)}: the profile's copy, the build matrix was unreadable)" if guessed else ""
    )
    lines = (builds.source,) if shown is None else (builds.source, shown.source)
    return replace(gate, summary=summary, details=(*lines, *gate.details))


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(values)
