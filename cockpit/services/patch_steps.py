"""A patch release's own steps the schedule does not date: the version bump and the deadline's hour.

The release team's patch releases bump ``version.txt`` on the release branch (``2.5.0`` -> ``2.5.1``)
before the build; ``version_bump_gate`` judges it from that file's text on the branch. The cherry-pick
deadline is the end of the working day, 5 PM Pacific, on the date the schedule names:
``deadline_on`` turns such a date into that instant (the profile's ``patch.cherry_pick_deadline_*``).
"""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cockpit.domain.gates import Gate, GateStatus
from cockpit.errors import ConfigError

NAME = "version_bumped"
TITLE = "version.txt bumped on the release branch"


def deadline_on(day: date, *, at: str = "17:00", zone: str = "America/Los_Angeles") -> datetime:
    """The cherry-pick deadline on ``day``: ``at`` (HH:MM) in ``zone``, as an aware datetime.

    Raises ``ConfigError`` naming a malformed time or an unknown zone.
    """
    try:
        hour, minute = (int(part) for part in at.split(":"))
        clock = time(hour, minute)
    except ValueError:
        raise ConfigError(f"deadline time {at!r}: expected HH:MM such as 17:00") from None
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"deadline zone {zone!r}: expected an IANA zone such as America/Los_Angeles") from None
    return datetime.combine(day, clock, tzinfo=tz)


def version_bump_gate(text: str | None, *, version: str, branch: str, path: str = "version.txt") -> Gate:
    """Green when ``path`` on ``branch`` names the patch ``version`` (a trailing ``a0`` is the branch's
    development marker and counts); red when it names another; unknown when the file is not there."""
    if text is None:
        return Gate(NAME, TITLE, GateStatus.UNKNOWN, f"no {path} on {branch} to read")
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if line.removesuffix("a0") == version:
        return Gate(NAME, TITLE, GateStatus.GREEN, f"{path} on {branch} says {line}")
    return Gate(NAME, TITLE, GateStatus.RED, f"{path} on {branch} says {line or 'nothing'}: bump it to {version}")
