"""Storage: the RC channel's PEP 503 page with HEAD sizes, and whether PyPI has the version."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from cockpit.domain.reports import StorageGateReport
from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from cockpit.ports import Ports


def release_date(backend: "Ports") -> date:
    """The configured release date (for the Python support policy), else today."""
    text = backend.config.storage.release_date
    if text:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ConfigError(f"{backend.config.path}: key 'storage.release_date': expected an ISO date like 2026-12-10, got {text!r}") from None
    return backend.clock().date()


def load_storage(backend: "Ports") -> StorageGateReport:
    from cockpit.services.storage import (
        expected_artifacts,
        pypi_gate,
        storage_gate,
        validate_rc,
    )
    from cockpit.services.support_policy import default_python_tags

    st, version = backend.config.storage, backend.config.release.version
    if backend.wheel_index is None or not st.packages:
        raise ConfigError(f"{backend.config.path}: table [storage] needs 'index_url' and 'packages' to check release candidates")
    tags = st.python_tags or default_python_tags(release_date(backend), free_threaded=st.free_threaded)
    expected = expected_artifacts(st.packages, version, st.platforms, tags)
    found = []
    for package in st.packages:
        found.extend(backend.wheel_index.with_sizes(backend.wheel_index.project_files(package, channel="test")))
    report = validate_rc(expected, found, version=version, size_limit_mb=st.size_limit_mb,
                         size_warn_mb=st.size_warn_mb, index_url=st.index_url)
    versions: list[str] = []
    if backend.pypi is not None:
        for package in st.packages:
            versions.extend(backend.pypi.versions(package))
    published = version in versions
    report = replace(report, published_on_pypi=published, pypi_versions=tuple(versions))
    result = StorageGateReport(report=report, gate=storage_gate(report), pypi_gate=pypi_gate(published, version))
    backend.shared.pypi_gate = result.pypi_gate  # the checklist actions lock the PyPI step on it
    return result
