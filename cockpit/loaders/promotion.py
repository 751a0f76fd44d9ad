"""The evidence of the checklist's steps after the final RC, read for the checklist itself.

What it costs: per configured CI repository one or two workflow-runs requests (the core: the runs
of the RC tag's commit and the push runs of the tag; a domain library: its newest push runs, where
its newest RC tag is found); one ``git ls-remote --tags``; the staging channel's project pages with a
HEAD per file; the RC and stable channels' project pages per variant; one PyPI JSON request per
package. Every read that fails turns only its own gate UNKNOWN, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.promotion import RCTagRuns
from cockpit.domain.release import RC_NUMBER, VERSION_PART
from cockpit.errors import CockpitError, ProjectNotFound

if TYPE_CHECKING:
    from cockpit.domain.artifacts import ExpectedArtifact, IndexFile
    from cockpit.domain.release import CITarget
    from cockpit.ports import Ports

PUSH_RUNS = 100  # a domain library's newest push runs searched for its newest RC tag
_RC_TAG = re.compile(rf"^v({VERSION_PART})\.({VERSION_PART})\.({VERSION_PART})-rc{RC_NUMBER}$")


def promotion_gates(backend: Ports) -> dict[str, Gate]:
    """Every gate of this module by name; one whose evidence cannot be read is UNKNOWN with the reason."""
    from cockpit.services import promotion_gates as pg

    computed: dict[str, Callable[[Ports], Gate]] = {
        pg.RC_HEALTH: rc_health,
        pg.FINAL_RC_TAGGED: final_rc_tagged,
        pg.PYPI_STAGED: pypi_staged,
        pg.STABLE_PROMOTED: stable_promoted,
        pg.PYPI_PROMOTED: pypi_promoted,
    }
    gates = {}
    for name, compute in computed.items():
        try:
            gates[name] = compute(backend)
        except CockpitError as exc:
            gates[name] = Gate(name, pg.TITLES[name], GateStatus.UNKNOWN, f"could not read the evidence: {exc}")
    return gates


def _newest_rc_tag(backend: Ports) -> tuple[str, str] | None:
    """This release's newest RC tag in the clone and its commit."""
    from cockpit.services.clone_refs import rc_tags

    tags = backend.git.tags()
    found = rc_tags(tags, backend.config.release.version)
    return (found[-1], tags[found[-1]]) if found else None


def rc_health(backend: Ports) -> Gate:
    """``rc_health``: each configured repository's workflow runs on its final RC tag."""
    from cockpit.services.promotion_gates import rc_health_gate

    results = []
    for target in backend.config.ci:
        try:
            results.append(_tag_runs(backend, target))
        except CockpitError as exc:
            results.append(RCTagRuns(target.repository, "", error=str(exc)))
    return rc_health_gate(results)


def _tag_runs(backend: Ports, target: CITarget) -> RCTagRuns:
    gh, repo = backend.github, target.repository
    if repo == backend.repository:
        newest = _newest_rc_tag(backend)
        if newest is None:
            return RCTagRuns(repo, "", where=f"no v{backend.config.release.version}-rcN tag in the clone")
        tag, sha = newest
        runs = {r.id: r for r in gh.workflow_runs(repo, head_sha=sha, limit=PUSH_RUNS)}
        runs.update({r.id: r for r in gh.workflow_runs(repo, branch=tag, event="push", limit=PUSH_RUNS)})
        return RCTagRuns(repo, tag, sha, tuple(runs.values()), where="the clone")
    pushed = gh.workflow_runs(repo, event="push", limit=PUSH_RUNS)
    tagged = [(_tag_key(r.head_branch), r) for r in pushed if _RC_TAG.match(r.head_branch)]
    if not tagged:
        return RCTagRuns(repo, "", where=f"no push run on an RC tag among its newest {PUSH_RUNS} push runs")
    tag_run = max(tagged, key=lambda pair: pair[0])[1]
    tag, sha = tag_run.head_branch, tag_run.head_sha
    on_tag = tuple(r for r in pushed if r.head_branch == tag or r.head_sha == sha)
    return RCTagRuns(repo, tag, sha, on_tag, where="push runs")


def _tag_key(tag: str) -> tuple[int, ...]:
    match = _RC_TAG.match(tag)
    return tuple(int(n) for n in match.groups()) if match else ()


def final_rc_tagged(backend: Ports) -> Gate:
    """``final_rc_tagged``: the newest RC tag on the remote names the release branch head."""
    from cockpit.services.clone_refs import find_ref
    from cockpit.services.promotion_gates import final_rc_tag_gate

    remote, branch = backend.config.git.remote, backend.config.release.branch
    newest = _newest_rc_tag(backend)
    head = find_ref(backend.git, f"{remote}/{branch}", remote) or find_ref(backend.git, branch, remote)
    return final_rc_tag_gate(
        tag=newest[0] if newest else None,
        remote=remote,
        remote_tags=backend.git.remote_tags(remote) if newest else {},
        branch=branch,
        head=head.sha if head else None,
    )


def _not_configured(name: str, why: str) -> Gate:
    from cockpit.services.promotion_gates import TITLES

    return Gate(name, TITLES[name], GateStatus.UNKNOWN, why)


