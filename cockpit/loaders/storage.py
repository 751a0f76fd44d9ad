"""Storage: the RC channel's project pages (the plain index and each variant's sub-index) with HEAD
sizes and PEP 658 metadata, and whether PyPI has the version."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from cockpit.domain.reports import StorageGateReport
from cockpit.errors import ConfigError, ProjectNotFound, StorageError

if TYPE_CHECKING:
    from cockpit.domain.artifacts import ExpectedArtifact, IndexFile
    from cockpit.ports import Ports


def release_date(backend: Ports) -> date:
    """The configured release date (for the Python support policy), else today."""
    text = backend.config.storage.release_date
    if text:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ConfigError(
                f"{backend.config.path}: key 'storage.release_date': expected an ISO date like 2026-12-10, got {text!r}"
            ) from None
    return backend.clock().date()


def load_storage(backend: Ports) -> StorageGateReport:
    from cockpit.services.storage import (
        expected_artifacts,
        pypi_gate,
        storage_gate,
        validate_rc,
    )
    from cockpit.services.support_policy import default_python_tags

    st, version = backend.config.storage, backend.config.release.version
    if backend.wheel_index is None or not st.packages:
        raise ConfigError(
            f"{backend.config.path}: table [storage] needs 'index_url' and 'packages' to check release candidates"
        )
    tags = st.python_tags or default_python_tags(release_date(backend), free_threaded=st.free_threaded)
    index = backend.wheel_index
    expected: list[ExpectedArtifact] = []
    found: list[IndexFile] = []
    absent: list[tuple[str, str]] = []
    not_found: list[str] = []
    for package in st.packages:
        for variant, platforms in st.indexes:
            expected.extend(expected_artifacts([package], version, platforms, tags, variant=variant))
            try:
                files = index.project_files(package, channel="test", variant=variant)
            except ProjectNotFound as exc:  # nothing staged there: its wheels are missing, the rest still judged
                absent.append((package, variant))
                not_found.append(exc.message)
                continue
            found.extend(index.with_metadata(index.with_sizes(files)))
    if absent and len(absent) == len(st.packages) * len(st.indexes):
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
    )
    report = replace(report, absent_pages=tuple(not_found))
    versions: list[str] = []
    if backend.pypi is not None:
        for package in st.packages:
            versions.extend(backend.pypi.versions(package))
    published = version in versions
    report = replace(report, published_on_pypi=published, pypi_versions=tuple(versions))
    result = StorageGateReport(report=report, gate=storage_gate(report), pypi_gate=pypi_gate(published, version))
    backend.shared.pypi_gate = result.pypi_gate  # the checklist actions lock the PyPI step on it
    return result
