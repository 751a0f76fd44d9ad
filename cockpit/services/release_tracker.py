"""The release tracker issue cut with the release branch, ``[v.X.Y.Z] Release Tracker``. Pure.

Facts from pytorch/test-infra ``.claude/skills/release-create-tracker-issue/SKILL.md`` (4dd9d5cdc): the title
``[v.{VERSION}] Release Tracker``, the labels ``release tracker`` and ``triaged``, the key dates M3 (branch
cut), M4 (branch final: the phase 1 / phase 2 cut-off, a "week of" prefix taken off), M4.1, M5 and M6
(release day) kept as the announcement writes them, the previous minor release named in the phase 1
criteria, and the request form whose three labels the cherry-picks pane reads. The wording of the body is
the cockpit's own (``cockpit/templates/release_tracker.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

from cockpit.domain.text import inert
from cockpit.errors import ConfigError

TITLE_FORM = "[v.{version}] Release Tracker"
LABELS = ("release tracker", "triaged")
DATE_NAMES = ("m3", "m4", "m4_1", "m5", "m6")
_WEEK_OF = re.compile(r"(?i)^\s*week\s+of\s+")
_MAX_DATE = 40


@dataclass(frozen=True)
class KeyDates:
    """The key dates as the release announcement writes them ("week of 8/6/26", "30/6/26")."""

    m3: str
    m4: str
    m4_1: str
    m5: str
    m6: str

    @property
    def cutoff(self) -> str:
        """The phase 1 / phase 2 cut-off: M4's date, without a "week of" in front."""
        return _WEEK_OF.sub("", self.m4).strip()


def key_dates(given: dict[str, str | None]) -> KeyDates:
    """The dates from ``given`` (by ``DATE_NAMES``); a missing, multi-line or over-long one is named."""
    values = {}
    for name in DATE_NAMES:
        raw = given.get(name)
        shown = name.replace("_", ".").upper()
        if raw is None or not raw.strip():
            raise ConfigError(f"the {shown} date is missing: give it as the announcement writes it (--{_flag(name)})")
        if "\n" in raw or len(raw) > _MAX_DATE or inert(raw) != raw:
            raise ConfigError(
                f"the {shown} date {inert(raw)[:_MAX_DATE]!r}: expected one short line such as 'week of 8/6/26'"
            )
        values[name] = raw.strip()
    return KeyDates(**values)


def _flag(name: str) -> str:
    return name.replace("_", "-")


def title(version: str) -> str:
    return TITLE_FORM.format(version=version)


def previous_minor(version: str) -> str:
    """``2.12`` for 2.13.0; "" for an X.0 release (the previous line is another major)."""
    parts = version.split(".")
    if len(parts) < 2 or not parts[1].isdigit() or int(parts[1]) == 0:
        return ""
    return f"{parts[0]}.{int(parts[1]) - 1}"


def render(*, version: str, repository: str, branch: str, dates: KeyDates, managers: str, ci_url: str) -> str:
    """The tracker issue's body (the template filled in)."""
    template = files("cockpit").joinpath("templates").joinpath("release_tracker.md").read_text(encoding="utf-8")
    branch_url = f"https://github.com/{repository}/tree/{branch}"
    return template.format(
        version=version,
        branch=branch,
        branch_url=branch_url,
        cutoff=dates.cutoff,
        m3=dates.m3,
        m4=dates.m4,
        m4_1=dates.m4_1,
        m5=dates.m5,
        m6=dates.m6,
        previous=previous_minor(version) or "the previous release",
        managers=managers or "the release managers",
        ci_url=ci_url,
    )
