"""The schema of ``[storage]``: where the release candidates' wheels are staged and what is expected there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cockpit.config import pytorch
from cockpit.config.kinds import Kind, Number, Repository, Retired, Text, Texts, key, typed
from cockpit.config.where import Where
from cockpit.domain.build_matrix import VARIANT_NAME
from cockpit.profile import load_profile

_PROFILE = load_profile("pytorch")


class S3Prefix(Kind):
    """``s3://bucket/prefix/``, where ``{package}`` and ``{version}`` are filled in."""

    expected = "an S3 URL such as s3://bucket/{package}-{version}-pypi-staging/"

    def read(self, where: Where, key: str, value: Any) -> Any:
        url = Text().read(where, key, value).strip()
        bucket = url.removeprefix("s3://").partition("/")[0]
        if url and (not url.startswith("s3://") or not bucket or any(c.isspace() for c in url)):
            raise where.fail(key, self.expected, url)
        return url


class Variants(Kind):
    """``[storage.variants]``: each accelerator sub-index (``cu126 = ["manylinux_2_28_x86_64", ...]``)."""

    expected = "a table"
    described = "a table: variant name = list of platform tags"

    def read(self, where: Where, key: str, value: Any) -> Any:
        table, inner = typed(where, key, value, dict, "a table"), where.child(key)
        variants = []
        for name, platforms in table.items():
            if not VARIANT_NAME.match(name):
                raise inner.fail(
                    name, "a variant name such as cu126, cpu, rocm6.3 or xpu (letters, digits, '.', '-', '_')", name
                )
            if isinstance(platforms, dict):
                dotted = f"{name}.{next(iter(platforms), '')}"
                raise inner.fail(name, f'a list of platform tags; a name with a dot must be quoted: "{dotted}" = [...]')
            tags = Texts().read(inner, name, platforms)
            if not tags or not all(tag.strip() for tag in tags):
                raise inner.fail(
                    name, 'a non-empty list of platform tags such as ["manylinux_2_28_x86_64", "win_amd64"]', list(tags)
                )
            variants.append((name, tags))
        return tuple(variants)


