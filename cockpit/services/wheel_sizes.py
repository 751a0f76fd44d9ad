"""Truncated uploads: a wheel far smaller than its siblings is a broken file, not a present one.

The rule (``truncated_wheels``) has two parts, either of which flags a wheel:

1. **An absolute floor.** A wheel is a zip archive holding at least the package's files plus
   ``METADATA``, ``WHEEL`` and ``RECORD``; each entry costs a local header and a central-directory
   record on top of its content. No wheel with real contents is under ``FLOOR_BYTES`` (1 KB), so a
   HEAD saying 22 bytes is an error page or a cut-off upload, whatever its siblings look like.
2. **Far below its family.** A wheel's family is the wheels of the same project, the same
   variant (the sub-index it was read from, ``cu130``; in the plain index its ``+cu130`` local
   version) and the same platform tag: they differ only by Python
   version, and for a given platform and accelerator their sizes stay within a few percent of each
   other (torch's cp310..cp313t Linux CUDA wheels, for instance). A wheel under ``FRACTION`` (one
   half) of the median size of its siblings is flagged. The median, not the mean, so one huge or one
   broken sibling does not move the yardstick; siblings, not the family, so a pair holding one cut
   file is judged against the good one. Platforms are never mixed: a macOS arm64 wheel is a tenth of
   a Linux CUDA one by design.

Files whose size is unknown take no part (they are reported as ``size_unknown`` elsewhere).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from statistics import median
from typing import TYPE_CHECKING

from cockpit.domain.artifacts import ArtifactProblem, IndexFile

if TYPE_CHECKING:
    from cockpit.services.wheel_names import WheelName

FLOOR_BYTES = 1024
FRACTION = 0.5


def truncated_wheels(wheels: Sequence[tuple[IndexFile, WheelName]]) -> list[ArtifactProblem]:
    """A ``truncated`` problem for every wheel under the floor or far below its family's median."""
    families: dict[tuple[str, str, str], list[tuple[IndexFile, WheelName, int]]] = defaultdict(list)
    for file, wheel in wheels:
        if file.size is not None:
            families[_family(file, wheel)].append((file, wheel, file.size))
    problems = []
    for members in families.values():
        for file, wheel, size in members:
            siblings = [other_size for other, _, other_size in members if other is not file]
            typical = median(siblings) if siblings else None
            if size < FLOOR_BYTES:
                problems.append(
                    ArtifactProblem(file.filename, "truncated", _under_floor(size, typical, file, wheel), file.variant)
                )
            elif typical is not None and size < FRACTION * typical:
                problems.append(
                    ArtifactProblem(
                        file.filename, "truncated", _far_below(size, typical, file, wheel, len(siblings)), file.variant
                    )
                )
    return problems


def size_words(size: float) -> str:
    """A size as a person reads it: ``22 bytes``, ``3.4 KB``, ``812 MB`` (decimal units)."""
    if size < 1000:
        return f"{size:.0f} bytes" if size != 1 else "1 byte"
    for unit, scale in (("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        value = size / scale
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    raise AssertionError("unreachable")


def _variant(file: IndexFile, wheel: WheelName) -> str:
    """The sub-index the file was read from, else its local version (``+cu130``) as written."""
    return file.variant or (wheel.version.split("+", 1)[1] if "+" in wheel.version else "")


def _family(file: IndexFile, wheel: WheelName) -> tuple[str, str, str]:
    return wheel.name, _variant(file, wheel), wheel.platform


def _family_words(file: IndexFile, wheel: WheelName) -> str:
    variant = _variant(file, wheel)
    return f"{wheel.name} {'+' + variant + ' ' if variant else ''}{wheel.platform}"


def _under_floor(size: int, typical: float | None, file: IndexFile, wheel: WheelName) -> str:
    siblings = f"; its siblings ({_family_words(file, wheel)}) are typically {size_words(typical)}" if typical else ""
    return (
        f"only {size_words(size)}: no wheel with real contents is under {size_words(FLOOR_BYTES)}{siblings}; "
        "a truncated or failed upload"
    )


def _far_below(size: int, typical: float, file: IndexFile, wheel: WheelName, count: int) -> str:
    return (
        f"{size_words(size)}, under {FRACTION:.0%} of the {size_words(typical)} typical of its "
        f"{count} sibling{'s' if count != 1 else ''} ({_family_words(file, wheel)}); a truncated upload?"
    )
