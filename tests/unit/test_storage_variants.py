"""The RC check index by index: each accelerator variant's sub-index is judged on its own, yanked files
are not staged, and a wheel's PEP 658 metadata must agree with the release."""

from __future__ import annotations

from dataclasses import replace

from cockpit.domain.artifacts import IndexFile
from cockpit.domain.gates import GateStatus
from cockpit.services.storage import expected_artifacts, problems_by_variant, storage_gate, validate_rc

MB = 1_000_000
SHA = "ab" * 32
X86, WIN, MAC = "manylinux_2_28_x86_64", "win_amd64", "macosx_11_0_arm64"
TAGS = ("cp312", "cp313")


def in_index(variant: str, filename: str, size: int = 400 * MB, **more) -> IndexFile:
    return IndexFile(filename, f"http://index/whl/test/{variant}/{filename}", SHA, size, variant=variant, **more)


def expected(variant: str, platforms=(X86, WIN), packages=("torchlet",)):
    return expected_artifacts(packages, "2.5.0", platforms, TAGS, variant=variant)


def staged(artifacts, size: int = 400 * MB) -> list[IndexFile]:
    return [in_index(e.variant, e.filename, size) for e in artifacts]


def problems(report) -> set[tuple[str, str, str]]:
    return {(p.variant, p.kind, p.filename) for p in report.problems}


def test_a_variants_wheels_carry_its_name_as_the_local_version():
    [first, *_] = expected("cu126")
    assert first.filename == "torchlet-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"
    assert expected("cpu", packages=("torchlet-vision",))[0].filename.startswith("torchlet_vision-2.5.0+cpu-")


def test_a_wheel_staged_in_one_variant_does_not_stand_for_another():
    want = expected("cu126") + expected("cu128")
    found = staged(expected("cu126")) + staged(expected("cu128")[1:])
    report = validate_rc(want, found, version="2.5.0")
    assert problems(report) == {("cu128", "missing", "torchlet-2.5.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl")}
    assert "in the cu128 index" in report.problems[0].detail


def test_another_variants_build_in_a_sub_index_is_unexpected_and_stands_for_nothing():
    want = expected("cu128")
    stray = in_index("cu128", "torchlet-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl")
    report = validate_rc(want, [stray, *staged(want[1:])], version="2.5.0")
    assert problems(report) == {("cu128", "unexpected", stray.filename), ("cu128", "missing", want[0].filename)}
    [unexpected] = [p for p in report.problems if p.kind == "unexpected"]
    assert unexpected.detail == "a +cu126 build in the cu128 index, which must hold +cu128 builds"


def test_the_cpu_macos_wheels_without_a_local_version_stand_for_the_cpu_variant():
    want = expected("cpu", platforms=(MAC,))
    found = [
        in_index("cpu", "torchlet-2.5.0-cp312-none-macosx_11_0_arm64.whl", 70 * MB),
        in_index("cpu", "torchlet-2.5.0-cp313-none-macosx_11_0_arm64.whl", 71 * MB),
    ]
    assert validate_rc(want, found, version="2.5.0").problems == ()


def test_a_yanked_rc_file_counts_as_not_staged_and_says_why():
    want = expected("cu126")
    found = staged(want)
    found[0] = replace(found[0], yanked=True, yanked_reason="built against the wrong CUDA runtime")
    report = validate_rc(want, found, version="2.5.0")
    [problem] = report.problems
    assert (problem.variant, problem.kind, problem.filename) == ("cu126", "yanked", want[0].filename)
    assert problem.detail == "yanked: built against the wrong CUDA runtime; counts as not staged"
    gate = storage_gate(report)
    assert gate.status is GateStatus.RED and gate.summary == "1 problem: 1 yanked (in cu126)"


def test_a_yanked_file_with_no_reason_says_so_and_is_not_judged_for_size():
    want = expected("cu126")
    found = staged(want)
    found[0] = replace(found[0], yanked=True, size=5 * 1000 * MB)
    [problem] = validate_rc(want, found, version="2.5.0").problems
    assert problem.kind == "yanked" and "(no reason given)" in problem.detail


def test_a_yanked_build_replaced_by_a_good_one_is_no_problem():
    want = expected("cu126")
    found = staged(want)
    old = in_index("cu126", want[0].filename.replace("2.5.0+cu126-", "2.5.0+cu126-1-"), yanked=True)
    assert validate_rc(want, [old, *found], version="2.5.0").problems == ()