@dataclass(frozen=True, slots=True)
class StorageConfig:
    """``[storage]``: where the release candidates' wheels are staged and what is expected there."""

    index_url: str = key(
        Text(trim=lambda url: url.rstrip("/")),
        "Base of the PEP 503 indexes: <index_url>/whl/test/<package>/ is the RC channel.",
        default="",
        example=pytorch.INDEX_URL,
    )
    pypi_url: str = key(
        Text(trim=lambda url: url.rstrip("/")),
        "Base of the PyPI JSON API (<pypi_url>/pypi/<package>/json), to see whether the final version is published.",
        default="",
        example="https://pypi.org",
    )
    packages: tuple[str, ...] = key(Texts(), "The packages released.", default=(), example=pytorch.PACKAGES)
    platforms: tuple[str, ...] = key(
        Texts(),
        "Platform tags every RC must have a wheel for in the plain index <index_url>/whl/test/<package>/. Set "
        "(or variants set), the indexes are exactly what the config names; neither set: the build matrix's "
        "variants, and no plain index.",
        default=(),
        example=pytorch.PLATFORMS,
    )
    python_tags: tuple[str, ...] = key(
        Texts(),
        "Python tags every platform must have (cp312, cp313t ...); empty: the build matrix's release builds, read "
        f"from build_matrix_repository/build_matrix_file (by default {pytorch.BUILD_MATRIX_REPOSITORY}/"
        f"{pytorch.BUILD_MATRIX_FILE}) at every load, else the profile's copy, said in the gate.",
        default=(),
    )
    build_matrix_repository: str = key(
        Repository(),
        "The repository of the build matrix generator, read (its default branch) when python_tags is empty or "
        "neither platforms nor variants is set.",
        default=pytorch.BUILD_MATRIX_REPOSITORY,
    )
    build_matrix_file: str = key(
        Text(nonempty=True, trim=lambda path: path.strip().strip("/")),
        "The build matrix generator: its PYTHON_ARCHES_DICT['release'] names the Python builds (3.13t: "
        "free-threaded) the wheels must cover, its CUDA_ARCHES_DICT, ROCM_ARCHES_DICT and STABLE_CUDA_VERSIONS "
        "the variants.",
        default=pytorch.BUILD_MATRIX_FILE,
    )
    free_threaded: str = key(
        Retired("the build matrix now decides which builds exist, free-threaded ones included (python_tags)"),
        "No longer used: the build matrix's release builds name the free-threaded ones (3.13t).",
        default="",
    )
    size_limit_mb: float = key(
        Number(minimum=1),
        "PyPI-bound wheels ([storage.pypi_bound]) over this size, in MB, fail; other wheels are judged against "
        "their own variant's history.",
        default=_PROFILE.number("pypi.size_limit_mb"),
    )
    size_warn_mb: float = key(
        Number(minimum=1),
        "PyPI-bound wheels over this size, in MB, warn.",
        default=_PROFILE.number("sizes.download_site_ceiling_mb"),
    )
    size_jump_ratio: float = key(
        Number(minimum=1),
        "A wheel this many times the size of the same wheel (package, variant, Python tag, platform) in the "
        "previous RC or release is amber.",
        default=_PROFILE.number("sizes.jump_ratio"),
    )
    size_jump_mb: float = key(
        Number(minimum=0),
        "A wheel this many MB larger than the same wheel in the previous RC or release is amber.",
        default=_PROFILE.number("sizes.jump_mb"),
    )
    pypi_bound: tuple[tuple[str, tuple[str, ...]], ...] = key(
        Variants(),
        "The wheels that go to PyPI and face its size limit: variant = platform tags (globs; the cpu entry also "
        "covers wheels without a local version). The rest stay on the download site.",
        default=pytorch.PYPI_BOUND,
    )
    release_date: str = key(
        Text(), "The release's ISO date: from that day the checklist's release-day evidence is due.", default=""
    )
    variants: tuple[tuple[str, tuple[str, ...]], ...] = key(
        Variants(),
        "Accelerator variants, each in its sub-index <index_url>/whl/test/<variant>/<package>/, with the platforms "
        "it publishes (quote names with a dot). Empty and platforms empty: the build matrix's CUDA, ROCm, XPU and "
        "CPU variants (read with the Python builds, else the profile's copy, said in the gate), and "
        "[storage.pypi_bound] left at its default follows the matrix's stable CUDA.",
        default=(),
        example=pytorch.VARIANTS,
    )
    staging_channel: str = key(
        Text(trim=lambda channel: channel.strip("/")),
        "The channel the wheels are staged in for PyPI (<index_url>/whl/<channel>/<package>/); the checklist reads it.",
        default="",
        example="staging",
    )
    staging_prefix: str = key(
        S3Prefix(),
        "The private S3 prefix the wheels are staged in for PyPI ({package}, {version} filled in); set, the "
        "staging gate reads it (boto3, the standard AWS credentials) instead of staging_channel.",
        default="",
        example=_PROFILE.text("pypi.staging_prefix"),
    )
    staging_endpoint_url: str = key(
        Text(trim=lambda url: url.strip().rstrip("/")),
        "An S3-compatible server to read staging_prefix from instead of AWS (a mirror, an emulator).",
        default="",
    )
    staging_platforms: tuple[str, ...] = key(
        Texts(), "The platforms PyPI gets; empty: every platform of the indexes.", default=(), example=pytorch.PLATFORMS
    )

    @property
    def indexes_configured(self) -> bool:
        """Whether the config names its indexes (``platforms`` or ``[storage.variants]``); when not, the
        loaders derive the variants from the build matrix (``loaders.build_matrix.release_indexes``)."""
        return bool(self.platforms or self.variants)

    @property
    def pypi_bound_default(self) -> bool:
        """Whether ``[storage.pypi_bound]`` is the profile's (not written, or written the same)."""
        return self.pypi_bound == pytorch.PYPI_BOUND

    @property
    def indexes(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Where the config says wheels are expected: ``("", platforms)`` for the plain
        ``<base>/whl/test/<pkg>/`` when ``platforms`` is set, then each ``(variant, platforms)`` of
        ``[storage.variants]``. Empty when neither is set: see ``indexes_configured``."""
        plain = (("", self.platforms),) if self.platforms else ()
        return plain + self.variants
