"""The one sort every table pane uses: numbers as numbers, text without regard to case, ages
youngest first, empty cells last in both directions, ties in the pane's own order."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from cockpit.domain.gates import GateStatus
from cockpit.ui.table_sort import newest_first, sort_rows, status_rank, text_key

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_pr_numbers_in_text_sort_as_numbers():
    refs = ["#100", "#10", "acme/vision#2", "#9", "v2.5.0-rc10", "v2.5.0-rc2"]
    assert sorted(refs, key=text_key) == ["#9", "#10", "#100", "acme/vision#2", "v2.5.0-rc2", "v2.5.0-rc10"]


def test_text_sorts_without_regard_to_case_and_an_empty_cell_has_no_key():
    assert sorted(["bob", "Carol", "alice", "Zed"], key=text_key) == ["alice", "bob", "Carol", "Zed"]
    assert text_key("") is None and text_key("   ") is None


def test_ages_sort_youngest_first_and_a_moment_without_a_zone_is_utc():
    moments = {
        "10 days": NOW - timedelta(days=10),
        "3 hours": NOW - timedelta(hours=3),
        "2 days": (NOW - timedelta(days=2)).replace(tzinfo=None),
    }
    assert sorted(moments, key=lambda name: newest_first(moments[name])) == ["3 hours", "2 days", "10 days"]
    assert newest_first(None) is None


def test_statuses_sort_red_amber_green_then_unknown():
    statuses = [GateStatus.GREEN, GateStatus.UNKNOWN, GateStatus.RED, GateStatus.AMBER]
    assert sorted(statuses, key=status_rank) == [GateStatus.RED, GateStatus.AMBER, GateStatus.GREEN, GateStatus.UNKNOWN]


def test_empty_cells_go_last_whichever_the_direction_and_ties_keep_their_order():
    rows = [("a", 2), ("b", None), ("c", 1), ("d", 2), ("e", None)]
    assert [r[0] for r in sort_rows(rows, lambda r: r[1])] == ["c", "a", "d", "b", "e"]
    assert [r[0] for r in sort_rows(rows, lambda r: r[1], reverse=True)] == ["a", "d", "c", "b", "e"]


rows_strategy = st.lists(
    st.tuples(st.integers(0, 1000), st.none() | st.integers(-5, 5), st.sampled_from("abcABC")), max_size=40
)


@given(rows_strategy, st.booleans())
def test_the_sort_is_stable_and_keeps_every_row(rows, reverse):
    ordered = sort_rows(rows, lambda r: r[1], reverse=reverse)
    assert sorted(ordered, key=repr) == sorted(rows, key=repr)
    keys = [r[1] for r in ordered if r[1] is not None]
    assert keys == sorted(keys, reverse=reverse)
    assert all(r[1] is None for r in ordered[len(keys) :])
    for key in {r[1] for r in rows}:
        assert [r for r in ordered if r[1] == key] == [r for r in rows if r[1] == key], "ties keep the pane's order"


@given(rows_strategy, st.booleans(), st.sampled_from(["a", "A", "[ab]", "c"]))
def test_filtering_then_sorting_agrees_with_sorting_then_filtering(rows, reverse, pattern):
    keeps = re.compile(pattern).search

    def kept(some):
        return [r for r in some if keeps(r[2])]

    def by_key(row):
        return row[1]

    assert sort_rows(kept(rows), by_key, reverse=reverse) == kept(sort_rows(rows, by_key, reverse=reverse))
