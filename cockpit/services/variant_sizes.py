"""Wheel sizes judged per variant: PyPI's limit for the wheels that go there, history for the rest.

PyPI's per-file limit (about 1,000 MB for torch) applies to the PyPI-bound set only: one variant per
platform (``build_matrix.pypi_bound``). Download-site wheels are larger as a matter of course (a CUDA
wheel over a gigabyte, a ROCm wheel over four), so their signal is change: each wheel is set against
the same wheel (package, variant, Python tag, platform) of the previous RC and of the previous
release, and a jump beyond ``ratio`` or beyond ``jump_mb`` megabytes is amber, both sizes shown.
A wheel with no earlier counterpart is new, not a finding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.gates import Gate, GateStatus
from cockpit.services.wheel_names import parse_wheel_filename

GATE_NAME = "wheel_sizes"
GATE_TITLE = "Wheel sizes"

MB = 1_000_000
"""PyPI counts decimal megabytes."""

SizeKey = tuple[str, str, str, str]


def size_key(filename: str) -> SizeKey | None:
    """(package, variant, python tag, platform) of a wheel: the same wheel across RCs and releases."""
    wheel = parse_wheel_filename(filename)
    if wheel is None:
        return None
    return (wheel.name, wheel.local_version or "", f"{wheel.python}-{wheel.abi}", wheel.platform)


def by_key(sizes: Mapping[str, int]) -> dict[SizeKey, tuple[str, int]]:
    """Sizes by ``size_key`` (file names that are not wheels are left out)."""
    out = {}
    for filename, size in sizes.items():
        key = size_key(filename)
        if key is not None:
            out[key] = (filename, size)
    return out


@dataclass(frozen=True)
class SizeFinding:
    """A wheel whose size needs a look: over PyPI's limit, or a jump against an earlier build."""

    filename: str
    variant: str
    kind: str  # "oversize" (PyPI-bound, over the limit) or "jump" (against the same variant earlier)
    size: int
    before: int | None = None
    against: str = ""  # "v2.5.0-rc1" or "v2.4.0": the build it is set against

    @property
    def detail(self) -> str:
        """One line with both sizes (decimal MB)."""
        now = f"{self.size / MB:.1f} MB"
        if self.kind == "oversize":
            return f"{now}, over PyPI's limit (this wheel goes to PyPI)"
        assert self.before is not None
        return f"{now}, was {self.before / MB:.1f} MB in {self.against} ({self.size / self.before:.2f}x)"


def judge_sizes(
    current: Mapping[str, int],
    earlier: Sequence[tuple[str, Mapping[str, int]]],
    *,
    goes_to_pypi: Callable[[str, str], bool],
    limit_mb: float,
    jump_ratio: float,
    jump_mb: float,
) -> list[SizeFinding]:
    """Every size finding of the current RC's wheels.

    ``earlier`` holds (label, sizes) of the previous RC and the previous release, in that order;
    ``goes_to_pypi(variant, platform)`` says which wheels face ``limit_mb``. A jump is a growth
    beyond ``jump_ratio`` times or beyond ``jump_mb`` megabytes against a build of ``earlier``.
    """
    before = [(label, by_key(sizes)) for label, sizes in earlier]
    findings = []
    for key, (filename, size) in sorted(by_key(current).items()):
        _, variant, _, platform = key
        if goes_to_pypi(variant, platform) and size > limit_mb * MB:
            findings.append(SizeFinding(filename, variant, "oversize", size))
        for label, sizes in before:
            if key not in sizes:
                continue
            old = sizes[key][1]
            if old > 0 and (size > old * jump_ratio or size - old > jump_mb * MB):
                findings.append(SizeFinding(filename, variant, "jump", size, old, label))
                break  # the nearest earlier build is enough to show
    return findings


def size_gate(findings: Sequence[SizeFinding], judged: int) -> Gate:
    """The verdict over size findings: red for a PyPI-bound wheel over the limit, amber for a jump."""
    oversize = [f for f in findings if f.kind == "oversize"]
    jumps = [f for f in findings if f.kind == "jump"]
    details = tuple(f"{f.filename}: {f.detail}" for f in findings)
    if oversize:
        return Gate(
            GATE_NAME, GATE_TITLE, GateStatus.RED, f"{len(oversize)} PyPI-bound wheel(s) over the limit", details
        )
    if jumps:
        return Gate(
            GATE_NAME, GATE_TITLE, GateStatus.AMBER, f"{len(jumps)} wheel(s) grew against their variant", details
        )
    return Gate(GATE_NAME, GATE_TITLE, GateStatus.GREEN, f"{judged} wheel(s) within their variant's history")


@dataclass(frozen=True)
class VariantSeries:
    """One variant's largest wheel at each recorded build (oldest first), for the RC sizes chart."""

    variant: str
    labels: tuple[str, ...]
    sizes: tuple[int | None, ...]
    goes_to_pypi: bool


def variant_series(
    history: Sequence[tuple[str, Mapping[str, int]]], goes_to_pypi: Callable[[str, str], bool]
) -> list[VariantSeries]:
    """Per (package, variant), its largest wheel's size at each build of ``history`` (oldest first)."""
    labels = tuple(label for label, _ in history)
    largest: dict[str, list[int | None]] = {}
    bound: dict[str, bool] = {}
    for i, (_, sizes) in enumerate(history):
        for (package, variant, _, platform), (_, size) in by_key(sizes).items():
            name = f"{package} {variant or '(plain)'}"
            row = largest.setdefault(name, [None] * len(history))
            row[i] = max(size, row[i] or 0)
            bound[name] = bound.get(name, False) or goes_to_pypi(variant, platform)
    return [VariantSeries(name, labels, tuple(row), bound[name]) for name, row in sorted(largest.items())]
