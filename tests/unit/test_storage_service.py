"""The RC storage check on hand-made index listings."""

from __future__ import annotations

import pytest

from cockpit.domain.artifacts import ExpectedArtifact, IndexFile
from cockpit.domain.gates import GateStatus
from cockpit.services.storage import (
    expected_artifacts,
    parse_wheel_filename,
    pypi_gate,
    same_version,
    storage_gate,
    validate_rc,
)

MB = 1_000_000
SHA = "ab" * 32
LINUX = "manylinux_2_28_x86_64"


def wheel(filename: str, size: int | None = 400 * MB, sha256: str | None = SHA) -> IndexFile:
    return IndexFile(filename=filename, url=f"http://index/whl/test/{filename}", sha256=sha256, size=size)


def staged(expected: tuple[ExpectedArtifact, ...]) -> list[IndexFile]:
    """A perfect RC channel: one healthy file per expected wheel."""
    return [wheel(e.filename) for e in expected]


EXPECTED = expected_artifacts(["torchlet"], "2.5.0", [LINUX, "win_amd64"], ["cp312", "cp313"])


def kinds(report) -> list[tuple[str, str]]:
    return [(p.kind, p.filename) for p in report.problems]


# --- wheel filenames -----------------------------------------------------------------------------


def test_wheel_filenames_with_local_versions_build_tags_and_tag_sets_parse():
    w = parse_wheel_filename("torch-2.5.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl")
    assert (w.name, w.version, w.public_version, w.python, w.platform) == (
        "torch",
        "2.5.0+cu130",
        "2.5.0",
        "cp312",
        "manylinux_2_28_x86_64",
    )
    assert parse_wheel_filename("Torch_Let-2.5.0-1-py3-none-any.whl").name == "torch_let"
    assert parse_wheel_filename("a-1-py2.py3-none-any.whl").tags() == {("py2", "any"), ("py3", "any")}
    assert parse_wheel_filename("torch-2.5.0-cp313-cp313t-win_amd64.whl").tags() == {("cp313t", "win_amd64")}
    assert parse_wheel_filename("libtorch-2.5.0.zip") is None
    assert parse_wheel_filename("torch--cp312-cp312-x.whl") is None


def test_local_versions_count_as_the_release_but_prereleases_do_not():
    assert same_version("2.5.0+cu130", "2.5.0")
    assert same_version("2.5", "2.5.0")
    assert not same_version("2.5.0rc1", "2.5.0")
    assert not same_version("2.5.0a0+git12ab", "2.5.0")
    assert not same_version("2.5.1", "2.5.0")


# --- validation ----------------------------------------------------------------------------------


def test_a_fully_staged_rc_is_green():
    report = validate_rc(EXPECTED, staged(EXPECTED), version="2.5.0")
    assert report.problems == ()
    gate = storage_gate(report)
    assert gate.name == "rc_artifacts" and gate.status is GateStatus.GREEN
    assert "all 4 expected wheels staged" in gate.summary


def test_expected_artifacts_cover_every_platform_and_python_tag():
    names = {e.filename for e in EXPECTED}
    assert names == {
        "torchlet-2.5.0-cp312-cp312-manylinux_2_28_x86_64.whl",
        "torchlet-2.5.0-cp313-cp313-manylinux_2_28_x86_64.whl",
        "torchlet-2.5.0-cp312-cp312-win_amd64.whl",
        "torchlet-2.5.0-cp313-cp313-win_amd64.whl",
    }


def test_a_wheel_nobody_uploaded_is_missing_and_blocks_the_release():
    found = staged(EXPECTED)[1:]
    report = validate_rc(EXPECTED, found, version="2.5.0", index_url="http://index/whl/test/torchlet/")
    assert kinds(report) == [("missing", EXPECTED[0].filename)]
    assert "http://index/whl/test/torchlet/" in report.problems[0].detail
    gate = storage_gate(report)
    assert gate.status is GateStatus.RED
    assert gate.summary == "1 problem: 1 missing"


def test_a_wheel_over_the_pypi_limit_is_red_and_one_over_the_warning_line_amber():
    found = staged(EXPECTED)
    found[0] = wheel(found[0].filename, size=1_050 * MB)
    found[1] = wheel(found[1].filename, size=900 * MB)
    report = validate_rc(EXPECTED, found, version="2.5.0")
    assert kinds(report) == [("oversize", found[0].filename), ("size_warning", found[1].filename)]
    assert report.problems[0].detail == "1050 MB, over the 1000 MB limit"
    assert storage_gate(report).summary == "2 problems: 1 over 1000 MB, 1 over 850 MB"
    assert storage_gate(report).status is GateStatus.RED

    sibling = wheel(found[0].filename, size=820 * MB)  # within the family's spread: not a truncated upload
    warned_only = validate_rc(EXPECTED, [found[1], sibling, *found[2:]], version="2.5.0")
    assert storage_gate(warned_only).status is GateStatus.AMBER


