"""``cockpit init`` writes ``[storage] python_tags`` from the build matrix generator, naming the repository and
file it read; when the file cannot be read, the profile's copy, saying so and why (init still writes)."""

from __future__ import annotations

import tomllib

from cockpit.sandbox import world_matrix
from tests.e2e.test_init_discovers import init


def storage_lines(text: str) -> list[str]:
    """The commented ``[storage]`` block as the manager would uncomment it."""
    start = text.index("# [storage]")
    block = text[start : text.index("\n\n", start)]
    return [line.removeprefix("# ") for line in block.splitlines()]


def python_tags(text: str) -> tuple[list[str], str]:
    """The ``python_tags`` value once uncommented, and the note written above it."""
    lines = storage_lines(text)
    k = next(i for i, line in enumerate(lines) if line.startswith("python_tags = "))
    return tomllib.loads(lines[k])["python_tags"], lines[k - 1]


def test_init_writes_the_build_matrix_release_builds_with_their_source(sandbox, tmp_path, capsys):
    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    tags, note = python_tags(out.read_text(encoding="utf-8"))
    assert tags == list(sandbox.world.python_tags) == ["cp310", "cp311", "cp312", "cp313", "cp313t"]
    assert note.startswith("# found: 3.10, 3.11, 3.12, 3.13, 3.13t (PYTHON_ARCHES_DICT['release'] of ")
    assert "pytorch/test-infra tools/scripts/generate_binary_build_matrix.py at main" in note
    assert "python_tags = cp310, cp311, cp312, cp313, cp313t   # found: " in capsys.readouterr().out
    uncommented = "\n".join(line for line in storage_lines(out.read_text(encoding="utf-8")) if not line.startswith("#"))
    assert tomllib.loads(uncommented)["storage"]["python_tags"] == tags, "uncommented, it is read as [storage]"


def test_an_unreadable_matrix_writes_the_profiles_copy_and_says_why(sandbox, tmp_path, capsys):
    from cockpit.config.pytorch import RELEASE_BUILDS
    from cockpit.services.build_matrix import python_tags as tags_of

    files = sandbox.github.repos[world_matrix.REPOSITORY].repo.files[world_matrix.REF]
    files[world_matrix.PATH] = "PYTHON_ARCHES_DICT = {'release': ['3.1\x1b[2J']}\n# no other dictionary\n"
    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    text = out.read_text(encoding="utf-8")
    tags, note = python_tags(text)
    assert tags == list(tags_of(RELEASE_BUILDS))
    assert note.startswith("# the profile's copy (pytorch/test-infra@") and "generate_binary_build_matrix.py" in note
    assert note.endswith("build matrix unreadable: the build matrix generator has no STABLE_CUDA_VERSIONS")
    assert "\x1b" not in text and "python_tags = cp310" in capsys.readouterr().out


def test_a_missing_matrix_repository_does_not_stop_init(sandbox, tmp_path):
    del sandbox.github.repos[world_matrix.REPOSITORY]
    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    _tags, note = python_tags(out.read_text(encoding="utf-8"))
    assert "build matrix unreadable: pytorch/test-infra has no tools/scripts/generate_binary_build_matrix.py" in note


def test_offline_init_writes_the_profiles_copy_not_looked_up(sandbox, tmp_path):
    out = tmp_path / "init.toml"
    assert init(sandbox, out, "--offline") == 0
    _tags, note = python_tags(out.read_text(encoding="utf-8"))
    assert note.startswith("# the profile's copy (") and note.endswith("; not looked up (--offline)")


def variants(text: str) -> tuple[dict[str, list[str]], str]:
    """The ``[storage.variants]`` table once uncommented, and the note written above it."""
    lines = storage_lines(text)
    k = lines.index("[storage.variants]")
    body = "\n".join(lines[k:])
    return tomllib.loads(body)["storage"]["variants"], lines[k - 1]


def test_init_writes_the_build_matrix_variants_with_their_source(sandbox, tmp_path, capsys):
    from cockpit.sandbox.world_wheels import VARIANTS

    out = tmp_path / "init.toml"
    assert init(sandbox, out) == 0
    table, note = variants(out.read_text(encoding="utf-8"))
    assert table == {v: list(p) for v, p in VARIANTS.items()}
    assert note.startswith("# found: cpu, cu126, cu128, rocm6.3, xpu (CUDA_ARCHES_DICT['release'], ")
    assert "of pytorch/test-infra tools/scripts/generate_binary_build_matrix.py at main, blob " in note
    assert "variants = cpu, cu126, cu128, rocm6.3, xpu   # found: " in capsys.readouterr().out


def test_offline_or_unreadable_init_writes_the_profiles_variants_and_says_why(sandbox, tmp_path):
    from cockpit.config.pytorch import VARIANTS

    out = tmp_path / "offline.toml"
    assert init(sandbox, out, "--offline") == 0
    table, note = variants(out.read_text(encoding="utf-8"))
    assert table == {v: list(p) for v, p in VARIANTS} and "rocm7.2" in table and "cu130" in table
    assert note.startswith("# the profile's copy ([variants] cuda, rocm, stable_cuda")
    assert "pytorch/test-infra@61a77570 tools/scripts/generate_binary_build_matrix.py" in note
    assert note.endswith("; not looked up (--offline)")
    files = sandbox.github.repos[world_matrix.REPOSITORY].repo.files[world_matrix.REF]
    files[world_matrix.PATH] = files[world_matrix.PATH].replace("'6.3'", "'6.3\x1b[2J'")
    out = tmp_path / "hostile.toml"
    assert init(sandbox, out) == 0
    text = out.read_text(encoding="utf-8")
    table, note = variants(text)
    assert table == {v: list(p) for v, p in VARIANTS} and "\x1b" not in text
    assert "build matrix unreadable: ROCM_ARCHES_DICT['release'] has '6.3\\x1b[2J'" in note