def pypi_staged(backend: Ports) -> Gate:
    """``pypi_staged``: the staging channel against the wheels PyPI will get, and PyPI without the version."""
    from dataclasses import replace

    from cockpit.loaders.build_matrix import python_builds, release_indexes, with_source
    from cockpit.services.promotion_gates import PYPI_STAGED, staged_gate
    from cockpit.services.storage import expected_artifacts, validate_rc

    st, version = backend.config.storage, backend.config.release.version
    if st.staging_prefix and st.packages:
        return _staged_on_s3(backend)
    index = backend.wheel_index
    if index is None or not st.packages or not st.staging_channel:
        return _not_configured(
            PYPI_STAGED, "no staging index configured: set [storage] index_url, packages and staging_channel"
        )
    builds = python_builds(backend)
    tags = builds.pypi_tags
    where = release_indexes(backend)
    platforms = st.staging_platforms or tuple(dict.fromkeys(p for _v, ps in where.indexes for p in ps))
    expected: list[ExpectedArtifact] = []
    found: list[IndexFile] = []
    absent: list[tuple[str, str]] = []
    for package in st.packages:
        expected.extend(expected_artifacts([package], version, platforms, tags))
        try:
            files = index.project_files(package, channel=st.staging_channel)
        except ProjectNotFound:
            absent.append((package, ""))
            continue
        found.extend(index.with_sizes(files))
    report = validate_rc(
        expected,
        found,
        version=version,
        size_limit_mb=st.size_limit_mb,
        size_warn_mb=st.size_warn_mb,
        index_url=st.index_url,
        absent=absent,
    )
    published = any(version in vs for vs in _pypi_versions(backend, st.packages).values())
    gate = staged_gate(
        replace(report, absent_pages=()), channel=st.staging_channel, published=published, version=version
    )
    return with_source(gate, builds, where)


def _staged_on_s3(backend: Ports) -> Gate:
    """``pypi_staged`` from the private S3 prefix (``[storage] staging_prefix``), each package's listing
    against the PyPI-bound platforms and Python tags; unreadable staging is amber with the reason."""
    from cockpit.domain.staging import StagingTrouble
    from cockpit.errors import StagingUnreadable, StorageError
    from cockpit.loaders.build_matrix import python_builds, release_indexes, with_source
    from cockpit.services.staging_gate import staged_on_s3, staging_gate, staging_url, unreadable_gate

    st, version = backend.config.storage, backend.config.release.version
    builds = python_builds(backend)
    tags = builds.pypi_tags
    where = release_indexes(backend)
    platforms = st.staging_platforms or tuple(dict.fromkeys(p for _v, ps in where.pypi_bound for p in ps))
    staging = backend.staging
    gates = []
    for package in st.packages:
        url = staging_url(st.staging_prefix, package, version)
        if staging is None:
            gates.append(unreadable_gate(StagingTrouble.NO_LIBRARY, f"{url}: no S3 reader configured"))
            continue
        try:
            listing = staging.listing(url)
        except StagingUnreadable as exc:
            return unreadable_gate(exc.trouble, exc.message)  # the same reason for every package
        except StorageError as exc:
            return unreadable_gate(StagingTrouble.UNREACHABLE, str(exc))
        gates.append(
            staging_gate(
                listing,
                package=package,
                version=version,
                python_tags=tags,
                platforms=platforms,
                limit_mb=st.size_limit_mb,
            )
        )
    published = any(version in vs for vs in _pypi_versions(backend, st.packages).values())
    return with_source(staged_on_s3(gates, published=published, version=version), builds, where)


def _pypi_versions(backend: Ports, packages: tuple[str, ...]) -> dict[str, list[str]]:
    pypi = backend.pypi
    return {package: pypi.versions(package) for package in packages} if pypi is not None else {}


def stable_promoted(backend: Ports) -> Gate:
    """``stable_promoted``: the RC channel's files of the version, every one also in the stable index."""
    from cockpit.loaders.build_matrix import release_indexes
    from cockpit.services.promotion_gates import STABLE_PROMOTED, stable_gate

    st, version = backend.config.storage, backend.config.release.version
    index = backend.wheel_index
    if index is None or not st.packages:
        return _not_configured(STABLE_PROMOTED, "no wheel index configured: set [storage] index_url and packages")
    indexes = release_indexes(backend).indexes
    expected: dict[str, str] = {}
    stable: set[str] = set()
    for package in st.packages:
        for variant, _platforms in indexes:
            try:
                rc_files = index.project_files(package, channel="test", variant=variant)
            except ProjectNotFound:
                continue
            for f in rc_files:
                if not f.yanked and _of_version(f.filename, version):
                    expected.setdefault(f.filename, variant)
            with suppress(ProjectNotFound):  # nothing of the package in stable yet
                stable.update(f.filename for f in index.project_files(package, channel="stable", variant=variant))
    return stable_gate(expected, stable, version=version)


def _of_version(filename: str, version: str) -> bool:
    """Whether a wheel's filename is of ``version`` (any local suffix: ``2.5.0+cu126``)."""
    parts = filename.split("-")
    return len(parts) > 1 and (parts[1] == version or parts[1].startswith(version + "+"))


def pypi_promoted(backend: Ports) -> Gate:
    """``pypi_promoted``: every package has the version on PyPI (then the step is locked for good)."""
    from cockpit.services.promotion_gates import PYPI_PROMOTED, pypi_promoted_gate

    st = backend.config.storage
    if backend.pypi is None:
        return _not_configured(PYPI_PROMOTED, "no PyPI configured: set [storage] pypi_url")
    return pypi_promoted_gate(_pypi_versions(backend, st.packages), version=backend.config.release.version)