def test_missing_and_oversize_together_read_as_words():
    found = staged(EXPECTED)[1:]
    found[0] = wheel(found[0].filename, size=1_200 * MB)
    gate = storage_gate(validate_rc(EXPECTED, found, version="2.5.0"))
    assert gate.summary == "2 problems: 1 missing, 1 over 1000 MB"
    assert len(gate.details) == 2 and gate.details[0].startswith("missing: torchlet-2.5.0-cp312")


def test_an_rc_built_with_a_dev_version_is_a_wrong_version_not_a_missing_wheel():
    found = staged(EXPECTED)
    found[0] = wheel("torchlet-2.5.0a0+git1a2b3c-cp312-cp312-manylinux_2_28_x86_64.whl")
    report = validate_rc(EXPECTED, found, version="2.5.0")
    assert kinds(report) == [("wrong_version", found[0].filename)]
    assert "has version 2.5.0a0+git1a2b3c, the release is 2.5.0" in report.problems[0].detail
    assert storage_gate(report).status is GateStatus.RED


def test_local_version_wheels_of_each_accelerator_satisfy_the_release():
    found = [wheel(e.filename.replace("2.5.0-", f"2.5.0+{acc}-")) for e in EXPECTED for acc in ("cpu", "cu130")]
    assert validate_rc(EXPECTED, found, version="2.5.0").problems == ()


def test_files_of_the_previous_release_left_in_the_test_channel_are_ignored():
    found = staged(EXPECTED) + [wheel("torchlet-2.4.1-cp311-cp311-manylinux_2_28_x86_64.whl", sha256=None)]
    assert validate_rc(EXPECTED, found, version="2.5.0").problems == ()


def test_extra_files_of_this_version_are_unexpected_and_only_amber():
    extras = [
        wheel("torchlet-2.5.0-py3-none-any.whl"),
        wheel("torchlet-2.5.0-cp39-cp39-manylinux_2_28_x86_64.whl"),
        wheel("torchlet-2.5.0.tar.gz"),
    ]
    report = validate_rc(EXPECTED, staged(EXPECTED) + extras, version="2.5.0")
    assert sorted(kinds(report)) == sorted(("unexpected", f.filename) for f in extras)
    assert {p.detail for p in report.problems} >= {"not a wheel filename"}
    gate = storage_gate(report)
    assert gate.status is GateStatus.AMBER and gate.summary == "3 problems: 3 unexpected"


def test_a_link_without_checksum_or_size_is_amber():
    found = staged(EXPECTED)
    found[0] = wheel(found[0].filename, sha256=None)
    found[1] = wheel(found[1].filename, size=None)
    report = validate_rc(EXPECTED, found, version="2.5.0")
    assert kinds(report) == [("no_checksum", found[0].filename), ("size_unknown", found[1].filename)]
    gate = storage_gate(report)
    assert gate.status is GateStatus.AMBER
    assert gate.summary == "2 problems: 1 without checksum, 1 of unknown size"


FAMILY = expected_artifacts(["torchlet"], "2.5.0", [LINUX, "macosx_11_0_arm64"], ["cp310", "cp311", "cp312", "cp313"])


def family_sizes(linux_mb: float = 780, mac_mb: float = 72) -> list[IndexFile]:
    """A healthy RC: Linux wheels around 780 MB, macOS ones around 72 MB (a tenth, by design)."""
    return [
        wheel(e.filename, size=int((linux_mb if e.platform == LINUX else mac_mb) * MB) + i * 3 * MB)
        for i, e in enumerate(FAMILY)
    ]


def test_a_wheel_whose_head_says_22_bytes_is_truncated_and_blocks_the_release():
    found = family_sizes()
    cut = found[1].filename
    found[1] = wheel(cut, size=22)
    report = validate_rc(FAMILY, found, version="2.5.0")
    assert kinds(report) == [("truncated", cut)]
    detail = report.problems[0].detail
    assert "only 22 bytes" in detail and "typically 786 MB" in detail and LINUX in detail
    gate = storage_gate(report)
    assert gate.status is GateStatus.RED and gate.summary == "1 problem: 1 truncated"
    assert gate.details == (f"truncated: {cut}: {detail}",)


