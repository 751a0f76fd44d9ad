"""The private PyPI staging prefix on S3, read with boto3: listing and head requests only.

boto3 is an optional extra (``pip install 'release-cockpit[s3]'``): this module imports it only when
a listing is asked for, so the cockpit and its demo start without it. Credentials come from boto3's
standard chain (environment, shared config and credentials files, named profiles, SSO, instance
roles); the cockpit never reads or stores them itself. Nothing here writes: no put, copy or delete.
"""

from __future__ import annotations

import importlib
from typing import Any

from cockpit.domain.staging import StagedFile, StagingListing, StagingTrouble
from cockpit.errors import StagingUnreadable, StorageError

__all__ = ["S3Staging", "StagingUnreadable", "split_s3_url"]

_DENIED = {"AccessDenied", "403", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "AllAccessDisabled"}


def split_s3_url(url: str) -> tuple[str, str]:
    """``s3://bucket/some/prefix/`` -> (``bucket``, ``some/prefix/``); ``StorageError`` for anything else."""
    rest = url.strip().removeprefix("s3://")
    bucket, _, prefix = rest.partition("/")
    if not url.strip().startswith("s3://") or not bucket or any(c.isspace() for c in rest):
        raise StorageError(f"staging location {url!r} is not an S3 URL: expected s3://BUCKET/PREFIX/")
    return bucket, prefix


class S3Staging:
    """Lists the staging prefix. ``endpoint_url`` points at an S3-compatible server (tests, a mirror)."""

    def __init__(self, *, endpoint_url: str | None = None, profile: str | None = None, region: str = "us-east-1"):
        self.endpoint_url = endpoint_url
        self.profile = profile
        self.region = region
        self._client: Any = None

    def _s3(self) -> Any:
        if self._client is not None:
            return self._client
        try:  # imported by name: boto3 ships no type information, and it is an optional extra
            boto3 = importlib.import_module("boto3")
            config_module = importlib.import_module("botocore.config")
        except ImportError:
            raise StagingUnreadable(
                "boto3 is not installed: cannot read staging (pip install 'release-cockpit[s3]')",
                StagingTrouble.NO_LIBRARY,
            ) from None
        try:
            session = boto3.session.Session(profile_name=self.profile, region_name=self.region)
        except Exception as exc:  # botocore's ProfileNotFound and friends
            raise StagingUnreadable(f"AWS profile {self.profile!r}: {exc}", StagingTrouble.NO_CREDENTIALS) from None
        if session.get_credentials() is None:
            raise StagingUnreadable("no AWS credentials: cannot read staging", StagingTrouble.NO_CREDENTIALS)
        config = config_module.Config(
            retries={"max_attempts": 2, "mode": "standard"}, connect_timeout=5, read_timeout=20
        )
        self._client = session.client("s3", endpoint_url=self.endpoint_url, config=config)
        return self._client

    def listing(self, url: str) -> StagingListing:
        """Every object under the prefix of ``url`` with its size. An absent prefix lists nothing.

        Raises ``StagingUnreadable`` with the reason (no boto3, no credentials, 403, no such bucket,
        unreachable), never a boto3 exception.
        """
        bucket, prefix = split_s3_url(url)
        s3 = self._s3()
        files: list[StagedFile] = []
        try:
            for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
                for obj in page.get("Contents", ()):
                    files.append(StagedFile(str(obj["Key"])[len(prefix) :], int(obj["Size"])))
        except Exception as exc:
            raise _unreadable(exc, url) from None
        return StagingListing(url, tuple(sorted(files, key=lambda f: f.name)))

    def size(self, url: str, name: str) -> int | None:
        """The size of one staged file (a HEAD request), or None when it is not there."""
        bucket, prefix = split_s3_url(url)
        s3 = self._s3()
        try:
            return int(s3.head_object(Bucket=bucket, Key=prefix + name)["ContentLength"])
        except Exception as exc:
            if _code(exc) in ("404", "NoSuchKey", "NotFound"):
                return None
            raise _unreadable(exc, url) from None


def _code(exc: Exception) -> str:
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", ""))
    return ""


def _unreadable(exc: Exception, url: str) -> StagingUnreadable:
    code = _code(exc)
    name = type(exc).__name__
    if code in _DENIED:
        return StagingUnreadable(
            f"{url}: access denied ({code}): the AWS identity may not list it", StagingTrouble.ACCESS_DENIED
        )
    if code == "NoSuchBucket":
        return StagingUnreadable(f"{url}: no such bucket", StagingTrouble.NO_BUCKET)
    if name in ("NoCredentialsError", "PartialCredentialsError"):
        return StagingUnreadable("no AWS credentials: cannot read staging", StagingTrouble.NO_CREDENTIALS)
    detail = f"{code}: " if code else ""
    return StagingUnreadable(f"{url}: could not be read ({detail}{name})", StagingTrouble.UNREACHABLE)
