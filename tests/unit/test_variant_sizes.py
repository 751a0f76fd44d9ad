"""Each wheel is judged against its own variant's history; PyPI's limit only where the wheel goes to PyPI."""

from __future__ import annotations

from cockpit.domain.gates import GateStatus
from cockpit.services.variant_sizes import MB, judge_sizes, size_gate, variant_series


def wheel(variant: str, platform: str = "manylinux_2_28_x86_64", version: str = "3.1.0", py: str = "cp312") -> str:
    local = f"+{variant}" if variant else ""
    return f"torchlet-{version}{local}-{py}-{py}-{platform}.whl"


def pypi(variant: str, platform: str) -> bool:
    return (variant, platform) in {("cu140", "manylinux_2_28_x86_64"), ("cpu", "win_amd64")}


def judge(current: dict[str, int], earlier: list[tuple[str, dict[str, int]]]):
    return judge_sizes(current, earlier, goes_to_pypi=pypi, limit_mb=1000, jump_ratio=1.10, jump_mb=50)


def test_a_four_gigabyte_rocm_wheel_is_not_a_finding() -> None:
    rocm = wheel("rocm8.1")
    findings = judge(
        {rocm: 4_300 * MB},
        [("v3.1.0-rc1", {rocm: 4_290 * MB}), ("v3.0.0", {wheel("rocm8.1", version="3.0.0"): 4_250 * MB})],
    )
    assert findings == []
    assert size_gate(findings, 1).status is GateStatus.GREEN


def test_a_pypi_bound_wheel_over_the_limit_is_red() -> None:
    findings = judge({wheel("cu140"): 1_100 * MB, wheel("cu138"): 1_200 * MB}, [])
    assert [(f.variant, f.kind) for f in findings] == [("cu140", "oversize")]
    gate = size_gate(findings, 2)
    assert gate.status is GateStatus.RED and "1100.0 MB" in gate.details[0]


def test_a_jump_against_the_same_variant_is_amber_with_both_sizes() -> None:
    cu = wheel("cu138")
    findings = judge({cu: 1_300 * MB}, [("v3.1.0-rc1", {cu: 1_150 * MB})])
    assert [f.kind for f in findings] == ["jump"]
    assert "1300.0 MB, was 1150.0 MB in v3.1.0-rc1" in findings[0].detail
    assert size_gate(findings, 1).status is GateStatus.AMBER


def test_the_previous_release_is_matched_across_versions() -> None:
    cpu = wheel("cpu", platform="win_amd64")
    findings = judge({cpu: 260 * MB}, [("v3.1.0-rc1", {}), ("v3.0.0", {wheel("cpu", "win_amd64", "3.0.0"): 200 * MB})])
    assert findings[0].against == "v3.0.0"


def test_variants_are_never_compared_with_each_other() -> None:
    findings = judge({wheel("cu140"): 900 * MB}, [("v3.1.0-rc1", {wheel("cpu"): 180 * MB})])
    assert findings == []


def test_the_sizes_chart_has_one_series_per_variant() -> None:
    history = [
        ("rc1", {wheel("cu140"): 880 * MB, wheel("rocm8.1"): 4_200 * MB}),
        ("rc2", {wheel("cu140"): 890 * MB, wheel("rocm8.1"): 4_300 * MB, wheel("xpu"): 700 * MB}),
    ]
    series = {s.variant: s for s in variant_series(history, pypi)}
    assert series["torchlet cu140"].sizes == (880 * MB, 890 * MB) and series["torchlet cu140"].goes_to_pypi
    assert series["torchlet xpu"].sizes == (None, 700 * MB)
    assert not series["torchlet rocm8.1"].goes_to_pypi
