"""Triton: the version file and the commit pin on the release branch, and PyPI's triton at that version."""

from __future__ import annotations

from cockpit.domain.gates import GateStatus
from cockpit.profile import load_profile
from cockpit.services.evidence_release_day import triton_gate, triton_version_named

PIN = "0123456789abcdef0123456789abcdef01234567\n"
VERSION_FILE = load_profile().text("triton.version_file")


def judge(version_text, published, versions=()):
    return triton_gate(
        pin_text=PIN,
        path=load_profile().text("triton.pin_file"),
        branch="release/3.1",
        versions=versions,
        package=load_profile().text("triton.pypi_package"),
        published=published,
        asked=True,
        version_text=version_text,
        version_path=VERSION_FILE,
    )


def test_the_version_file_names_the_triton_release_to_look_for() -> None:
    gate = judge("3.9.0\n", ["triton-3.9.0-cp312-cp312-manylinux_2_28_x86_64.whl"])
    assert gate.status is GateStatus.GREEN
    assert f"{VERSION_FILE} on release/3.1: 3.9.0" in gate.details


def test_a_version_not_yet_on_pypi_is_red_and_names_it() -> None:
    gate = judge("3.9.0\n", None)
    assert gate.status is GateStatus.RED and "3.9.0" in gate.summary


def test_the_file_wins_over_a_config_mapping_and_the_mapping_is_the_fallback() -> None:
    assert "3.9.0" in judge("3.9.0", [], versions=(("0123456", "3.8.5"),)).summary
    fallback = judge(None, ["x"], versions=(("0123456", "3.8.5"),))
    assert "3.8.5" in fallback.summary


def test_neither_file_nor_mapping_is_amber() -> None:
    assert judge(None, None).status is GateStatus.AMBER


def test_only_a_version_is_read_from_the_file() -> None:
    assert triton_version_named("\n 3.10.1 \n") == "3.10.1"
    assert triton_version_named("<html>oops</html>") is None
    assert triton_version_named(None) is None