def test_a_wheel_far_smaller_than_its_siblings_of_the_same_platform_is_truncated():
    found = family_sizes()
    cut = found[2].filename
    found[2] = wheel(cut, size=212 * MB)  # an upload that stopped a quarter of the way
    report = validate_rc(FAMILY, found, version="2.5.0")
    assert kinds(report) == [("truncated", cut)]
    assert "212 MB, under 50% of the 783 MB typical of its 3 siblings (torchlet manylinux_2_28_x86_64)" in (
        report.problems[0].detail
    )


def test_small_platforms_and_python_to_python_spread_are_not_truncation():
    found = family_sizes()
    found[0] = wheel(found[0].filename, size=560 * MB)  # 30% under the others: a slimmer build, still plausible
    assert validate_rc(FAMILY, found, version="2.5.0").problems == ()


def test_each_accelerator_variant_is_its_own_family():
    expected = expected_artifacts(["torchlet"], "2.5.0", [LINUX], ["cp312", "cp313"])
    found = [wheel(f"torchlet-2.5.0+cpu-{t}-{t}-{LINUX}.whl", size=180 * MB) for t in ("cp312", "cp313")]
    found += [wheel(f"torchlet-2.5.0+cu130-{t}-{t}-{LINUX}.whl", size=700 * MB) for t in ("cp312", "cp313")]
    assert validate_rc(expected, found, version="2.5.0").problems == ()
    found[3] = wheel(found[3].filename, size=250 * MB)  # bigger than the cpu wheels, yet cut
    report = validate_rc(expected, found, version="2.5.0")
    assert kinds(report) == [("truncated", found[3].filename)]
    assert "(torchlet +cu130 manylinux_2_28_x86_64)" in report.problems[0].detail


def test_a_lone_wheel_under_a_kilobyte_is_truncated_even_without_siblings():
    expected = expected_artifacts(["torchlet"], "2.5.0", ["win_amd64"], ["cp312"])
    report = validate_rc(expected, [wheel(expected[0].filename, size=512)], version="2.5.0")
    assert kinds(report) == [("truncated", expected[0].filename)]
    assert report.problems[0].detail.startswith("only 512 bytes: no wheel with real contents is under 1.0 KB")


def test_a_size_nobody_stated_is_unknown_with_the_reason_never_green():
    found = staged(EXPECTED)
    why = "HEAD http://index/whl/test/x.whl: answered 503 Service Unavailable; expected 200"
    found[0] = IndexFile(found[0].filename, found[0].url, SHA, size=None, size_error=why)
    report = validate_rc(EXPECTED, found, version="2.5.0")
    assert kinds(report) == [("size_unknown", found[0].filename)]
    assert report.problems[0].detail == why
    gate = storage_gate(report)
    assert gate.status is GateStatus.UNKNOWN
    assert gate.summary == "1 problem: 1 of unknown size" and why in gate.details[0]


def test_dotted_platform_sets_and_free_threaded_abi_tags_match_expected_wheels():
    expected = expected_artifacts(["torchlet"], "2.5.0", ["manylinux_2_17_x86_64"], ["cp313", "cp313t"])
    found = [
        wheel("torchlet-2.5.0-cp313-cp313-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
        wheel("torchlet-2.5.0-cp313-cp313t-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"),
    ]
    assert validate_rc(expected, found, version="2.5.0").problems == ()


def test_limits_come_from_the_config():
    found = staged(EXPECTED)
    report = validate_rc(EXPECTED, found, version="2.5.0", size_limit_mb=300, size_warn_mb=200)
    assert {p.kind for p in report.problems} == {"oversize"}
    assert storage_gate(report).summary == "4 problems: 4 over 300 MB"


def test_nothing_expected_is_unknown_not_green():
    gate = storage_gate(validate_rc((), [], version="2.5.0"))
    assert gate.status is GateStatus.UNKNOWN


@pytest.mark.parametrize("published", [False, True])
def test_the_pypi_gate_says_whether_the_irreversible_upload_is_still_ahead(published):
    gate = pypi_gate(published, "2.5.0")
    assert gate.name == "pypi_not_published"
    if published:
        assert gate.status is GateStatus.AMBER
        assert gate.summary == "2.5.0 is already on PyPI: the upload step is done and locked"
    else:
        assert gate.status is GateStatus.GREEN
        assert "still ahead" in gate.summary
