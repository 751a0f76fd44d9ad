"""``release/release_versions.sh`` as data: the versions the release workflows source.

pytorch/test-infra's release workflows (``release-stage-pypi.yml``, ``release-pypi.yml``,
``release-download-pytorch-org.yml``, ``release-post-promotion.yml``) take no version input for most
packages: they ``source`` this file and read ``${PACKAGE^^}_VERSION``. So what it says on the ref the
workflows run from is what gets promoted. The file is read, never executed (``services/release_versions``).
"""

from __future__ import annotations

from dataclasses import dataclass

RELEASE_VERSIONS_PATH = "release/release_versions.sh"
"""Where the file lives in pytorch/test-infra (HEAD 61a77570f454, 2026-08-21)."""


@dataclass(frozen=True)
class VersionAssignment:
    """One assignment of the file, e.g. line 5 ``TORCHVISION_VERSION=${TORCHVISION_VERSION:-0.27.1}``.

    ``value`` is what the variable holds when nothing in the environment overrides it; ``written``
    the right-hand side as the file spells it; ``refers_to`` the variable it copies
    (``TORCH_TENSORRT_RTX_VERSION=${TORCH_TENSORRT_VERSION}``), or None; ``overridable`` whether the
    environment may override it (the ``${NAME:-default}`` form, which ``release-post-promotion.yml``
    uses to take a version input).
    """

    name: str
    line: int
    value: str
    written: str
    refers_to: str | None = None
    overridable: bool = False


@dataclass(frozen=True)
class UnreadLine:
    """A line the reader could not take as an assignment, with why: named, never skipped."""

    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"line {self.line} ({self.text!r}): {self.why}"


@dataclass(frozen=True)
class ReleaseVersions:
    """Every assignment of the file in order, and every line it could not read."""

    assignments: tuple[VersionAssignment, ...]
    unread: tuple[UnreadLine, ...] = ()

    def value(self, name: str) -> str | None:
        """The variable's value after the whole file (a later assignment wins), or None if never assigned."""
        found = [a.value for a in self.assignments if a.name == name]
        return found[-1] if found else None

    def assignment(self, name: str) -> VersionAssignment | None:
        """The last assignment of ``name``, or None."""
        found = [a for a in self.assignments if a.name == name]
        return found[-1] if found else None


@dataclass(frozen=True)
class ExpectedVersion:
    """What one variable should hold, and where that comes from.

    ``source`` says it in the release manager's words: ``the release (cockpit.toml [release] version)``,
    ``vision (cockpit.toml [[repo]] version)``, ``version.txt on release/0.27``.
    """

    variable: str
    version: str
    source: str
