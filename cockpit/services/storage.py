"""Release-candidate storage: are the expected wheels staged, of the right version and size?

Pure functions over what the storage adapter read (``IndexFile`` lists, PyPI answers). Sizes are
judged in decimal megabytes (1 MB = 1,000,000 bytes): stricter than PyPI's MiB, so a file PyPI
would only just accept is still flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from cockpit.domain.artifacts import (
    PLAIN,
    ArtifactProblem,
    ExpectedArtifact,
    IndexFile,
    StorageReport,
)
from cockpit.domain.gates import Gate, GateStatus
from cockpit.gates import gate_title
from cockpit.services.wheel_names import (
    WheelName,
    normalise_name,
    parse_wheel_filename,
    release_of,
    same_version,
)
from cockpit.services.wheel_sizes import truncated_wheels

__all__ = [
    "WheelName",
    "expected_artifacts",
    "normalise_name",
    "parse_wheel_filename",
    "problems_by_variant",
    "pypi_gate",
    "release_of",
    "same_version",
    "storage_gate",
    "validate_rc",
    "variant_summary",
]

RC_GATE = "rc_artifacts"
PYPI_GATE = "pypi_not_published"
MB = 1_000_000

PROBLEM_ORDER = (
    "missing",
    "yanked",
    "truncated",
    "wrong_version",
    "oversize",
    "size_warning",
    "unexpected",
    "bad_metadata",
    "no_checksum",
    "size_unknown",
    "metadata_unknown",
)
BLOCKING = frozenset({"missing", "yanked", "truncated", "wrong_version", "oversize"})
# Alone, these leave the gate UNKNOWN: nothing is known to be wrong.
UNKNOWN_ONLY = frozenset({"size_unknown", "metadata_unknown"})


def expected_artifacts(
    packages: Iterable[str],
    version: str,
    platforms: Iterable[str],
    python_tags: Iterable[str],
    *,
    variant: str = PLAIN,
) -> tuple[ExpectedArtifact, ...]:
    """One expected wheel per package x platform x python tag, in that nesting order, in ``variant``'s index."""
    platforms, python_tags = tuple(platforms), tuple(python_tags)
    return tuple(
        ExpectedArtifact(package=p, version=version, python_tag=t, platform=plat, variant=variant)
        for p in packages
        for plat in platforms
        for t in python_tags
    )


