"""The RC sizes picture over the sandbox: rc1 as the demo seeds it into the state file, rc2 as the
cockpit observes it on the channel and records it; the expected series is computed from the world's
own wheels, never from the cockpit's reports."""

from __future__ import annotations

from cockpit.bootstrap import build_backend
from cockpit.loaders.picture import gather
from cockpit.sandbox.demo import seed_rc_sizes
from cockpit.sandbox.world_wheels import RC1_OVERSIZE_BYTES
from cockpit.services.rc_sizes import rc_size_series
from cockpit.services.report_render import render_markdown
from tests.e2e.test_trends_on_sandbox import TODAY

RC1, RC2 = "v2.5.0-rc1", "v2.5.0-rc2"


def staged_sizes(world) -> dict[str, int]:
    """The current RC's files on the test channel, as the index serves them (yanked ones left out)."""
    return {w.filename: w.size for w in world.wheels if w.channel == "test" and not w.yanked}


def largest_of_each_family(world) -> dict[str, str]:
    """(package, variant) -> the filename of its largest staged wheel; the macOS cpu build has no variant."""
    largest: dict[tuple[str, str], tuple[int, str]] = {}
    for w in world.wheels:
        if w.channel != "test" or w.yanked:
            continue
        variant = "" if w.variant == "cpu" and "macosx" in w.filename else w.variant
        key = (w.package.replace("-", "_"), variant)
        largest[key] = max(largest.get(key, (0, "")), (w.size, w.filename), key=lambda p: (p[0], -len(p[1])))
    return {f"{p} {v or '(plain)'}": name for (p, v), (_size, name) in largest.items()}


def test_the_demo_seeds_rc1_and_judging_storage_records_rc2_in_the_state_file(sandbox, sandbox_world):
    assert seed_rc_sizes(sandbox.config, sandbox_world) == 1
    assert seed_rc_sizes(sandbox.config, sandbox_world) == 0  # a state file with a history keeps its own

    backend = build_backend(sandbox.config)
    try:
        report = backend.load_storage()
        recorded = backend.state.rc_sizes()
    finally:
        backend.state.close()

    assert recorded[RC1] == sandbox_world.truth["storage"]["earlier_rcs"][RC1]
    assert recorded[RC2] == staged_sizes(sandbox_world)
    assert report.rc_sizes == recorded


def test_a_read_only_session_shows_the_current_rc_but_records_nothing(sandbox, sandbox_world):
    seed_rc_sizes(sandbox.config, sandbox_world)
    backend = build_backend(sandbox.config, read_only=True)
    try:
        report = backend.load_storage()
        recorded = backend.state.rc_sizes()
    finally:
        backend.state.close()

    assert set(recorded) == {RC1}
    assert report.rc_sizes[RC2] == staged_sizes(sandbox_world)


def test_the_series_is_each_familys_largest_wheel_at_rc1_and_rc2_with_the_oversize_one_growing(sandbox, sandbox_world):
    seed_rc_sizes(sandbox.config, sandbox_world)
    backend = build_backend(sandbox.config)
    try:
        picture = gather(backend)
    finally:
        backend.state.close()
    rc1 = sandbox_world.truth["storage"]["earlier_rcs"][RC1]
    now = staged_sizes(sandbox_world)
    want = {family: (rc1[name], now[name]) for family, name in largest_of_each_family(sandbox_world).items()}

    series = rc_size_series(picture.storage.rc_sizes, picture.storage.report.size_limit_mb)
    assert series.tags == (RC1, RC2)
    assert {w.family: w.sizes for w in series.wheels} == want
    (oversize,) = sandbox_world.truth["storage"]["oversize"]
    grown = next(w for w in series.wheels if w.filename == oversize)
    assert grown.sizes == (RC1_OVERSIZE_BYTES, now[oversize])
    assert RC1_OVERSIZE_BYTES < 1_000_000_000 < now[oversize]  # seen near the limit at rc1, over it at rc2

    section = render_markdown(picture, TODAY).split("### Trends", 1)[1]
    assert "| Wheel | rc1 | rc2 | Limit |" in section
    assert f"| `{oversize}` | 930.0 | **{now[oversize] / 1e6:.1f}** ✗ | 1000.0 |" in section
