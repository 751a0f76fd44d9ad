"""The config's PyTorch defaults are the profile's values (each with its source), not a second copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockpit.config import parse_config
from cockpit.config.evidence import EvidenceConfig
from cockpit.errors import ConfigError
from cockpit.profile import load_profile

PROFILE = load_profile("pytorch")
PATH = Path("/cfg/cockpit.toml")


def doc(**extra: object) -> dict:
    base: dict = {
        "release": {"version": "2.9.0", "repository": "pytorch/pytorch"},
        "git": {"clone": "/src/pytorch"},
        "ci": [{"repository": "pytorch/pytorch"}, {"repository": "pytorch/vision", "branch": "release/0.24"}],
    }
    base.update(extra)
    return base


def test_required_workflows_and_binary_builds_come_from_the_profile():
    core, vision = parse_config(PATH, doc()).ci
    assert core.required_workflows == PROFILE.strings("ci.required_workflows") == ("pull", "trunk", "Lint")
    assert core.binary_workflows == PROFILE.strings("ci.binary_build_workflows")
    assert "linux-binary-manywheel" in core.binary_workflows
    assert vision.binary_workflows == (), "another repository's RC tags are not the release's"


def test_an_old_single_binary_workflow_is_kept_and_an_empty_list_turns_them_off():
    old = doc(ci=[{"repository": "pytorch/pytorch", "binary_workflow": "binary-builds"}])
    assert parse_config(PATH, old).ci[0].binary_workflows == ("binary-builds",)
    both = doc(ci=[{"repository": "pytorch/pytorch", "binary_workflows": ["a"], "binary_workflow": "b"}])
    assert parse_config(PATH, both).ci[0].binary_workflows == ("a", "b")
    none = doc(ci=[{"repository": "pytorch/pytorch", "binary_workflows": []}])
    assert parse_config(PATH, none).ci[0].binary_workflows == ()


def test_release_only_markers_are_the_profiles():
    config = parse_config(PATH, doc())
    assert config.git.release_only_patterns == PROFILE.strings("release_only.markers")


def test_evidence_defaults_are_the_profiles():
    cfg = parse_config(PATH, doc(evidence={k: {} for k in EvidenceConfig.__dataclass_fields__})).evidence
    assert cfg.validate_binaries is not None and cfg.validation_issue is not None
    assert cfg.validate_binaries.repository == PROFILE.text("validate_binaries.repository")
    assert cfg.validate_binaries.workflow == "validate-binaries.yml"
    assert PROFILE.text("validate_binaries.workflow_file").endswith("/" + cfg.validate_binaries.workflow)
    assert cfg.validate_binaries.channel == PROFILE.text("validate_binaries.rc_channel")
    assert cfg.validation_issue.title == PROFILE.strings("titles.validation_issue")
    assert cfg.release_matrix_pr is not None and cfg.published_versions_pr is not None
    assert cfg.release_matrix_pr.repository == "pytorch/test-infra"
    assert cfg.release_matrix_pr.title == ("Release {version_short} go live. Update release matrix",)
    assert cfg.published_versions_pr.repository == PROFILE.text("titles.published_versions_pr_repository")
    assert cfg.published_versions_pr.title == (PROFILE.text("titles.published_versions_pr"),)
    assert cfg.triton_pin_release is not None
    assert cfg.triton_pin_release.pin_path == PROFILE.text("triton.pin_file")
    assert cfg.triton_pin_release.version_path == PROFILE.text("triton.version_file")
    assert cfg.triton_pin_release.package == PROFILE.text("triton.pypi_package")
    assert cfg.docs_build_entry is not None and cfg.colab_issue is not None
    assert (cfg.docs_build_entry.repository, cfg.docs_build_entry.ref, cfg.docs_build_entry.path) == (
        "pytorch/docs",
        "site",
        "{version_short}/index.html",
    )
    assert cfg.colab_issue.repository == PROFILE.text("titles.colab_repository") == "googlecolab/colabtools"
    assert cfg.colab_issue.title == PROFILE.text("titles.colab_issue")


def test_the_colab_title_matches_the_real_request_forms_and_not_any_title_naming_the_version():
    from fnmatch import fnmatch

    pattern = PROFILE.text("titles.colab_issue").replace("{version}", "2.10.0").lower()
    assert fnmatch("Upgrading PyTorch v2.10.0, torchvision v0.25.0, torchaudio to v2.10.0".lower(), pattern)
    assert fnmatch("Upgrading PyTorch to v2.10.0 and torchvision to v0.25.0".lower(), pattern)
    assert not fnmatch("torch 2.10.0 breaks my notebook".lower(), pattern)


def test_feature_requests_are_skipped_by_the_profiles_label():
    assert parse_config(PATH, doc()).skip_labels == PROFILE.strings("milestone.skip_labels")


def test_tracker_titles_default_to_both_real_forms():
    assert parse_config(PATH, doc()).release is not None
    from cockpit.config.release import ReleaseTable

    assert ReleaseTable.__dataclass_fields__["tracker_titles"].default == PROFILE.strings("titles.tracker")


def test_title_forms_take_a_list_or_one_string_as_old_configs_wrote():
    one = doc(evidence={"validation_issue": {"title": "*{version}*validation*"}})
    assert parse_config(PATH, one).evidence.validation_issue.title == ("*{version}*validation*",)
    many = doc(evidence={"release_matrix_pr": {"title": ["Release {version_short} go live*", "Go live {version}"]}})
    assert parse_config(PATH, many).evidence.release_matrix_pr.title == (
        "Release {version_short} go live*",
        "Go live {version}",
    )
    with pytest.raises(ConfigError, match="title forms using only"):
        parse_config(PATH, doc(evidence={"validation_issue": {"title": ["Release {channel}"]}}))


def test_an_old_validate_binaries_title_is_a_warning_not_an_error():
    config = parse_config(PATH, doc(evidence={"validate_binaries": {"title": "*{version}*"}}))
    [warning] = config.warnings
    assert "evidence.validate_binaries.title' is no longer used" in warning
    assert "run-name" in warning
    assert config.evidence.validate_binaries is not None


def test_a_tracker_titled_in_no_form_is_noted_without_changing_the_verdict():
    from cockpit.domain.gates import Gate, GateStatus
    from cockpit.domain.reports import PicksReport
    from cockpit.loaders.picks import _titled_as_a_tracker

    forms = parse_config(PATH, doc()).tracker_titles
    gate = Gate("picks_clear", "Picks", GateStatus.GREEN, "all clear")
    newer = PicksReport(186934, "[v.2.9.0] Release Tracker", (), (), gate)
    assert _titled_as_a_tracker(newer, forms, "2.9.0") is newer
    wrong = _titled_as_a_tracker(PicksReport(58518, "[v2.8.0] Release Tracker", (), (), gate), forms, "2.9.0")
    assert wrong.gate.status is GateStatus.GREEN
    assert wrong.gate.details == (
        "#58518 is titled '[v2.8.0] Release Tracker', not '[v2.9.0] Release Tracker' or "
        "'[v.2.9.0] Release Tracker': this release's?",
    )


def test_the_storage_size_defaults_are_the_profiles():
    storage = parse_config(PATH, doc()).storage
    assert storage.size_limit_mb == PROFILE.number("pypi.size_limit_mb")
    assert storage.size_warn_mb == PROFILE.number("sizes.download_site_ceiling_mb")
    assert storage.size_jump_ratio == PROFILE.number("sizes.jump_ratio")
    assert storage.size_jump_mb == PROFILE.number("sizes.jump_mb")