def validate_rc(
    expected: Sequence[ExpectedArtifact],
    found: Sequence[IndexFile],
    *,
    version: str,
    size_limit_mb: float = 1000,
    size_warn_mb: float = 850,
    index_url: str = "",
    absent: Iterable[tuple[str, str]] = (),
    goes_to_pypi: Callable[[IndexFile], bool] | None = None,
) -> StorageReport:
    """Compare the wheels of the RC channel with what the release expects, index by index.

    Each expected wheel belongs to one index: a variant's sub-index (``cu126``, ``cpu``: the files
    read from ``<base>/whl/test/cu126/<pkg>/`` carry that ``variant``) or the plain index (``""``).
    A found wheel of the same index stands for an expected one when package, python tag and platform
    agree (dotted tag sets such as ``manylinux_2_17_x86_64.manylinux2014_x86_64`` count for each
    member); in a variant's index its local version must be that variant's (``+cu126``) or none (the
    macOS builds of ``cpu``). Problems: ``missing`` (nothing stands for an expected wheel),
    ``yanked`` (only a yanked file stands for it: PEP 592, it counts as not present; the reason
    shown), ``wrong_version`` (only a wheel of the same release number but another version, such as
    ``2.5.0a0`` or ``2.5.0rc1``, stands for it, or its METADATA says another version; ``2.5.0+cu130``
    is the release's version), ``unexpected`` (a wheel of this version nobody expects, e.g.
    ``py3-none-any`` or another variant's build, or a file that is not a wheel), ``oversize`` /
    ``size_warning`` (over the limits), ``truncated`` (far smaller than its siblings or under 1 KB:
    see ``cockpit.services.wheel_sizes``), ``bad_metadata`` (its PEP 658 metadata file could not be
    read, does not match its digest, or names another project), ``no_checksum`` (no ``sha256``),
    ``size_unknown`` (the HEAD failed or gave no Content-Length; the detail says which). Files of
    other releases (2.4.1 left in the test channel) are not this release's: ignored. ``absent``
    names the (package, variant) pages that answered 404, so their missing wheels say so.
    ``goes_to_pypi`` picks the wheels PyPI's limit applies to (``services.build_matrix.pypi_bound``);
    None applies it to every wheel, as a config without a profile did. Other wheels are judged
    against their own variant's history instead (``services.variant_sizes``).
    """
    want = {_key(e.variant, e.package, e.python_tag, e.platform): e for e in expected}
    absent_pages = {(normalise_name(p), v) for p, v in absent}
    covered: set[tuple[str, str, str, str]] = set()
    stand_ins: dict[tuple[str, str, str, str], list[tuple[IndexFile, str]]] = {}
    yanked: dict[tuple[str, str, str, str], list[IndexFile]] = {}
    mine: list[IndexFile] = []
    problems: list[ArtifactProblem] = []
    for file in found:
        wheel = parse_wheel_filename(file.filename)
        if wheel is None:
            if not file.yanked:
                mine.append(file)
                problems.append(ArtifactProblem(file.filename, "unexpected", "not a wheel filename", file.variant))
            continue
        if not same_version(wheel.version, version):
            if release_of(wheel.public_version) == release_of(version) and not file.yanked:
                for key in _keys(file, wheel) & want.keys():
                    stand_ins.setdefault(key, []).append((file, f"has version {wheel.version}"))
            continue
        keys = _keys(file, wheel) & want.keys()
        if file.yanked:
            for key in keys:
                yanked.setdefault(key, []).append(file)
            continue
        mine.append(file)
        other = _other_variant(file, wheel)
        if other:
            problems.append(ArtifactProblem(file.filename, "unexpected", other, file.variant))
        elif file.metadata_version is not None and not same_version(file.metadata_version, version):
            for key in keys:
                stand_ins.setdefault(key, []).append((file, f"its METADATA says Version: {file.metadata_version}"))
        else:
            covered |= keys
            if not keys:
                problems.append(
                    ArtifactProblem(file.filename, "unexpected", _unexpected_detail(wheel, file.variant), file.variant)
                )
    for key, artifact in want.items():
        if key in covered:
            continue
        if key in stand_ins:
            for file, says in stand_ins[key]:
                expected_name = f" (expected {artifact.filename})" if artifact.filename != file.filename else ""
                detail = f"{says}, the release is {version}{expected_name}"
                problems.append(ArtifactProblem(file.filename, "wrong_version", detail, artifact.variant))
                mine.append(file)
        elif key in yanked:
            for file in yanked[key]:
                problems.append(ArtifactProblem(file.filename, "yanked", _yanked_detail(file), artifact.variant))
        else:
            problems.append(
                ArtifactProblem(
                    artifact.filename,
                    "missing",
                    _missing_detail(artifact, index_url, key[:2] in absent_pages),
                    artifact.variant,
                )
            )
    judged = list({f.filename: f for f in mine}.values())
    for file in judged:
        faces_limit = goes_to_pypi is None or goes_to_pypi(file)
        problems.extend(_file_problems(file, size_limit_mb, size_warn_mb, faces_limit=faces_limit))
    wheels = [(f, w) for f in judged if (w := parse_wheel_filename(f.filename)) is not None]
    problems.extend(truncated_wheels(wheels))
    unique = {(p.kind, p.filename): p for p in problems}.values()
    order = {v: i for i, v in enumerate(dict.fromkeys(e.variant for e in expected))}
    ordered = sorted(
        unique, key=lambda p: (order.get(p.variant, len(order)), p.variant, PROBLEM_ORDER.index(p.kind), p.filename)
    )
    return StorageReport(
        index_url=index_url,
        expected=tuple(expected),
        found=tuple(found),
        problems=tuple(ordered),
        size_limit_mb=float(size_limit_mb),
        size_warn_mb=float(size_warn_mb),
    )


