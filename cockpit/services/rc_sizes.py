"""Each wheel's size across the release candidates, against PyPI's limit.

The test channel keeps only the current RC's files: an RC's wheels are uploaded under the final
version's name and replace the previous RC's. So the sizes of earlier RCs exist only if someone
wrote them down: the cockpit records, each time it judges storage, the sizes it observed under
the clone's newest RC tag (``{tag: {filename: bytes}}`` in the session state). Because every RC
names its wheels alike, a filename is the same wheel across RCs.

The picture shows, per package and variant (``torchlet`` ``cu126``), the largest wheels of the
newest RC, each with its size at every recorded RC (None where that RC had no such file).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cockpit.services.wheel_names import parse_wheel_filename

MB = 1_000_000
"""PyPI's limits are decimal megabytes."""

PER_FAMILY = 1
"""How many of the largest wheels of each package/variant the picture shows."""


@dataclass(frozen=True)
class WheelSizes:
    """One wheel's size at each RC of ``RCSizes.tags`` (bytes; None when that RC did not have it)."""

    filename: str
    family: str  # "torchlet cu126": the package and its variant ("torchlet (plain)": no local version)
    sizes: tuple[int | None, ...]

    @property
    def newest(self) -> int | None:
        """The size at the newest RC that has the wheel."""
        return next((s for s in reversed(self.sizes) if s is not None), None)


@dataclass(frozen=True)
class RCSizes:
    """The recorded RCs (oldest first), the largest wheels of each family, and the limit they face."""

    tags: tuple[str, ...]
    wheels: tuple[WheelSizes, ...]
    limit_bytes: int

    def share(self, size: int) -> float:
        """``size`` as a share of the limit (1.0 is at the limit)."""
        return size / self.limit_bytes if self.limit_bytes > 0 else 0.0


def rc_number(tag: str) -> int | None:
    """``v2.5.0-rc3`` -> 3; None for a tag that is not an RC tag."""
    head, sep, number = tag.rpartition("-rc")
    return int(number) if sep and head and number.isdigit() else None


def family_of(filename: str) -> str:
    """``torchlet cu126`` for ``torchlet-2.5.0+cu126-...whl`` (``torchlet (plain)`` without a local
    version, as the macOS CPU builds are named); the filename itself when it is no wheel name."""
    wheel = parse_wheel_filename(filename)
    if wheel is None:
        return filename
    return f"{wheel.name} {wheel.local_version or '(plain)'}"


def with_current(
    recorded: Mapping[str, Mapping[str, int]], tag: str, observed: Mapping[str, int]
) -> dict[str, dict[str, int]]:
    """The recorded RCs with the current one's observed sizes in place of what was recorded under ``tag``."""
    history = {t: dict(sizes) for t, sizes in recorded.items()}
    if tag and observed:
        history[tag] = dict(observed)
    return history


def rc_size_series(history: Mapping[str, Mapping[str, int]], limit_mb: float, per_family: int = PER_FAMILY) -> RCSizes:
    """Per family, the ``per_family`` largest wheels of the newest RC, each with its size at every RC.

    RC tags order by their number (``rc10`` after ``rc9``); entries that are not RC tags are left
    out. The wheels are largest first (the nearest the limit on top), ties in family order.
    """
    tags = tuple(sorted((t for t in history if rc_number(t) is not None), key=lambda t: rc_number(t) or 0))
    if not tags:
        return RCSizes((), (), int(limit_mb * MB))
    newest = history[tags[-1]]
    families: dict[str, list[str]] = {}
    for filename in sorted(newest):
        families.setdefault(family_of(filename), []).append(filename)
    wheels: list[WheelSizes] = []
    for family in sorted(families):
        largest = sorted(families[family], key=lambda f: (-newest[f], f))[: max(per_family, 0)]
        wheels.extend(WheelSizes(f, family, tuple(history[t].get(f) for t in tags)) for f in largest)
    wheels.sort(key=lambda w: (-newest[w.filename], w.family))  # the nearest the limit first
    return RCSizes(tags, tuple(wheels), int(limit_mb * MB))


def short_tag(tag: str) -> str:
    """``v2.5.0-rc2`` -> ``rc2``."""
    number = rc_number(tag)
    return f"rc{number}" if number is not None else tag


def megabytes(size: int | None) -> str:
    """``1012.3`` (decimal MB, as PyPI counts), or a dash when the RC had no such file."""
    return f"{size / MB:.1f}" if size is not None else "-"


def growing_towards_limit(series: RCSizes, wheels: Sequence[WheelSizes] | None = None) -> list[WheelSizes]:
    """The wheels that grew from their first recorded RC to the newest and stand at 90% of the limit or more."""
    out = []
    for wheel in series.wheels if wheels is None else wheels:
        known = [s for s in wheel.sizes if s is not None]
        if len(known) >= 2 and known[-1] > known[0] and series.share(known[-1]) >= 0.9:
            out.append(wheel)
    return out
