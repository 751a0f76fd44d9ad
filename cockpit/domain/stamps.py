"""The one time format of the cockpit's records and reports: UTC, ISO 8601, seconds, a ``Z`` (as GitHub writes)."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_stamp(moment: datetime) -> str:
    """``2026-09-30T12:00:00Z`` for ``moment`` (an aware datetime, any zone)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def aware(moment: datetime) -> datetime:
    """``moment`` with a zone: a naive one is read as UTC (GitHub's and the state file's times are)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
