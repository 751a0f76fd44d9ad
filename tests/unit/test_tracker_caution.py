"""What the tracker says against a merge that does not block it: the second question of `M`."""

from __future__ import annotations

from cockpit.domain.picks import PickFlag, PickRequest, PickRow, PickStatus, PRRef
from cockpit.services.merge_readiness import tracker_caution


def row(status=PickStatus.UNDER_REVIEW, *flags):
    request = PickRequest(1, "dana", "body", (PRRef(10),), (PRRef(11),), "Regression")
    return PickRow(request, status, tuple(flags))


def test_a_request_posted_in_phase_two_is_named_with_what_merging_it_means():
    said = tracker_caution(row(PickStatus.UNDER_REVIEW, PickFlag.PHASE_2))
    assert said is not None
    assert said.startswith("@dana's request is still under review on the tracker, and:")
    assert "phase 2 (after the cut-off)" in said and said.endswith("accepts the request anyway. Merge it?")


def test_an_unconfirmed_prose_reading_is_named_too_and_both_are_listed():
    said = tracker_caution(row(PickStatus.UNDER_REVIEW, PickFlag.PHASE_2, PickFlag.READ_FROM_PROSE))
    assert said is not None and said.count("\n  - ") == 2 and "nobody confirmed that reading" in said


def test_a_request_the_tracker_says_nothing_against_is_asked_once():
    assert tracker_caution(row()) is None
    assert tracker_caution(row(PickStatus.UNDER_REVIEW, PickFlag.STALE)) is None  # it only waited
    assert tracker_caution(row(PickStatus.ACCEPTED, PickFlag.PHASE_2)) is None  # merged: refused elsewhere