def storage_gate(report: StorageReport) -> Gate:
    """The ``rc_artifacts`` gate: RED on missing / truncated / oversize / wrong version, AMBER on the rest.

    Sizes the index would not tell (``size_unknown``) alone make it UNKNOWN: not known to be wrong,
    not known to be fine either, so never GREEN.
    """
    title = gate_title(RC_GATE)
    if not report.expected:
        return Gate(
            RC_GATE, title, GateStatus.UNKNOWN, "no wheels expected: set storage packages and platforms in the config"
        )
    counts = dict.fromkeys(PROBLEM_ORDER, 0)
    for problem in report.problems:
        counts[problem.kind] = counts.get(problem.kind, 0) + 1
    details = tuple(
        f"{_KIND_WORDS.get(p.kind, p.kind)}{f' ({p.variant})' if p.variant else ''}: {p.filename}: {p.detail}"
        for p in report.problems
    )
    variants = [v for v in report.variants if v]
    across = f" across {_plural(len(variants), 'variant')} ({', '.join(variants)})" if variants else ""
    if not report.problems:
        summary = (
            f"all {_plural(len(report.expected), 'expected wheel')} staged{across}, "
            f"each within {_mb(report.size_warn_mb)} MB"
        )
        return Gate(RC_GATE, title, GateStatus.GREEN, summary)
    words = _count_words(report.size_limit_mb, report.size_warn_mb)
    parts = [f"{n} {words.get(kind, kind)}" for kind, n in counts.items() if n]
    summary = f"{_plural(len(report.problems), 'problem')}: {', '.join(parts)}"
    where = [v for v in report.variants if v and any(p.variant == v for p in report.problems)]
    if where:
        summary += f" (in {', '.join(where)})"
    if report.absent_pages:
        summary += f"; {_plural(len(report.absent_pages), 'project page')} answered 404"
    if any(counts.get(k) for k in BLOCKING):
        status = GateStatus.RED
    elif all(p.kind in UNKNOWN_ONLY for p in report.problems):
        status = GateStatus.UNKNOWN
    else:
        status = GateStatus.AMBER
    return Gate(RC_GATE, title, status, summary, details)


def problems_by_variant(report: StorageReport) -> list[tuple[str, tuple[ArtifactProblem, ...]]]:
    """(heading, problems) per index, in the order expected; the heading says what is missing in that
    variant (``variant_summary``), and is "" when the release expects the plain index alone."""
    groups = report.by_variant()
    if not any(variant for variant, _, _ in groups):
        return [("", problems) for _, _, problems in groups]
    return [
        (
            variant_summary(
                variant, expected, problems, size_limit_mb=report.size_limit_mb, size_warn_mb=report.size_warn_mb
            ),
            problems,
        )
        for variant, expected, problems in groups
    ]


def variant_summary(
    variant: str,
    expected: int,
    problems: Sequence[ArtifactProblem],
    *,
    size_limit_mb: float = 1000,
    size_warn_mb: float = 850,
) -> str:
    """One line for one index: ``cu128: 45 expected wheels, 1 missing`` or ``xpu: all 30 expected wheels staged``."""
    name = variant or "plain index"
    if not problems:
        return f"{name}: {'all ' if expected > 1 else ''}{_plural(expected, 'expected wheel')} staged"
    counts: dict[str, int] = {}
    for problem in problems:
        counts[problem.kind] = counts.get(problem.kind, 0) + 1
    words = _count_words(size_limit_mb, size_warn_mb)
    parts = [f"{counts[k]} {words.get(k, k)}" for k in PROBLEM_ORDER if k in counts]
    return f"{name}: {_plural(expected, 'expected wheel')}, {', '.join(parts)}"


def _count_words(limit_mb: float, warn_mb: float) -> dict[str, str]:
    return {
        "missing": "missing",
        "yanked": "yanked",
        "truncated": "truncated",
        "wrong_version": "wrong version",
        "oversize": f"over {_mb(limit_mb)} MB",
        "size_warning": f"over {_mb(warn_mb)} MB",
        "unexpected": "unexpected",
        "bad_metadata": "with bad metadata",
        "no_checksum": "without checksum",
        "size_unknown": "of unknown size",
        "metadata_unknown": "with unread metadata",
    }


