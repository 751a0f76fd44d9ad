"""How ``cockpit init`` tells this release's milestone, tracker, remote and workflows from the others."""

from __future__ import annotations

import pytest

from cockpit.domain.github import ItemKind, ItemState, Milestone, MilestoneItem
from cockpit.services.release_discovery import (
    choose_main,
    choose_milestone,
    choose_remote,
    choose_tracker,
    milestone_version,
    names_repository,
    rc_tags,
    suggest_workflows,
    tracker_version,
)


def issue(
    number: int,
    title: str,
    *,
    labels: tuple[str, ...] = ("release tracker",),
    open_: bool = True,
    kind: ItemKind = ItemKind.ISSUE,
) -> MilestoneItem:
    state = ItemState.OPEN if open_ else ItemState.CLOSED
    return MilestoneItem(number, kind, title, state, f"https://github.com/acme/torchlet/issues/{number}", labels=labels)


@pytest.mark.parametrize(
    "title",
    [
        "[v2.5.0] Release Tracker",
        "[v.2.5.0] Release Tracker",
        "[2.5.0] Release Tracker",
        "v2.5.0 Release Tracker",
        "[V2.5.0] RELEASE TRACKER",
        " [ v2.5.0 ]  release tracker ",
        "2.5.0 Release Tracker",
    ],
)
def test_every_real_spelling_of_a_tracker_title_names_its_version(title):
    assert tracker_version(title) == "2.5.0"


@pytest.mark.parametrize(
    "title",
    [
        "[v2.5.0] Release Tracker for docs",
        "Release Tracker",
        "[v2.5.0 Release Tracker",
        "v2.5.0] Release Tracker",
        "[v2.5.0] Release notes tracker",
        "Tracker [v2.5.0]",
    ],
)
def test_titles_that_only_look_like_a_tracker_name_no_version(title):
    assert tracker_version(title) is None


def test_the_labelled_tracker_of_the_version_wins_over_other_versions_duplicates_and_prs():
    chosen = choose_tracker(
        "2.5.0",
        [
            issue(90, "[v2.4.1] Release Tracker", open_=False),
            issue(91, "[v2.5.1] Release Tracker"),
            issue(95, "[v.2.5.0] Release Tracker", labels=(), open_=False),  # a duplicate, never labelled
            issue(96, "[v2.5.0] Release Tracker", kind=ItemKind.PULL),  # the issues list mixes PRs in
            issue(93, "[v2.5.0] Release Tracker", labels=("Release Tracker", "triaged")),
        ],
    )
    assert chosen.chosen.number == 93 and [i.number for i in chosen.others] == [95]


def test_among_unlabelled_trackers_the_open_one_then_the_newest_is_chosen():
    found = choose_tracker(
        "2.5.0",
        [
            issue(10, "[2.5.0] Release Tracker", labels=(), open_=False),
            issue(12, "[v2.5.0] Release Tracker", labels=()),
            issue(11, "v2.5.0 Release Tracker", labels=()),
        ],
    )
    assert [found.chosen.number, *(i.number for i in found.others)] == [12, 11, 10]


def test_a_minor_release_tracker_may_be_titled_by_major_minor_but_the_full_version_wins():
    found = choose_tracker(
        "2.5.0", [issue(7, "[v2.5] Release Tracker"), issue(8, "[v2.5.0] Release Tracker", labels=())]
    )
    assert found.chosen.number == 7, "labelled beats the spelling"
    assert (
        choose_tracker(
            "2.5.0", [issue(7, "[v2.5] Release Tracker"), issue(8, "[v2.5.0] Release Tracker")]
        ).chosen.number
        == 8
    )
    assert choose_tracker("2.5.1", [issue(7, "[v2.5] Release Tracker")]).chosen is None, "2.5 is not the patch release"


def test_no_tracker_is_none_and_nothing_else_is_claimed():
    assert choose_tracker("2.5.0", [issue(1, "Segfault in load", labels=())]) == choose_tracker("2.5.0", [])
    assert choose_tracker("2.5.0", []).chosen is None


def milestone(number: int, title: str, state: str = "open") -> Milestone:
    return Milestone(number, title, state)


def test_the_milestone_titled_exactly_by_the_version_wins_open_or_closed():
    found = choose_milestone(
        "2.5.0",
        [
            milestone(10, "v2.5", "closed"),
            milestone(11, "2.4.1", "closed"),
            milestone(12, "2.5.0", "closed"),
            milestone(13, "v2.5.0"),
            milestone(14, "2.5.1"),
            milestone(15, "2.5.0 docs"),
        ],
    )
    assert found.chosen.number == 12
    assert [m.number for m in found.others] == [13, 10]


def test_a_v_prefixed_or_major_minor_milestone_is_found_when_it_is_the_only_one():
    assert choose_milestone("2.5.0", [milestone(3, "V2.5.0")]).chosen.number == 3
    assert choose_milestone("2.5.0", [milestone(4, "2.5")]).chosen.number == 4
    assert choose_milestone("2.5.2", [milestone(4, "2.5")]).chosen is None
    assert milestone_version("v.2.5.0") == "2.5.0" and milestone_version("2.5.0 docs") is None


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/acme/torchlet.git",
        "https://github.com/Acme/Torchlet",
        "git@github.com:acme/torchlet.git",
        "ssh://git@github.com/acme/torchlet.git",
        "https://ghe.example.com/acme/torchlet.git/",
    ],
)
def test_a_remote_url_names_the_repository_on_any_host_and_protocol(url):
    assert names_repository(url, "acme/torchlet")


