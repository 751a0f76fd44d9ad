"""Release-candidate artifacts: what the index holds and what the release expects."""

from __future__ import annotations

from dataclasses import dataclass

PLAIN = ""
"""The variant of the plain index ``<base>/whl/test/<pkg>/``, which lists every build."""


@dataclass(frozen=True)
class IndexFile:
    """A file of a project page (PEP 503 HTML or PEP 691 JSON), as the index describes it."""

    filename: str
    url: str
    sha256: str | None = None
    size: int | None = None  # bytes, from HEAD Content-Length
    size_error: str = ""  # why ``size`` is None: the HEAD failed, or answered without a Content-Length
    variant: str = PLAIN  # the sub-index the page was read from: "cu126", "cpu", ... or "" (the plain index)
    yanked: bool = False  # PEP 592: the index withdrew the file
    yanked_reason: str = ""
    has_metadata: bool = False  # PEP 658/714: ``<url>.metadata`` is served
    metadata_sha256: str | None = None  # the digest the page states for the metadata file, if any
    metadata_version: str | None = None  # ``Version:`` of the metadata file, once read
    metadata_name: str | None = None  # ``Name:`` of the metadata file, once read
    metadata_error: str = ""  # why the metadata file, once read, cannot be trusted (a digest, a parse, a name)
    metadata_unread: str = ""  # why it was not read at all (no answer, a refusal): unknown, not known wrong

    @property
    def metadata_url(self) -> str:
        """Where PEP 658 serves the file's core metadata: the file's URL plus ``.metadata``."""
        return self.url + ".metadata"


@dataclass(frozen=True)
class ExpectedArtifact:
    """One wheel the release must stage: a package, python tag and platform, in one variant's index."""

    package: str
    version: str
    python_tag: str  # cp312, cp313t
    platform: str  # manylinux_2_28_x86_64, win_amd64, macosx_11_0_arm64
    variant: str = PLAIN  # cu126, cpu, rocm6.3, xpu; "" for the plain index

    @property
    def filename(self) -> str:
        """The wheel's name as real indexes spell it: free-threaded ``cp313t`` is ``cp313-cp313t``;
        a variant's build carries it as the local version (``2.5.0+cu126``)."""
        abi = self.python_tag
        interpreter = abi[:-1] if abi.endswith("t") else abi
        version = f"{self.version}+{self.variant}" if self.variant else self.version
        return f"{self.package.replace('-', '_')}-{version}-{interpreter}-{abi}-{self.platform}.whl"


@dataclass(frozen=True)
class ArtifactProblem:
    filename: str
    kind: str  # missing / yanked / truncated / wrong_version / oversize / size_warning / unexpected / ...
    detail: str
    variant: str = PLAIN  # the sub-index the problem was found in


@dataclass(frozen=True)
class StorageReport:
    index_url: str
    expected: tuple[ExpectedArtifact, ...] = ()
    found: tuple[IndexFile, ...] = ()
    problems: tuple[ArtifactProblem, ...] = ()
    published_on_pypi: bool = False
    pypi_versions: tuple[str, ...] = ()
    size_limit_mb: float = 1000.0  # the limits the report was judged against, for the gate's words
    size_warn_mb: float = 850.0
    absent_pages: tuple[str, ...] = ()  # project pages that answered 404: nothing staged there

    @property
    def variants(self) -> tuple[str, ...]:
        """The indexes the release expects wheels in, in the order first expected."""
        return tuple(dict.fromkeys(e.variant for e in self.expected))

    def by_variant(self) -> tuple[tuple[str, int, tuple[ArtifactProblem, ...]], ...]:
        """Per index, in the order expected: (variant, wheels expected there, its problems)."""
        expected = {v: sum(e.variant == v for e in self.expected) for v in self.variants}
        for problem in self.problems:
            expected.setdefault(problem.variant, 0)
        return tuple((v, n, tuple(p for p in self.problems if p.variant == v)) for v, n in expected.items())


@dataclass(frozen=True)
class PythonBuilds:
    """The Python tags the release's wheels must cover, and one line saying where they came from.

    ``tags``: every build of the release (the RC channel's wheels); ``pypi_tags``: those staged for PyPI
    (less the pre-release CPythons the staging script leaves out). ``fallback``: the file could not be
    read and these are the profile's recorded copy; ``source`` says so, with the reason.
    """

    tags: tuple[str, ...]
    pypi_tags: tuple[str, ...]
    source: str
    fallback: bool = False


@dataclass(frozen=True)
class ReleaseIndexes:
    """Where the release's wheels are expected and which of them go to PyPI, with where that came from.

    ``indexes``: ``("", platforms)`` for the plain index, then each ``(variant, platforms)`` sub-index;
    ``pypi_bound``: variant -> platform globs facing PyPI's limit. ``derived``: read from the build matrix
    (not the config); ``fallback``: the matrix was unreadable and these are the profile's copy, ``source``
    saying so with the reason.
    """

    indexes: tuple[tuple[str, tuple[str, ...]], ...]
    pypi_bound: tuple[tuple[str, tuple[str, ...]], ...]
    source: str
    derived: bool = False
    fallback: bool = False


@dataclass(frozen=True)
class MatrixRead:
    """One read of the build matrix: its Python builds and its variants (both the profile's copy on a fallback)."""

    builds: PythonBuilds
    indexes: ReleaseIndexes