def test_a_wheel_whose_metadata_names_another_version_is_the_wrong_version():
    want = expected("rocm6.3", platforms=("linux_x86_64",))
    found = staged(want)
    found[1] = replace(found[1], has_metadata=True, metadata_name="torchlet", metadata_version="2.5.0rc2+rocm6.3")
    [problem] = validate_rc(want, found, version="2.5.0").problems
    assert (problem.kind, problem.filename) == ("wrong_version", want[1].filename)
    assert problem.detail == "its METADATA says Version: 2.5.0rc2+rocm6.3, the release is 2.5.0"


def test_metadata_that_agrees_is_fine_and_metadata_that_cannot_be_trusted_is_amber():
    want = expected("cpu")
    found = [
        replace(f, has_metadata=True, metadata_name="Torchlet", metadata_version="2.5.0+cpu") for f in staged(want)
    ]
    assert validate_rc(want, found, version="2.5.0").problems == ()
    found[0] = replace(found[0], metadata_version=None, metadata_error="http://index/x.metadata: has no Version: field")
    found[1] = replace(found[1], metadata_name="torchlet-nightly")
    report = validate_rc(want, found, version="2.5.0")
    assert {(p.kind, p.filename) for p in report.problems} == {
        ("bad_metadata", found[0].filename),
        ("bad_metadata", found[1].filename),
    }
    assert storage_gate(report).status is GateStatus.AMBER


def test_a_variant_page_that_answered_404_makes_its_wheels_missing_and_says_so():
    want = expected("xpu", platforms=("linux_x86_64",))
    report = validate_rc(want, [], version="2.5.0", absent=[("torchlet", "xpu")])
    assert {p.kind for p in report.problems} == {"missing"}
    assert all(p.detail.endswith("in the xpu index (its torchlet page answered 404)") for p in report.problems)


def test_sizes_are_judged_within_a_variant_never_across_variants():
    """A cpu wheel is a quarter of a CUDA one by design; a cut CUDA upload is far below its CUDA siblings."""
    want = expected("cpu", platforms=(X86,)) + expected("cu128", platforms=(X86,))
    found = staged(expected("cpu", platforms=(X86,)), size=180 * MB)
    found += [in_index("cu128", want[2].filename, 780 * MB), in_index("cu128", want[3].filename, 300 * MB)]
    report = validate_rc(want, found, version="2.5.0")
    [problem] = report.problems
    assert (problem.variant, problem.kind, problem.filename) == ("cu128", "truncated", want[3].filename)
    assert "(torchlet +cu128 manylinux_2_28_x86_64)" in problem.detail


def test_the_pane_and_report_group_problems_under_a_heading_per_variant():
    want = expected("cpu") + expected("cu126") + expected("xpu", platforms=("linux_x86_64",))
    found = staged(expected("cpu")[1:]) + staged(expected("cu126"))
    found += staged(expected("xpu", platforms=("linux_x86_64",)))
    report = validate_rc(want, found, version="2.5.0")
    groups = problems_by_variant(report)
    assert [heading for heading, _ in groups] == [
        "cpu: 4 expected wheels, 1 missing",
        "cu126: all 4 expected wheels staged",
        "xpu: all 2 expected wheels staged",
    ]
    assert [p.kind for p in groups[0][1]] == ["missing"]
    assert storage_gate(replace(report, problems=())).summary == (
        "all 10 expected wheels staged across 3 variants (cpu, cu126, xpu), each within 850 MB"
    )


def test_the_plain_index_alone_needs_no_variant_headings():
    want = expected("", platforms=(X86,))
    assert problems_by_variant(validate_rc(want, [], version="2.5.0"))[0][0] == ""


def test_pypis_limit_applies_only_to_the_wheels_that_go_to_pypi():
    rocm = expected("rocm8.1", platforms=(X86,))
    cuda = expected("cu140", platforms=(X86,))
    found = staged(rocm, size=4_300 * MB) + staged(cuda, size=1_100 * MB)
    report = validate_rc(rocm + cuda, found, version="2.5.0", goes_to_pypi=lambda f: f.variant == "cu140")
    kinds = {(variant, kind) for variant, kind, _ in problems(report)}
    assert ("cu140", "oversize") in kinds
    assert not any(variant == "rocm8.1" and kind in ("oversize", "size_warning") for variant, kind in kinds)