def pypi_gate(published: bool, version: str) -> Gate:
    """The ``pypi_not_published`` gate: GREEN while the irreversible PyPI upload is still ahead."""
    title = gate_title(PYPI_GATE)
    if published:
        return Gate(
            PYPI_GATE,
            title,
            GateStatus.AMBER,
            f"{version} is already on PyPI: the upload step is done and locked",
            ("PyPI accepts a filename once, ever: the upload cannot be undone or redone.",),
        )
    return Gate(PYPI_GATE, title, GateStatus.GREEN, f"{version} is not on PyPI yet: the upload step is still ahead")


_KIND_WORDS = {
    "wrong_version": "wrong version",
    "size_warning": "size warning",
    "no_checksum": "no checksum",
    "size_unknown": "size unknown",
    "bad_metadata": "bad metadata",
    "metadata_unknown": "metadata unread",
}


def _key(variant: str, package: str, python_tag: str, platform: str) -> tuple[str, str, str, str]:
    return normalise_name(package), variant, python_tag, platform


def _keys(file: IndexFile, wheel: WheelName) -> set[tuple[str, str, str, str]]:
    return {(wheel.name, file.variant, tag, plat) for tag, plat in wheel.tags()}


def _other_variant(file: IndexFile, wheel: WheelName) -> str:
    """Why a wheel does not belong in the sub-index it was found in ("" when it does)."""
    local = wheel.local_version
    if not file.variant or not local or local.lower() == file.variant.lower():
        return ""
    return f"a +{local} build in the {file.variant} index, which must hold +{file.variant} builds"


def _unexpected_detail(wheel: WheelName, variant: str) -> str:
    where = f"the {variant} index's" if variant else "the release's"
    detail = f"{wheel.python}-{wheel.abi}-{wheel.platform} is not in {where} python tags x platforms"
    if not variant and wheel.local_version:
        detail += f"; a +{wheel.local_version} build: [storage.variants] can name that variant's platforms"
    return detail


def _missing_detail(artifact: ExpectedArtifact, index_url: str, page_absent: bool) -> str:
    what = f"no {artifact.package} wheel for {artifact.python_tag} on {artifact.platform}"
    if artifact.variant:
        where = f" in the {artifact.variant} index"
    else:
        where = f" in {index_url}" if index_url else ""
    return what + where + (f" (its {artifact.package} page answered 404)" if page_absent else "")


def _yanked_detail(file: IndexFile) -> str:
    reason = f": {file.yanked_reason}" if file.yanked_reason else " (no reason given)"
    return f"yanked{reason}; counts as not staged"


def _file_problems(
    file: IndexFile, limit_mb: float, warn_mb: float, *, faces_limit: bool = True
) -> list[ArtifactProblem]:
    problems = []

    def add(kind: str, detail: str) -> None:
        problems.append(ArtifactProblem(file.filename, kind, detail, file.variant))

    if not file.sha256:
        add("no_checksum", "the index link has no #sha256= digest")
    if file.metadata_unread:  # a timeout under load is not a finding: the gate stays UNKNOWN for it
        add("metadata_unknown", file.metadata_unread)
    elif file.metadata_error:
        add("bad_metadata", file.metadata_error)
    elif file.metadata_name and normalise_name(file.metadata_name) != normalise_name(file.filename.split("-", 1)[0]):
        add("bad_metadata", f"its METADATA says Name: {file.metadata_name}")
    if file.size is None:
        add("size_unknown", file.size_error or "the index gave no Content-Length")
    elif not faces_limit:
        pass  # a download-site wheel: its size is judged against its variant's history
    elif file.size > limit_mb * MB:
        add("oversize", f"{_mb(file.size / MB)} MB, over the {_mb(limit_mb)} MB limit")
    elif file.size > warn_mb * MB:
        add("size_warning", f"{_mb(file.size / MB)} MB, over the {_mb(warn_mb)} MB warning line")
    return problems


def _mb(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
