"""A configured workflow name that matches nothing is warned about, with the near match."""

from __future__ import annotations

from cockpit.services.release_discovery import suggest_workflows
from cockpit.services.workflow_names import check_names, near_match

KNOWN = ["pull", "trunk", "Lint", "linux-binary-manywheel", "windows-binary-wheel", "inductor"]


def test_a_name_in_the_wrong_case_is_warned_with_the_real_spelling() -> None:
    [warning] = check_names(["pull", "trunk", "lint"], KNOWN)
    assert warning.configured == "lint" and warning.near == "Lint"
    assert "did you mean 'Lint'" in warning.message


def test_a_misspelt_name_gets_the_closest_one() -> None:
    assert near_match("linux-binary-manywheels", KNOWN) == "linux-binary-manywheel"
    assert near_match("docs-publish", KNOWN) is None
    assert check_names(["docs-publish"], KNOWN)[0].message.endswith("matches no workflow of the repository")


def test_exact_names_raise_nothing() -> None:
    assert check_names(["pull", "trunk", "Lint"], KNOWN) == []


def test_init_takes_lint_as_github_spells_it_and_the_binary_builds_from_the_rc_tag() -> None:
    seen = suggest_workflows(
        ["pull", "trunk", "Lint", "inductor"],
        ["pull", "linux-binary-manywheel", "windows-binary-wheel", "macos-arm64-binary-wheel"],
    )
    assert seen.required == ("pull", "trunk", "Lint")
    assert seen.binaries == ("linux-binary-manywheel", "windows-binary-wheel", "macos-arm64-binary-wheel")


def test_init_reads_the_workflow_list_before_any_run_and_names_what_matches_nothing() -> None:
    # GET /repos/{owner}/{repo}/actions/workflows lists names as GitHub spells them; nothing ran yet.
    listed = ["pull", "Lint", "linux-binary-manywheel", "windows-binary-wheel", "trunk-ci"]
    seen = suggest_workflows([], [], listed)
    assert seen.required == ("pull", "Lint")
    assert seen.binaries == ("linux-binary-manywheel", "windows-binary-wheel")
    [trunk] = seen.unmatched
    assert trunk.configured == "trunk" and trunk.near == "trunk-ci"


def test_a_pattern_that_matches_a_workflow_is_no_warning() -> None:
    assert check_names(["linux-binary-.*"], KNOWN) == []
    assert check_names(["pull("], KNOWN)[0].configured == "pull("
