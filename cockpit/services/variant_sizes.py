"""Wheel sizes judged per variant: PyPI's limit for the wheels that go there, history for the rest.

PyPI's per-file limit (about 1,000 MB for torch) applies to the PyPI-bound set only: one variant per
platform (``build_matrix.pypi_bound``). Download-site wheels are larger as a matter of course (a CUDA
wheel over a gigabyte, a ROCm wheel over four), so their signal is change: each wheel is set against
the same wheel (package, variant, Python tag, platform) of the previous RC and of the previous
release, and a jump beyond ``ratio`` or beyond ``jump_mb`` megabytes is amber, both sizes shown.
A wheel with no earlier counterpart is new, not a finding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from cockpit.domain.gates import Gate, GateStatus
from cockpit.services.rc_sizes import rc_number
from cockpit.services.wheel_names import parse_wheel_filename, release_of

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


def pypi_matcher(bound: Sequence[tuple[str, Sequence[str]]]) -> Callable[[str, str], bool]:
    """``goes_to_pypi(variant, platform)`` over ``[storage.pypi_bound]`` (variant -> platform globs).

    A wheel without a local version (``variant`` "", as macOS's are named) counts as its ``cpu`` entry;
    a dotted platform tag set goes to PyPI when one of its members does.
    """
    table = {variant.lower(): tuple(globs) for variant, globs in bound}

    def goes_to_pypi(variant: str, platform: str) -> bool:
        globs = table.get(variant.lower() or "cpu", ())
        return any(fnmatchcase(member, glob) for member in platform.split(".") for glob in globs)

    return goes_to_pypi


def previous_rc(history: Mapping[str, Mapping[str, int]], tag: str) -> tuple[str, Mapping[str, int]] | None:
    """The recorded RC just before ``tag`` (``v2.5.0-rc1`` before ``v2.5.0-rc2``) and its sizes; None at rc1."""
    number = rc_number(tag)
    if number is None:
        return None
    base = tag[: tag.rindex("-rc")]
    earlier = [(n, t) for t in history if t.startswith(base + "-rc") and (n := rc_number(t)) is not None and n < number]
    if not earlier:
        return None
    label = max(earlier)[1]
    return label, history[label]


def previous_release(filenames: Iterable[str], version: str) -> str:
    """The newest final release among ``filenames`` (a stable channel) older than ``version``; "" if none.

    Pre-releases and dev builds (``2.5.0rc1``, ``2.6.0.dev20260101``) are left out: only a version that is
    its release number alone (a local part allowed) counts.
    """
    current = release_of(version)
    best: tuple[tuple[int, ...], str] = ((), "")
    for filename in filenames:
        wheel = parse_wheel_filename(filename)
        if wheel is None or not wheel.public_version.replace(".", "").isdigit():
            continue
        number = release_of(wheel.public_version)
        if number and number < current and number > best[0]:
            best = (number, wheel.public_version)
    return best[1]


def of_version(filename: str, version: str) -> bool:
    """Whether ``filename`` is a wheel of ``version`` exactly (any local part)."""
    wheel = parse_wheel_filename(filename)
    return wheel is not None and wheel.public_version == version


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


def history_of(
    rc_sizes: Mapping[str, Mapping[str, int]], release: tuple[str, Mapping[str, int]] = ("", {})
) -> list[tuple[str, Mapping[str, int]]]:
    """Oldest first: the previous ``release`` (when it has sizes), then each recorded RC by its number."""
    rcs = sorted((t for t in rc_sizes if rc_number(t) is not None), key=lambda t: rc_number(t) or 0)
    head = [release] if release[0] and release[1] else []
    return head + [(t, rc_sizes[t]) for t in rcs]


@dataclass(frozen=True)
class VariantSeries:
    """One variant's largest wheel at each recorded build (oldest first), for the RC sizes chart."""

    variant: str
    labels: tuple[str, ...]
    sizes: tuple[int | None, ...]
    goes_to_pypi: bool
    flagged: bool = False  # a wheel of it is a size finding of the newest build

    @property
    def newest(self) -> tuple[str, int] | None:
        """The label and size of the newest build that has the variant."""
        known = [(label, size) for label, size in zip(self.labels, self.sizes, strict=True) if size is not None]
        return known[-1] if known else None

    @property
    def before(self) -> tuple[str, int] | None:
        """The label and size of the build before the newest that has the variant."""
        known = [(label, size) for label, size in zip(self.labels, self.sizes, strict=True) if size is not None]
        return known[-2] if len(known) > 1 else None


def variant_series(
    history: Sequence[tuple[str, Mapping[str, int]]],
    goes_to_pypi: Callable[[str, str], bool],
    flagged: Iterable[str] = (),
) -> list[VariantSeries]:
    """Per (package, variant), its largest wheel's size at each build of ``history`` (oldest first), the
    largest first; ``flagged`` names the wheels the size judgement flagged."""
    labels = tuple(label for label, _ in history)
    largest: dict[str, list[int | None]] = {}
    bound: dict[str, bool] = {}
    for i, (_, sizes) in enumerate(history):
        for (package, variant, _, platform), (_, size) in by_key(sizes).items():
            name = f"{package} {variant or '(plain)'}"
            row = largest.setdefault(name, [None] * len(history))
            row[i] = max(size, row[i] or 0)
            bound[name] = bound.get(name, False) or goes_to_pypi(variant, platform)
    marked = {f"{key[0]} {key[1] or '(plain)'}" for f in flagged if (key := size_key(f)) is not None}
    series = [VariantSeries(name, labels, tuple(row), bound[name], name in marked) for name, row in largest.items()]
    return sorted(series, key=lambda s: (-(s.newest or ("", 0))[1], s.variant))