@pytest.mark.parametrize(
    "url",
    ["https://github.com/someone/torchlet.git", "git@github.com:acme/torchlet-extras.git", "/srv/mirrors/torchlet.git"],
)
def test_a_fork_or_a_mirror_path_does_not_name_the_repository(url):
    assert not names_repository(url, "acme/torchlet")


FORK = {"origin": "git@github.com:someone/torchlet.git", "upstream": "https://github.com/acme/torchlet.git"}


def test_the_only_remote_carrying_the_release_branch_is_chosen():
    choice = choose_remote("acme/torchlet", "release/2.5", FORK, ["upstream"])
    assert (choice.name, choice.others) == ("upstream", ())
    assert "upstream/release/2.5 exists" in choice.why


def test_when_the_fork_carries_it_too_the_remote_naming_the_repository_wins():
    choice = choose_remote("acme/torchlet", "release/2.5", FORK, ["origin", "upstream"])
    assert (choice.name, choice.others) == ("upstream", ("origin",))
    assert choice.why == "upstream/release/2.5 exists and upstream is https://github.com/acme/torchlet.git"


def test_with_urls_naming_nothing_upstream_then_origin_are_preferred():
    paths = {"origin": "/srv/a.git", "upstream": "/srv/b.git", "mirror": "/srv/c.git"}
    assert choose_remote("acme/torchlet", "release/2.5", paths, ["mirror", "origin"]).name == "origin"
    assert choose_remote("acme/torchlet", "release/2.5", paths, ["mirror", "origin", "upstream"]).name == "upstream"


def test_no_remote_carrying_the_branch_is_said_so():
    assert choose_remote("acme/torchlet", "release/2.5", {}, []).name is None
    unrelated = choose_remote("acme/torchlet", "release/2.5", {"fork": "git@github.com:me/torchlet.git"}, [])
    assert unrelated.name is None and "none is acme/torchlet" in unrelated.why
    upstream = choose_remote("acme/torchlet", "release/2.5", FORK, [])
    assert upstream.name == "upstream" and upstream.why.startswith("no remote has release/2.5 yet")


def test_the_trunk_is_the_remote_head_else_main_else_master():
    assert choose_main("trunk", ["main"]) == ("trunk", "the remote's HEAD points at it")
    assert choose_main(None, ["master"])[0] == "master"
    assert choose_main(None, ["master", "main"])[0] == "main"
    assert choose_main(None, []) == (None, "neither main nor master exists")


def test_rc_tags_of_the_version_only_in_candidate_order():
    tags = ["v2.5.0-rc10", "v2.5.0-rc2", "v2.5.0", "v2.4.1-rc1", "v2.5.0-rc1", "v2.5.0-rc1-fixed", "ciflow/v2.5.0-rc3"]
    assert rc_tags("2.5.0", tags) == ["v2.5.0-rc1", "v2.5.0-rc2", "v2.5.0-rc10"]


def test_required_workflows_are_the_usual_ones_that_ran_and_the_binary_one_ran_on_the_rc_tag():
    seen = suggest_workflows(
        ["trunk", "lint", "pull", "trunk", "inductor", "Upload test stats"],
        ["pull", "binary-builds", "Upload test stats"],
    )
    assert seen.required == ("pull", "trunk", "lint") and seen.binary == "binary-builds"
    assert seen.on_branch == ("Upload test stats", "inductor", "lint", "pull", "trunk")


def test_a_repository_without_the_usual_workflows_requires_every_one_that_ran():
    seen = suggest_workflows(["CI", "docs"], ["wheels-linux", "wheels-macos"])
    assert seen.required == ("CI", "docs") and seen.binary == "", "two build workflows: not guessed"
    assert suggest_workflows([]).required == ()


@pytest.mark.parametrize(
    ("url", "repository"),
    [
        ("https://github.com/pytorch/vision.git", "pytorch/vision"),
        ("https://github.com/pytorch/vision/", "pytorch/vision"),
        ("git@github.com:pytorch/audio.git", "pytorch/audio"),
        ("ssh://git@ghe.example.com/ml/vision", "ml/vision"),
        ("/home/rm/mirrors/vision.git", None),
        ("https://github.com/pytorch", None),
        ("", None),
    ],
)
def test_a_remote_url_names_its_github_repository_or_none(url, repository):
    from cockpit.services.release_discovery import repository_of

    assert repository_of(url) == repository


def test_the_version_in_flight_is_the_newest_with_an_rc_tag_and_no_final_tag():
    from cockpit.services.release_discovery import version_in_flight

    assert version_in_flight(["v0.19.0-rc1", "v0.19.0", "v0.20.0-rc1", "v0.20.0-rc2", "v0.9.0-rc3"]) == "0.20.0"
    assert version_in_flight(["v0.19.1-rc1", "v0.19.10-rc1"]) == "0.19.10"
    assert version_in_flight(["v0.19.0-rc1", "v0.19.0", "nightly"]) is None
