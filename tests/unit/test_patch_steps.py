"""Patch releases: the version.txt bump on the release branch, and a deadline at 5 PM Pacific."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cockpit.domain.gates import GateStatus
from cockpit.errors import ConfigError
from cockpit.profile import load_profile
from cockpit.services.patch_steps import deadline_on, version_bump_gate

PROFILE = load_profile()


def test_the_phase_list_has_the_version_bump() -> None:
    assert "bump version.txt on the release branch" in PROFILE.strings("patch.phases")


def test_the_deadline_is_five_pm_pacific_on_the_named_day() -> None:
    at, zone = PROFILE.text("patch.cherry_pick_deadline_time"), PROFILE.text("patch.cherry_pick_deadline_zone")
    summer = deadline_on(date(2026, 9, 21), at=at, zone=zone)
    assert summer.astimezone(UTC) == datetime(2026, 9, 22, 0, 0, tzinfo=UTC)  # PDT is UTC-7
    winter = deadline_on(date(2026, 12, 7), at=at, zone=zone)
    assert winter.astimezone(UTC) == datetime(2026, 12, 8, 1, 0, tzinfo=UTC)  # PST is UTC-8


def test_a_bad_deadline_setting_is_named() -> None:
    with pytest.raises(ConfigError, match="HH:MM"):
        deadline_on(date(2026, 9, 21), at="5pm")
    with pytest.raises(ConfigError, match="IANA"):
        deadline_on(date(2026, 9, 21), zone="Pacific/Nowhere")


def test_the_version_bump_is_judged_from_the_branch_file() -> None:
    assert version_bump_gate("3.1.1\n", version="3.1.1", branch="release/3.1").status is GateStatus.GREEN
    stale = version_bump_gate("3.1.0a0\n", version="3.1.1", branch="release/3.1")
    assert stale.status is GateStatus.RED and "bump it to 3.1.1" in stale.summary
    assert version_bump_gate(None, version="3.1.1", branch="release/3.1").status is GateStatus.UNKNOWN
