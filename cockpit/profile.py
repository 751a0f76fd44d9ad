"""A release profile: one project's release defaults as data, each value with where it came from.

The PyTorch profile is ``cockpit/profiles/pytorch.toml``. Every value there is written as
``key = { value = ..., source = "..." }``; a value without a source is refused (``ProfileError``), so a
default cannot drift in without naming the repository and file, the PR or the policy it was read from.
What a repository says about itself (workflow names, the build matrix, the triton files) is read at
``init`` and at load and wins over the profile: the profile fills in what cannot be read.

The typed view (``Profile``) holds ``Sourced`` values; ``sourced_values`` walks the raw file, for the
test that checks every value has its source.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from cockpit.errors import ConfigError

T = TypeVar("T")
SCHEMA = 1


class ProfileError(ConfigError):
    """A profile file is unreadable, or a value lacks its source or has the wrong type."""

    title = "Profile"


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A default and where it came from (repository and file at a commit, a PR, or a documented policy)."""

    value: T
    source: str


@dataclass(frozen=True)
class Library:
    """A domain library released with the core: its own repository, package and version numbering."""

    name: Sourced[str]
    repository: Sourced[str]
    package: Sourced[str]
    version_at_source: Sourced[str]
    numbering: Sourced[str]  # "0.{minor+15}.{patch}", or "own" (read release_versions.sh)
    staged_for_pypi: Sourced[bool]


@dataclass(frozen=True)
class Profile:
    """A project's release defaults. ``sections`` holds every sourced value by ``section.key``."""

    name: str
    sections: Mapping[str, Mapping[str, Sourced[Any]]]
    libraries: tuple[Library, ...]

    def get(self, key: str) -> Sourced[Any]:
        """The sourced value at ``section.key`` (``"ci.required_workflows"``); ``ProfileError`` names a missing one."""
        section, _, name = key.partition(".")
        try:
            return self.sections[section][name]
        except KeyError:
            raise ProfileError(f"profile {self.name!r} has no value {key!r}") from None

    def value(self, key: str) -> Any:
        """The value alone at ``section.key``."""
        return self.get(key).value

    def strings(self, key: str) -> tuple[str, ...]:
        """A list of strings at ``section.key``, as a tuple; ``ProfileError`` when it is anything else."""
        raw = self.value(key)
        if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
            raise ProfileError(f"profile {self.name!r}: {key} must be a list of strings, got {raw!r}")
        return tuple(raw)

    def text(self, key: str) -> str:
        """A string at ``section.key``; ``ProfileError`` when it is anything else."""
        raw = self.value(key)
        if not isinstance(raw, str):
            raise ProfileError(f"profile {self.name!r}: {key} must be a string, got {raw!r}")
        return raw

    def number(self, key: str) -> float:
        """A number at ``section.key``; ``ProfileError`` when it is anything else."""
        raw = self.value(key)
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise ProfileError(f"profile {self.name!r}: {key} must be a number, got {raw!r}")
        return float(raw)

    def library(self, name: str) -> Library:
        """The domain library called ``name`` (``vision``); ``ProfileError`` lists the known ones."""
        for lib in self.libraries:
            if lib.name.value == name:
                return lib
        known = ", ".join(lib.name.value for lib in self.libraries)
        raise ProfileError(f"profile {self.name!r} has no library {name!r} (known: {known})")


def _sourced(where: str, raw: object) -> Sourced[Any]:
    if not isinstance(raw, dict) or set(raw) != {"value", "source"}:
        raise ProfileError(f'{where}: expected {{ value = ..., source = "..." }}, got {raw!r}')
    source = raw["source"]
    if not isinstance(source, str) or not source.strip():
        raise ProfileError(f"{where}: the source must name the repository and file, PR or policy, got {source!r}")
    return Sourced(raw["value"], source.strip())


def _library(where: str, raw: object) -> Library:
    if not isinstance(raw, dict):
        raise ProfileError(f"{where}: expected a table, got {raw!r}")
    fields = ("name", "repository", "package", "version_at_source", "numbering", "staged_for_pypi")
    missing = [f for f in fields if f not in raw]
    extra = sorted(set(raw) - set(fields))
    if missing or extra:
        raise ProfileError(f"{where}: missing {missing or 'nothing'}, unknown {extra or 'nothing'}")
    values = {f: _sourced(f"{where}.{f}", raw[f]) for f in fields}
    for f in fields[:-1]:
        if not isinstance(values[f].value, str):
            raise ProfileError(f"{where}.{f}: must be a string, got {values[f].value!r}")
    if not isinstance(values["staged_for_pypi"].value, bool):
        raise ProfileError(f"{where}.staged_for_pypi: must be true or false")
    return Library(**values)


def parse_profile(name: str, data: Mapping[str, Any]) -> Profile:
    """A ``Profile`` from a parsed profile file; ``ProfileError`` names the first value without a source."""
    if data.get("schema") != SCHEMA:
        raise ProfileError(f"profile {name!r}: schema must be {SCHEMA}, got {data.get('schema')!r}")
    sections: dict[str, dict[str, Sourced[Any]]] = {}
    for section, table in data.items():
        if section in ("schema", "library"):
            continue
        if not isinstance(table, dict):
            raise ProfileError(f"profile {name!r}: [{section}] must be a table, got {table!r}")
        sections[section] = {key: _sourced(f"{name}.{section}.{key}", raw) for key, raw in table.items()}
    libs = data.get("library", [])
    if not isinstance(libs, list):
        raise ProfileError(f"profile {name!r}: [[library]] must be an array of tables")
    libraries = tuple(_library(f"{name}.library[{i}]", raw) for i, raw in enumerate(libs))
    return Profile(name, sections, libraries)


