"""Each wheel's size across the RCs: the series, the record the cockpit keeps, and the report's table."""

from __future__ import annotations

import pytest

from cockpit.errors import ReadOnlyError
from cockpit.services.rc_sizes import family_of, growing_towards_limit, rc_size_series, with_current
from cockpit.services.trends_text import rc_size_lines
from cockpit.state.store import StateStore

CU126_BIG = "torchlet-2.5.0+cu126-cp313-cp313t-manylinux_2_28_x86_64.whl"
CU126_SMALL = "torchlet-2.5.0+cu126-cp312-cp312-win_amd64.whl"
CPU_MAC = "torchlet-2.5.0-cp312-none-macosx_11_0_arm64.whl"
VISION = "torchlet_vision-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"
HISTORY = {
    "v2.5.0-rc2": {CU126_BIG: 960_000_000, CU126_SMALL: 700_000_000, CPU_MAC: 70_000_000, VISION: 30_000_000},
    "v2.5.0-rc10": {CU126_BIG: 1_012_000_000, CU126_SMALL: 710_000_000, VISION: 31_000_000},
    "v2.5.0-rc1": {CU126_BIG: 900_000_000, CPU_MAC: 71_000_000},
    "not-an-rc": {CU126_BIG: 1},
}


def test_each_family_shows_its_largest_wheel_of_the_newest_rc_at_every_rc_in_rc_order():
    series = rc_size_series(HISTORY, 1000)

    assert series.tags == ("v2.5.0-rc1", "v2.5.0-rc2", "v2.5.0-rc10")
    assert series.limit_bytes == 1_000_000_000
    assert [(w.family, w.filename, w.sizes) for w in series.wheels] == [
        ("torchlet cu126", CU126_BIG, (900_000_000, 960_000_000, 1_012_000_000)),
        ("torchlet_vision cu126", VISION, (None, 30_000_000, 31_000_000)),
    ]


def test_a_wheel_the_newest_rc_no_longer_builds_drops_out_and_two_per_family_can_be_asked_for():
    series = rc_size_series(HISTORY, 1000, per_family=2)

    assert [w.filename for w in series.wheels] == [CU126_BIG, CU126_SMALL, VISION]
    assert CPU_MAC not in [w.filename for w in series.wheels]  # rc10 has no macOS wheel


def test_the_family_is_the_package_and_its_variant_the_mac_cpu_build_has_none():
    assert family_of(CU126_BIG) == "torchlet cu126"
    assert family_of(CPU_MAC) == "torchlet (plain)"
    assert family_of("README.txt") == "README.txt"


def test_a_wheel_that_grew_to_ninety_percent_of_the_limit_is_seen_before_it_crosses():
    history = {"v2.5.0-rc1": {CU126_BIG: 850_000_000}, "v2.5.0-rc2": {CU126_BIG: 905_000_000}}
    shrinking = {"v2.5.0-rc1": {CU126_BIG: 950_000_000}, "v2.5.0-rc2": {CU126_BIG: 940_000_000}}

    assert [w.filename for w in growing_towards_limit(rc_size_series(history, 1000))] == [CU126_BIG]
    assert growing_towards_limit(rc_size_series(shrinking, 1000)) == []
    assert growing_towards_limit(rc_size_series({"v2.5.0-rc1": {CU126_BIG: 990_000_000}}, 1000)) == []


def test_no_rc_recorded_is_an_empty_picture_and_no_report_table():
    series = rc_size_series({}, 1000)
    assert series.tags == () and series.wheels == ()
    assert rc_size_lines(series) == []


def test_the_current_rc_observed_now_replaces_what_was_recorded_under_its_tag():
    recorded = {"v2.5.0-rc1": {CU126_BIG: 1}, "v2.5.0-rc2": {CU126_BIG: 2}}
    assert with_current(recorded, "v2.5.0-rc2", {CU126_BIG: 3}) == {
        "v2.5.0-rc1": {CU126_BIG: 1},
        "v2.5.0-rc2": {CU126_BIG: 3},
    }
    assert with_current(recorded, "v2.5.0-rc2", {}) == recorded


def test_the_report_table_lists_each_wheel_its_size_at_each_rc_and_the_limit_marking_the_one_over():
    lines = rc_size_lines(rc_size_series(HISTORY, 1000))

    assert "| Wheel | rc1 | rc2 | rc10 | Limit |" in lines
    assert f"| `{CU126_BIG}` | 900.0 | 960.0 | **1012.0** ✗ | 1000.0 |" in lines
    assert f"| `{VISION}` | - | 30.0 | 31.0 | 1000.0 |" in lines
    assert lines[-1] == f"Growing towards the limit (90% or more of it now): `{CU126_BIG}`"


def test_a_hostile_filename_cannot_break_the_report_table():
    hostile = "torchlet-2.5.0+cu126-cp312-cp312-x|`[x](http://evil)`.whl"
    lines = rc_size_lines(rc_size_series({"v2.5.0-rc1": {hostile: 5_000_000}}, 1000))
    row = next(line for line in lines if "5.0" in line)
    assert row.count("|") - row.count("\\|") == 4  # the pipe in the name is escaped: still three cells


def test_the_sizes_seen_at_an_rc_are_recorded_in_the_state_file_once(tmp_path):
    store = StateStore(tmp_path / "state.toml")
    try:
        assert store.record_rc_sizes("v2.5.0-rc1", {CU126_BIG: 900})
        assert not store.record_rc_sizes("v2.5.0-rc1", {CU126_BIG: 900})  # unchanged: not written again
        assert store.record_rc_sizes("v2.5.0-rc2", {CU126_BIG: 960})
    finally:
        store.close()
    again = StateStore(tmp_path / "state.toml", read_only=True)
    try:
        assert again.rc_sizes() == {"v2.5.0-rc1": {CU126_BIG: 900}, "v2.5.0-rc2": {CU126_BIG: 960}}
        assert again.audit_log() == []  # an observation, not a decision
        with pytest.raises(ReadOnlyError):
            again.record_rc_sizes("v2.5.0-rc3", {CU126_BIG: 1})
    finally:
        again.close()


def test_malformed_recorded_sizes_are_skipped(tmp_path):
    path = tmp_path / "state.toml"
    path.write_text(
        'schema = 1\n[rc_sizes]\n"v2.5.0-rc1" = { "a.whl" = 5, "b.whl" = "big", "c.whl" = -1, "d.whl" = true }\n'
        '"v2.5.0-rc2" = "oops"\n'
    )
    store = StateStore(path, read_only=True)
    try:
        assert store.rc_sizes() == {"v2.5.0-rc1": {"a.whl": 5}}
    finally:
        store.close()


def test_the_wheels_nearest_the_limit_come_first_whatever_their_family():
    history = {"v2.5.0-rc1": {CPU_MAC: 70_000_000, VISION: 30_000_000, CU126_SMALL: 700_000_000}}
    assert [w.filename for w in rc_size_series(history, 1000).wheels] == [CU126_SMALL, CPU_MAC, VISION]
