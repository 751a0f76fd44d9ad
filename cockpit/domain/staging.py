"""What the private PyPI staging prefix holds: the files listed under ``s3://bucket/prefix/``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True)
class StagedFile:
    """One object under the staging prefix: its name (the key less the prefix) and size in bytes."""

    name: str
    size: int


@dataclass(frozen=True)
class StagingListing:
    """Everything listed under ``url`` (``s3://pytorch-backup/torch-2.5.1-pypi-staging/``)."""

    url: str
    files: tuple[StagedFile, ...]


class StagingTrouble(StrEnum):
    """Why the staging prefix could not be read."""

    NO_LIBRARY = "no_library"  # boto3 is not installed (the [s3] extra)
    NO_CREDENTIALS = "no_credentials"
    ACCESS_DENIED = "access_denied"  # 403
    NO_BUCKET = "no_bucket"
    UNREACHABLE = "unreachable"