def _read(name: str) -> dict[str, Any]:
    try:
        # beside this module, read as a plain file: the config loads it at every start, and
        # importlib.resources would cost that start more than the parse itself
        text = (Path(__file__).with_name("profiles") / f"{name}.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"no profile named {name!r} (expected cockpit/profiles/{name}.toml)") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"cockpit/profiles/{name}.toml is not valid TOML ({exc})") from None


@cache
def load_profile(name: str = "pytorch") -> Profile:
    """The profile shipped as ``cockpit/profiles/<name>.toml``, read once."""
    return parse_profile(name, _read(name))


def sourced_values(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, object]]:
    """Every leaf of a parsed profile file as (dotted path, raw table), for the sources test."""
    for key, raw in data.items():
        path = f"{prefix}{key}"
        if key == "schema" and not prefix:
            continue
        if isinstance(raw, list) and raw and all(isinstance(v, dict) for v in raw) and not prefix:
            for i, item in enumerate(raw):
                yield from sourced_values(item, f"{path}[{i}].")
        elif isinstance(raw, dict) and "value" not in raw and "source" not in raw:
            yield from sourced_values(raw, f"{path}.")
        else:
            yield path, raw


def raw_profile(name: str = "pytorch") -> dict[str, Any]:
    """The parsed profile file itself, unchecked (what ``sourced_values`` walks)."""
    return _read(name)


# Which config default reads which profile value: config key -> profile key. The first group is read
# by ``cockpit.config.pytorch`` or the schema itself (tests/unit/test_config_pytorch_defaults.py checks
# the defaults against their profile values); staging_prefix is the example ``cockpit init`` shows.
CONFIG_DEFAULTS: Mapping[str, str] = {
    "[[ci]] required": "ci.required_workflows",
    "[[ci]] binary_workflows (for the release's own repository)": "ci.binary_build_workflows",
    "[git] release_only_patterns": "release_only.markers",
    "[release] tracker_titles": "titles.tracker",
    "[evidence.validate_binaries] repository": "validate_binaries.repository",
    "[evidence.validate_binaries] workflow (the file's name)": "validate_binaries.workflow_file",
    "[evidence.validate_binaries] channel": "validate_binaries.rc_channel",
    "[evidence.validate_binaries] branch (empty: this ref)": "validate_binaries.ref",
    "[evidence.validate_binaries] (runs found by this event; no key)": "validate_binaries.event",
    "[evidence.validation_issue] title": "titles.validation_issue",
    "[evidence.release_matrix_pr] repository": "titles.release_matrix_pr_repository",
    "[evidence.release_matrix_pr] title": "titles.release_matrix_pr",
    "[evidence.published_versions_pr] repository": "titles.published_versions_pr_repository",
    "[evidence.published_versions_pr] title": "titles.published_versions_pr",
    "[evidence.triton_pin_release] pin_path": "triton.pin_file",
    "[evidence.triton_pin_release] version_path": "triton.version_file",
    "[evidence.triton_pin_release] package": "triton.pypi_package",
    "[storage] variants (every Linux variant's x86_64 tag: CPU, CUDA, ROCm, XPU)": "platform_tags.linux_x86_64",
    "[storage] variants (the Linux aarch64 tag)": "platform_tags.linux_aarch64",
    "[storage] variants (the Windows tag)": "platform_tags.windows",
    "[storage] variants (the cpu variant's macOS tag)": "platform_tags.macos_arm64_wheel",
    "[storage] variants empty, the build matrix unreadable: the CUDA variants of": "variants.cuda",
    "[storage] variants empty, the build matrix unreadable: the ROCm variants of": "variants.rocm",
    "[storage] variants empty, the build matrix unreadable: the CUDA on aarch64 of": "variants.cuda_aarch64",
    "[storage] variants empty, the build matrix unreadable: the CUDA off Windows of": "variants.cuda_not_on_windows",
    "[storage] variants empty: the xpu variant (Linux and Windows) when": "variants.xpu",
    "[storage] pypi_bound's default (its CUDA the stable one of the matrix)": "pypi.bound_variants",
    "[storage] pypi_bound's default, the build matrix unreadable: its CUDA": "variants.stable_cuda",
    "[release] skip_labels": "milestone.skip_labels",
    "[schedule] cherry_pick_deadline given as a day: its hour": "patch.cherry_pick_deadline_time",
    "[schedule] cherry_pick_deadline given as a day: its zone": "patch.cherry_pick_deadline_zone",
    "[evidence.docs_build_entry] repository": "docs.repository",
    "[evidence.docs_build_entry] ref": "docs.ref",
    "[evidence.docs_build_entry] path": "docs.path",
    "[evidence.colab_issue] repository": "titles.colab_repository",
    "[evidence.colab_issue] title": "titles.colab_issue",
    "[storage] build_matrix_repository": "python.matrix_repository",
    "[storage] build_matrix_file": "python.matrix_file",
    "[storage] (the build matrix is read on this ref; no key)": "python.matrix_ref",
    "[storage] python_tags empty, the build matrix unreadable: the tags of": "python.release_builds",
    "[storage] python_tags empty: the PyPI staging check leaves out": "python.not_staged_for_pypi",
    "[storage] size_limit_mb (PyPI-bound wheels only)": "pypi.size_limit_mb",
    "[storage] size_warn_mb": "sizes.download_site_ceiling_mb",
    "[storage] size_jump_ratio": "sizes.jump_ratio",
    "[storage] size_jump_mb": "sizes.jump_mb",
    "[storage] staging_prefix (the example init shows; empty by default)": "pypi.staging_prefix",
}
