"""A config without ``[storage] platforms`` or ``[storage.variants]`` checks the variants of the build matrix
(read once with the Python builds), each in its sub-index; the profile's copy, said with the reason, when the
matrix cannot be read; a configured table still wins; a hostile version never reaches a URL or the screen."""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.config.pytorch import VARIANTS
from cockpit.sandbox import world_matrix
from cockpit.sandbox.world_wheels import VARIANTS as WORLD_VARIANTS

MATRIX = "/repos/pytorch/test-infra/contents/tools/scripts/generate_binary_build_matrix.py"


def _config(sandbox, tmp_path, **storage):
    """The demo's config less its ``[storage.variants]`` (and ``storage`` on top)."""
    doc = tomllib.loads(sandbox.config_path.read_text(encoding="utf-8"))
    del doc["storage"]["variants"]
    doc["storage"].update(storage)
    path = tmp_path / "derived-cockpit.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    return load_config(path)


def _load(sandbox, config):
    backend = build_backend(config, read_only=True)
    try:
        return backend.load_storage()
    finally:
        backend.state.close()


def _rc_pages(sandbox) -> list[str]:
    return [e["path"] for e in sandbox.index.log() if e["path"].startswith("/whl/test/") and e["path"].endswith("/")]


def _files(sandbox) -> dict[str, str]:
    """The files the GitHub emulator serves on the generator's ref (its own copy of the world's)."""
    return sandbox.github.repos[world_matrix.REPOSITORY].repo.files[world_matrix.REF]


@pytest.fixture
def matrix_text(sandbox):
    """The generator's text as the emulator serves it, put back after the test."""
    text = _files(sandbox)[world_matrix.PATH]
    yield text
    _files(sandbox)[world_matrix.PATH] = text


def test_the_matrix_variants_are_the_worlds_and_the_verdict_is_the_configured_ones(sandbox, tmp_path):
    configured = _load(sandbox, sandbox.config)
    sandbox.index.request_log.clear()
    sandbox.github.request_log.clear()
    derived = _load(sandbox, _config(sandbox, tmp_path))
    assert _rc_pages(sandbox) == [f"/whl/test/{v}/{p}/" for p in sandbox.world.packages for v in WORLD_VARIANTS]
    reads = [e for e in sandbox.github.log() if e["path"].split("?")[0] == MATRIX]
    assert len(reads) == 1, "one read gives the Python builds and the variants"
    assert derived.gate.status is configured.gate.status and derived.gate.summary == configured.gate.summary
    assert derived.report.problems == configured.report.problems
    assert derived.gate.details[0] == configured.gate.details[0]  # the Python builds, as before
    variants = derived.gate.details[1]
    assert variants.startswith("Variants: cpu, cu126, cu128, rocm6.3, xpu (CUDA_ARCHES_DICT['release'], ")
    assert "of pytorch/test-infra tools/scripts/generate_binary_build_matrix.py at main, blob " in variants
    assert derived.gate.details[2:] == configured.gate.details[1:]
    assert not any(d.startswith("Variants:") for d in configured.gate.details), "a configured table: as before"


def test_an_unreadable_matrix_checks_the_profiles_variants_and_says_why(sandbox, tmp_path):
    sandbox.index.request_log.clear()
    result = _load(sandbox, _config(sandbox, tmp_path, build_matrix_file="tools/scripts/nope.py"))
    assert _rc_pages(sandbox) == [f"/whl/test/{v}/{p}/" for p in sandbox.world.packages for v, _ in VARIANTS]
    assert "(Python builds and variants: the profile's copy, the build matrix was unreadable)" in result.gate.summary
    variants = result.gate.details[1]
    assert variants.startswith("Variants: the profile's copy, cpu, cu126, cu130, cu132, rocm7.1, rocm7.2, xpu ")
    assert variants.endswith("(build matrix unreadable: pytorch/test-infra has no tools/scripts/nope.py at main (404))")


def test_configured_python_tags_still_read_the_matrix_for_the_variants(sandbox, tmp_path):
    sandbox.github.request_log.clear()
    result = _load(sandbox, _config(sandbox, tmp_path, python_tags=["cp312"]))
    assert result.gate.details[0] == "Python builds: cp312 ([storage] python_tags)"
    assert result.gate.details[1].startswith("Variants: cpu, cu126, cu128, rocm6.3, xpu (")
    assert len([e for e in sandbox.github.log() if e["path"].split("?")[0] == MATRIX]) == 1


HOSTILE = [
    ("shell in a cuda version", "'12.8'", "'12.8; rm -rf /'", "CUDA_ARCHES_DICT['release'] has '12.8; rm -rf /'"),
    ("escape in a rocm version", "'6.3'", "'6.3\\x1b[2J'", "ROCM_ARCHES_DICT['release'] has '6.3\\x1b[2J'"),
    ("path as the stable cuda", "'release': '12.6'}", "'release': '../x'}", "STABLE_CUDA_VERSIONS['release'] has"),
    ("number in aarch64", "['12.8-aarch64']", "[12.8]", "CUDA_AARCH64_ARCHES must be a list of version strings"),
]


@pytest.mark.parametrize(("old", "new", "said"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_a_hostile_version_reaches_no_url_and_the_screen_only_inert(sandbox, tmp_path, matrix_text, old, new, said):
    assert old in matrix_text
    _files(sandbox)[world_matrix.PATH] = matrix_text.replace(old, new)
    sandbox.index.request_log.clear()
    result = _load(sandbox, _config(sandbox, tmp_path))
    pages = _rc_pages(sandbox)
    assert pages == [f"/whl/test/{v}/{p}/" for p in sandbox.world.packages for v, _ in VARIANTS]
    assert not any(c in page for page in pages for c in (";", "\x1b", " ", ".."))
    shown = "\n".join((result.gate.summary, *result.gate.details))
    assert "\x1b" not in shown and "build matrix unreadable: " in result.gate.details[1]
    assert said in result.gate.details[1]
