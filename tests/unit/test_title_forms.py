"""Trackers, validation issues and release-day PRs are found by the title forms the team really uses."""

from __future__ import annotations

import pytest

from cockpit.profile import load_profile
from cockpit.services.title_forms import form_pattern, matches_form, newest_titled, short_version

PROFILE = load_profile()


@pytest.mark.parametrize(
    ("title", "version"),
    [
        ("[v3.1.1] Release Tracker", "3.1.1"),
        ("[v.3.4.0] Release Tracker", "3.4.0"),
        ("[V.3.4.0]  release tracker", "3.4.0"),
    ],
)
def test_both_tracker_spellings_are_found(title: str, version: str) -> None:
    assert matches_form(title, PROFILE.strings("titles.tracker"), version)


def test_a_tracker_of_another_release_is_not_taken() -> None:
    forms = PROFILE.strings("titles.tracker")
    assert not matches_form("[v.3.4.1] Release Tracker", forms, "3.4.0")
    assert not matches_form("[v3.4.0] Release Tracker follow-ups", forms, "3.4.0")


@pytest.mark.parametrize(
    "title",
    ["Release 3.4 validations checklist and cherry-picks", "Validations for 3.4.0 release"],
)
def test_validation_issues_in_both_forms(title: str) -> None:
    assert matches_form(title, PROFILE.strings("titles.validation_issue"), "3.4.0")


def test_release_day_prs_in_their_repositories() -> None:
    assert PROFILE.text("titles.release_matrix_pr_repository") == "pytorch/test-infra"
    assert matches_form(
        "Release 3.4 go live. Update release matrix (#9261)", [PROFILE.text("titles.release_matrix_pr")], "3.4.0"
    )
    assert matches_form(
        "[Getting Started Page] Modify published_versions.json file",
        [PROFILE.text("titles.published_versions_pr")],
        "3.4.0",
    )


def test_a_user_form_overrides_and_a_misspelt_placeholder_is_named() -> None:
    assert matches_form("Torchlet 3.4 checks", ["Torchlet {version_short} checks"], "3.4.0")
    with pytest.raises(ValueError, match="verison"):
        form_pattern("Release {verison}", "3.4.0")


def test_the_newest_matching_item_wins() -> None:
    items = [(10, "[v3.4.0] Release Tracker", "old"), (12, "[v.3.4.0] Release Tracker", "new"), (13, "Other", "x")]
    assert newest_titled(items, PROFILE.strings("titles.tracker"), "3.4.0") == "new"
    assert newest_titled([], PROFILE.strings("titles.tracker"), "3.4.0") is None
    assert short_version("3.4.0") == "3.4"


def test_an_old_glob_pattern_is_a_form_too() -> None:
    assert matches_form("[v3.4.0] Release validation", ["*{version}*validation*"], "3.4.0")
    assert not matches_form("[v3.3.0] Release validation", ["*{version}*validation*"], "3.4.0")


def test_each_form_is_searched_by_its_fixed_words() -> None:
    from cockpit.services.title_forms import described, search_words

    assert search_words("Release {version_short} go live. Update release matrix", "3.4.0") == (
        '"Release 3.4 go live. Update release matrix"'
    )
    assert search_words("*{version}*validation*", "3.4.0") == '"3.4.0" "validation"'
    assert described(["[v{version}] Release Tracker", "[v.{version}] Release Tracker"], "3.4.0") == (
        "'[v3.4.0] Release Tracker' or '[v.3.4.0] Release Tracker'"
    )
