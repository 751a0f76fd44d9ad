"""Wheel sizes judged per variant (the ``wheel_sizes`` gate): the current RC's wheels against the same
wheels of the previous RC (recorded in the session state) and of the previous release (the stable
channel of the index), PyPI's limit on the PyPI-bound ones only.

What it costs: the stable channel's project page of each package and index, and a HEAD for each file
of the previous release that has a counterpart in the current RC (nothing else of stable is sized).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import ProjectNotFound, StorageError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from cockpit.domain.artifacts import IndexFile, ReleaseIndexes
    from cockpit.ports import Ports


def previous_release_sizes(
    backend: Ports, current: Mapping[str, int], where: ReleaseIndexes
) -> tuple[str, dict[str, int]]:
    """(``v2.4.1``, filename -> bytes) of the previous release's wheels in the stable channel (in the
    release's indexes, ``where``) that are the same wheels (package, variant, Python tag, platform) as one
    of ``current``; ("", {}) when stable has none."""
    from cockpit.services.variant_sizes import by_key, of_version, previous_release, size_key

    st, index = backend.config.storage, backend.wheel_index
    if index is None:
        return "", {}
    stable: list[IndexFile] = []
    for package in st.packages:
        for variant, _platforms in where.indexes or (("", ()),):
            with suppress(ProjectNotFound):  # nothing of the package in stable yet
                stable.extend(
                    f for f in index.project_files(package, channel="stable", variant=variant) if not f.yanked
                )
    version = previous_release((f.filename for f in stable), backend.config.release.version)
    if not version:
        return "", {}
    wanted = by_key(current).keys()
    same = {f.filename: f for f in stable if of_version(f.filename, version) and size_key(f.filename) in wanted}
    sized = index.with_sizes(same.values())
    return f"v{version}", {f.filename: f.size for f in sized if f.size is not None}


def wheel_sizes(
    backend: Ports,
    found: list[IndexFile],
    rc_history: Mapping[str, Mapping[str, int]],
    tag: str,
    where: ReleaseIndexes,
) -> tuple[Gate, tuple[str, dict[str, int]], tuple[str, ...]]:
    """The ``wheel_sizes`` gate over the current RC's wheels (``found``, the RC ``tag``, in the indexes and
    with the PyPI-bound set of ``where``), the previous
    release's sizes it was judged against (label and sizes; ("", {}) when stable has none), and the
    wheels it flags."""
    from cockpit.services.variant_sizes import judge_sizes, previous_rc, pypi_matcher, size_gate

    st = backend.config.storage
    current = {f.filename: f.size for f in found if f.size is not None and not f.yanked}
    earlier: list[tuple[str, Mapping[str, int]]] = []
    before = previous_rc(rc_history, tag) if tag else None
    if before is not None:
        earlier.append(before)
    why = ""
    try:
        release = previous_release_sizes(backend, current, where)
    except StorageError as exc:  # the stable channel unreadable: judged against the previous RC alone
        release, why = ("", {}), f"the previous release could not be read: {exc}"
    if release[1]:
        earlier.append(release)
    findings = judge_sizes(
        current,
        earlier,
        goes_to_pypi=pypi_matcher(where.pypi_bound),
        limit_mb=st.size_limit_mb,
        jump_ratio=st.size_jump_ratio,
        jump_mb=st.size_jump_mb,
    )
    gate = size_gate(findings, len(current))
    if why and gate.status is GateStatus.GREEN:
        gate = Gate(gate.name, gate.title, GateStatus.UNKNOWN, gate.summary, (why,))
    flagged = tuple(dict.fromkeys(f.filename for f in findings))
    return gate, release if release[1] else ("", {}), flagged
