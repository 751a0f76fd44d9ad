"""Release-candidate artifacts: what the index holds and what the release expects."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IndexFile:
    """A file link of a PEP 503 project page."""

    filename: str
    url: str
    sha256: str | None = None
    size: int | None = None  # bytes, from HEAD Content-Length
    size_error: str = ""  # why ``size`` is None: the HEAD failed, or answered without a Content-Length


@dataclass(frozen=True)
class ExpectedArtifact:
    package: str
    version: str
    python_tag: str  # cp312, cp313t
    platform: str  # manylinux_2_28_x86_64, win_amd64, macosx_11_0_arm64

    @property
    def filename(self) -> str:
        """The wheel's name as real indexes spell it: free-threaded ``cp313t`` is ``cp313-cp313t``."""
        abi = self.python_tag
        interpreter = abi[:-1] if abi.endswith("t") else abi
        return f"{self.package}-{self.version}-{interpreter}-{abi}-{self.platform}.whl"


@dataclass(frozen=True)
class ArtifactProblem:
    filename: str
    kind: str  # missing / truncated / unexpected / oversize / size_warning / wrong_version / no_checksum / size_unknown
    detail: str


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
