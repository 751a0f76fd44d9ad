"""The PyTorch profile: every default carries its source, and the loader refuses one that does not."""

from __future__ import annotations

import pytest

from cockpit.profile import CONFIG_DEFAULTS, ProfileError, load_profile, parse_profile, raw_profile, sourced_values


def test_every_value_of_the_pytorch_profile_names_its_source() -> None:
    leaves = list(sourced_values(raw_profile("pytorch")))
    assert len(leaves) > 40
    unsourced = [
        path
        for path, raw in leaves
        if not (isinstance(raw, dict) and set(raw) == {"value", "source"} and str(raw["source"]).strip())
    ]
    assert unsourced == []


def test_a_value_without_a_source_is_found_by_the_walk_and_refused_by_the_loader() -> None:
    data = {"schema": 1, "ci": {"required_workflows": {"value": ["Lint"]}}}
    leaves = dict(sourced_values(data))
    assert leaves == {"ci.required_workflows": {"value": ["Lint"]}}
    with pytest.raises(ProfileError, match=r"ci\.required_workflows"):
        parse_profile("made-up", data)


def test_a_bare_value_and_a_blank_source_are_refused() -> None:
    with pytest.raises(ProfileError, match="expected"):
        parse_profile("made-up", {"schema": 1, "pypi": {"size_limit_mb": 1000}})
    with pytest.raises(ProfileError, match="source must name"):
        parse_profile("made-up", {"schema": 1, "pypi": {"size_limit_mb": {"value": 1000, "source": " "}}})


def test_a_library_without_a_source_is_refused() -> None:
    lib = {f: {"value": "x", "source": "s"} for f in ("name", "repository", "package", "version_at_source")}
    lib["numbering"] = {"value": "own"}
    lib["staged_for_pypi"] = {"value": True, "source": "s"}
    with pytest.raises(ProfileError, match=r"library\[0\]\.numbering"):
        parse_profile("made-up", {"schema": 1, "library": [lib]})


def test_the_lint_workflow_is_spelt_as_github_reports_it() -> None:
    profile = load_profile()
    assert profile.strings("ci.required_workflows") == ("pull", "trunk", "Lint")
    assert "linux-binary-manywheel" in profile.strings("ci.binary_build_workflows")


def test_domain_libraries_have_their_own_numbering() -> None:
    profile = load_profile()
    vision = profile.library("vision")
    assert vision.package.value == "torchvision"
    assert vision.repository.value == "pytorch/vision"
    assert vision.numbering.value != profile.library("audio").numbering.value or vision.version_at_source.value != (
        profile.library("audio").version_at_source.value
    )
    with pytest.raises(ProfileError, match="known: vision"):
        profile.library("nonesuch")


def test_conda_is_not_part_of_the_pytorch_promotion() -> None:
    profile = load_profile()
    assert profile.value("promotion.conda") is False
    assert not any("conda" in step for step in profile.strings("promotion.steps"))


def test_every_config_default_points_at_a_value_the_profile_has() -> None:
    profile = load_profile()
    for key in CONFIG_DEFAULTS.values():
        assert profile.get(key).source


def test_a_wrong_type_names_the_key() -> None:
    with pytest.raises(ProfileError, match=r"pypi\.size_limit_mb must be a number"):
        parse_profile("p", {"schema": 1, "pypi": {"size_limit_mb": {"value": "big", "source": "s"}}}).number(
            "pypi.size_limit_mb"
        )
