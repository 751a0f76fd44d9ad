"""Storage: the RC channel's project pages (the plain index and each variant's sub-index) with HEAD
sizes and PEP 658 metadata, and whether PyPI has the version."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING

from cockpit.domain.reports import StorageGateReport
from cockpit.errors import ConfigError, GitError, ProjectNotFound, ReadOnlyError, StateError, StorageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from cockpit.domain.artifacts import ExpectedArtifact, IndexFile
    from cockpit.domain.blame import SizeJump
    from cockpit.ports import Ports


def rc_size_history(backend: Ports, found: list[IndexFile]) -> tuple[dict[str, dict[str, int]], str]:
    """The recorded sizes of earlier RCs, with the ones just observed under the clone's newest RC tag
    (returned beside them; "" when the clone has none).

    The test channel holds only the current RC's files, so this load's sizes are recorded in the
    session state (not in a read-only session: there they are shown, not kept). A clone that cannot
    list its tags, or has no RC tag yet, records nothing: the sizes would have no RC to belong to.
    """
    from cockpit.services.clone_refs import rc_tags
    from cockpit.services.rc_sizes import with_current

    observed = {f.filename: f.size for f in found if f.size is not None and not f.yanked}
    state = backend.state
    recorded = state.rc_sizes()
    try:
        tags = rc_tags(backend.git.tags(), backend.config.release.version)
    except (GitError, OSError):
        return recorded, ""
    if not tags:
        return recorded, ""
    if not backend.read_only and not state.read_only and observed:
        with suppress(StateError, ReadOnlyError):  # the gate does not hang on the history; the state pane says why
            state.record_rc_sizes(tags[-1], observed)
    return with_current(recorded, tags[-1], observed), tags[-1]


def load_storage(backend: Ports) -> StorageGateReport:
    from cockpit.loaders.build_matrix import python_builds, release_indexes, with_source
    from cockpit.loaders.sizes import wheel_sizes
    from cockpit.services.storage import (
        expected_artifacts,
        pypi_gate,
        storage_gate,
        validate_rc,
    )
    from cockpit.services.variant_sizes import pypi_matcher

    st, version = backend.config.storage, backend.config.release.version
    if backend.wheel_index is None or not st.packages:
        raise ConfigError(
            f"{backend.config.path}: table [storage] needs 'index_url' and 'packages' to check release candidates"
        )
    builds, where = python_builds(backend), release_indexes(backend)
    tags = builds.tags
    index = backend.wheel_index
    expected: list[ExpectedArtifact] = []
    listed: list[IndexFile] = []
    absent: list[tuple[str, str]] = []
    not_found: list[str] = []
    for package in st.packages:
        for variant, platforms in where.indexes:
            expected.extend(expected_artifacts([package], version, platforms, tags, variant=variant))
            try:
                listed.extend(index.project_files(package, channel="test", variant=variant))
            except ProjectNotFound as exc:  # nothing staged there: its wheels are missing, the rest still judged
                absent.append((package, variant))
                not_found.append(exc.message)
    # One batch for every page's files: the index's concurrency is shared, and an index that stops
    # answering costs a couple of timeouts for the whole RC, not a couple per page.
    found = index.with_metadata(index.with_sizes(listed))
    if absent and len(absent) == len(st.packages) * len(where.indexes):
        raise StorageError(
            f"{not_found[0]}; every project page answered 404: check [storage] index_url, "
            "packages and variants in the config"
        )
    report = validate_rc(
        expected,
        found,
        version=version,
        size_limit_mb=st.size_limit_mb,
        size_warn_mb=st.size_warn_mb,
        index_url=st.index_url,
        absent=absent,
        goes_to_pypi=_faces_limit(pypi_matcher(where.pypi_bound)),
    )
    report = replace(report, absent_pages=tuple(not_found))
    versions: list[str] = []
    if backend.pypi is not None:
        for package in st.packages:
            versions.extend(backend.pypi.versions(package))
    published = version in versions
    report = replace(report, published_on_pypi=published, pypi_versions=tuple(versions))
    rc_sizes, tag = rc_size_history(backend, found)
    sizes_gate, release_sizes, flagged = wheel_sizes(backend, found, rc_sizes, tag, where)
    jumps = _size_jumps(backend, rc_sizes, release_sizes)
    result = StorageGateReport(
        report=report,
        gate=with_source(storage_gate(report), builds, where),
        pypi_gate=pypi_gate(published, version),
        rc_sizes=rc_sizes,
        sizes_gate=sizes_gate,
        release_sizes=release_sizes,
        size_flagged=flagged,
        pypi_bound=where.pypi_bound,
        size_jumps=jumps,
    )
    backend.shared.pypi_gate = result.pypi_gate  # the checklist actions lock the PyPI step on it
    return result


def _size_jumps(
    backend: Ports, rc_sizes: dict[str, dict[str, int]], release: tuple[str, dict[str, int]]
) -> tuple[SizeJump, ...]:
    """The size jumps between builds with their commits; none when the clone cannot be read (the gate
    still judges the sizes)."""
    from cockpit.errors import CockpitError
    from cockpit.loaders.blame import size_jumps

    try:
        return tuple(size_jumps(backend, rc_sizes, release))
    except CockpitError:
        return ()


def _faces_limit(goes_to_pypi: Callable[[str, str], bool]) -> Callable[[IndexFile], bool]:
    """Whether an index file faces PyPI's limit: its sub-index's variant (or its local version, in the
    plain index) and its platform are PyPI-bound."""
    from cockpit.services.wheel_names import parse_wheel_filename

    def faces(file: IndexFile) -> bool:
        wheel = parse_wheel_filename(file.filename)
        if wheel is None:
            return True
        return goes_to_pypi(file.variant or wheel.local_version, wheel.platform)

    return faces
