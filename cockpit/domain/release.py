"""The release being run, and the repositories whose CI it waits for (read with the config)."""

from __future__ import annotations

import re
from dataclasses import dataclass

RC_NUMBER = r"([0-9]{1,4})"
r"""An RC number in a tag: ASCII digits only, at most four (a tag "v2.5.0-rc٩" or with twenty digits is not an
RC of ours: ``\d`` would take any Unicode digit, and a twenty-digit RC would make the next tag longer still)."""
VERSION_PART = r"[0-9]{1,4}"
"""One part of a version X.Y.Z: ASCII digits, at most four."""

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


@dataclass(frozen=True, slots=True)
class Release:
    """One release: ``version`` like ``2.5.0``, ``repository`` like ``acme/torchlet``."""

    version: str
    repository: str
    branch: str
    main: str = "main"
    milestone: int | str | None = None
    tracker_issue: int | None = None

    @property
    def major_minor(self) -> str:
        m = _VERSION.match(self.version)
        return f"{m.group(1)}.{m.group(2)}" if m else self.version

    @property
    def tag(self) -> str:
        """The final tag, ``vX.Y.Z``."""
        return f"v{self.version}"

    def rc_tag(self, n: int) -> str:
        return f"v{self.version}-rc{n}"


def is_valid_version(text: str) -> bool:
    return bool(_VERSION.match(text))


@dataclass(frozen=True, slots=True)
class CITarget:
    """A repository whose release branch must be green; ``binary_workflows`` must be green on its newest RC tag."""

    repository: str
    branch: str
    required_workflows: tuple[str, ...] = ("pull", "trunk", "lint")
    binary_workflows: tuple[str, ...] = ()
    unstable_jobs: tuple[str, ...] = ()
