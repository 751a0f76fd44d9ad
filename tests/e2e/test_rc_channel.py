"""The RC check over the sandbox's PyTorch-shaped test channel, through the real adapter and loader."""

from __future__ import annotations

import tomllib

import tomli_w

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.domain.gates import GateStatus


def _config_without_variants(sandbox, tmp_path, platforms):
    doc = tomllib.loads(sandbox.config_path.read_text(encoding="utf-8"))
    del doc["storage"]["variants"]
    doc["storage"]["platforms"] = platforms
    path = tmp_path / "old-cockpit.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return load_config(path)


def test_each_package_is_read_in_each_variants_sub_index_with_sizes_and_metadata(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    sandbox.index.request_log.clear()
    try:
        backend.load_storage()
    finally:
        backend.state.close()
    pages = [e["path"] for e in sandbox.index.log() if e["path"].endswith("/")]
    each = [
        (p, v)
        for p in ("torchlet", "torchlet-vision", "torchlet-audio")
        for v in ("cpu", "cu126", "cu128", "rocm6.3", "xpu")
    ]
    # the RC channel, then the stable channel's same pages: the previous release, to judge sizes against
    assert pages == [f"/whl/test/{v}/{p}/" for p, v in each] + [f"/whl/{v}/{p}/" for p, v in each]
    heads = [e for e in sandbox.index.log() if e["method"] == "HEAD"]
    metadata = [e for e in sandbox.index.log() if e["path"].endswith(".metadata")]
    assert len(heads) == 180 - 2  # every file staged: 3 packages x 12 variant platforms x 5 pythons, 2 planted missing
    assert len(metadata) == len(heads) - 1  # a yanked file's metadata is not read


def test_a_config_written_before_variants_still_checks_the_plain_index(sandbox, tmp_path):
    """Only the plain /whl/test/<pkg>/ pages of the RC channel are read; every build of every variant stands for its
    platform there, and the accelerator-only builds are named unexpected, with the way to say more."""
    config = _config_without_variants(sandbox, tmp_path, ["manylinux_2_28_x86_64", "win_amd64"])
    backend = build_backend(config, read_only=True)
    sandbox.index.request_log.clear()
    try:
        result = backend.load_storage()
    finally:
        backend.state.close()
    assert [
        e["path"] for e in sandbox.index.log() if e["path"].startswith("/whl/test/") and e["path"].endswith("/")
    ] == [
        "/whl/test/torchlet/",
        "/whl/test/torchlet-vision/",
        "/whl/test/torchlet-audio/",
    ]
    report = result.report
    assert len(report.expected) == 3 * 2 * 5 and {e.variant for e in report.expected} == {""}
    kinds = {p.kind for p in report.problems}
    assert "missing" not in kinds and "oversize" in kinds and result.gate.status is GateStatus.RED
    unexpected = [p for p in report.problems if p.kind == "unexpected"]
    assert unexpected and all("[storage.variants]" in p.detail for p in unexpected if "+" in p.filename)
