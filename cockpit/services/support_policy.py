"""A rule-derived guess at the Python versions of a release (NEP 29, as the old process document words it).

Superseded for PyTorch: its policy is every CPython that is not end-of-life (RFC-0038), and which builds
exist is read from the build matrix generator (``cockpit.services.build_matrix``; the profile's
``python.release_builds``). This guess remains for a config that names a ``release_date`` and no
``python_tags``, until the config reads the profile.
"""

from __future__ import annotations

from datetime import date

CPYTHON_RELEASES: dict[tuple[int, int], date] = {
    (3, 8): date(2019, 10, 14),
    (3, 9): date(2020, 10, 5),
    (3, 10): date(2021, 10, 4),
    (3, 11): date(2022, 10, 24),
    (3, 12): date(2023, 10, 2),
    (3, 13): date(2024, 10, 7),
    (3, 14): date(2025, 10, 7),
}
"""First-release dates of CPython minor versions. Extend this table as new versions ship: a release
date past the last entry still works, but will not see versions the table does not know."""

SUPPORT_WINDOW_MONTHS = 42
MINIMUM_VERSIONS = 2
FREE_THREADED_SINCE = (3, 13)


def months_before(day: date, months: int) -> date:
    """The same day of the month ``months`` earlier, clamped to the month's last day."""
    index = day.year * 12 + (day.month - 1) - months
    year, month = divmod(index, 12)
    month += 1
    for candidate in (day.day, 30, 29, 28):
        try:
            return date(year, month, candidate)
        except ValueError:
            continue
    raise AssertionError("unreachable: every month has a 28th")


def supported_versions(
    release_date: date, *, releases: dict[tuple[int, int], date] | None = None
) -> tuple[tuple[int, int], ...]:
    """CPython minor versions a release on ``release_date`` supports, oldest first.

    Every minor version first released in the 42 months before the release date, and at least the
    two latest minor versions released by then. Versions released after the date are not included.
    Empty when the table knows no version released before the date.
    """
    table = CPYTHON_RELEASES if releases is None else releases
    released = sorted(v for v, shipped in table.items() if shipped <= release_date)
    window_start = months_before(release_date, SUPPORT_WINDOW_MONTHS)
    in_window = [v for v in released if table[v] >= window_start]
    latest = released[-MINIMUM_VERSIONS:]
    return tuple(sorted(set(in_window) | set(latest)))


def default_python_tags(
    release_date: date,
    *,
    free_threaded: bool,
    releases: dict[tuple[int, int], date] | None = None,
) -> tuple[str, ...]:
    """Wheel python tags (``cp310`` ... ``cp313``) a release on ``release_date`` must ship.

    The policy is NEP 29 as the process document words it: every CPython minor version released in
    the 42 months before the release date, and at least the two latest. ``free_threaded`` adds the
    free-threaded build (``cp313t``) right after its version for every version since 3.13.
    ``releases`` replaces the built-in table ``CPYTHON_RELEASES`` (which must be extended by hand
    for versions after 3.14).
    """
    tags: list[str] = []
    for major, minor in supported_versions(release_date, releases=releases):
        tags.append(f"cp{major}{minor}")
        if free_threaded and (major, minor) >= FREE_THREADED_SINCE:
            tags.append(f"cp{major}{minor}t")
    return tuple(tags)
