"""The Python builds the release's wheels must cover: ``[storage] python_tags``, else the build matrix.

PyTorch does not derive its Python versions from a rule: test-infra's build matrix generator
(``[storage] build_matrix_file`` in ``build_matrix_repository``, read on its default branch through the
GitHub port) lists the builds of its ``release`` channel, free-threaded ones (``3.13t``) included. The
file is parsed as data (``services.build_matrix``), never run. One read serves every pane for
``MATRIX_REUSE_S`` (``SharedResults.python_builds``); a read that fails is not kept, so the next load
tries again. When it cannot be read (offline, 404, not Python, dictionaries missing or mistyped) the
profile's recorded copy (``python.release_builds``) is used and the source line says so, with the reason:
the gates never pass on a guess they do not state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from cockpit.domain.artifacts import PythonBuilds
from cockpit.errors import CockpitError

if TYPE_CHECKING:
    from cockpit.domain.gates import Gate
    from cockpit.ports import GitHubPort, Ports

MATRIX_REUSE_S = 600.0  # the generator changes with a release's build matrix, not between two loads
CHANNEL = "release"  # PYTHON_ARCHES_DICT's channel for a release's builds (the profile's python.release_builds)


def python_builds(backend: Ports) -> PythonBuilds:
    """The configured tags, else the build matrix's release builds, else the profile's copy with the reason."""
    st = backend.config.storage
    if st.python_tags:
        return PythonBuilds(
            st.python_tags, st.python_tags, f"Python builds: {_listed(st.python_tags)} ([storage] python_tags)"
        )
    try:
        return backend.shared.python_builds.get(lambda: read_python_builds(backend), reuse_within=MATRIX_REUSE_S)
    except CockpitError as exc:
        return profile_builds(unreadable(exc))


def read_python_builds(backend: Ports) -> PythonBuilds:
    """The release channel's builds as the configured generator file says (see ``read_matrix``)."""
    st = backend.config.storage
    return read_matrix(backend.github, st.build_matrix_repository, st.build_matrix_file)


def read_matrix(github: GitHubPort, repo: str, path: str) -> PythonBuilds:
    """The release channel's builds of the generator ``path`` in ``repo`` (its default branch, the profile's
    ``python.matrix_ref``); a ``CockpitError`` saying why it cannot be read (``unreadable`` words it)."""
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
    tags = python_tags(matrix.python)
    where = f"{repo} {path} at {ref}" + (f", blob {found.sha[:8]}" if found.sha else "")
    return PythonBuilds(
        tags,
        python_tags(matrix.python, not_for_pypi=NOT_STAGED_FOR_PYPI),
        f"Python builds: {_listed(matrix.python)} (PYTHON_ARCHES_DICT[{CHANNEL!r}] of {where})",
    )


def unreadable(exc: CockpitError) -> str:
    """Why the matrix was not read, one inert line: what a ``MatrixError`` read, or who a GitHub error was from."""
    from cockpit.domain.text import inert
    from cockpit.services.build_matrix import MatrixError

    return inert(exc.message if isinstance(exc, MatrixError) else str(exc))


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


def with_source(gate: Gate, builds: PythonBuilds) -> Gate:
    """``gate`` with the builds' source as its first detail line; a fallback also says so in the summary."""
    summary = gate.summary + (
        " (Python builds: the profile's copy, the build matrix was unreadable)" if builds.fallback else ""
    )
    return replace(gate, summary=summary, details=(builds.source, *gate.details))


def _listed(values: tuple[str, ...]) -> str:
    return ", ".join(values)
