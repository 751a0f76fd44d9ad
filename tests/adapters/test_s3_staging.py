"""The S3 staging adapter against moto's S3 server, started here: a staged set, a 403 bucket, an
empty prefix, and no credentials at all (amber, never green)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cockpit.adapters.s3_staging import S3Staging, StagingUnreadable, split_s3_url
from cockpit.domain.gates import GateStatus
from cockpit.domain.staging import StagingTrouble
from cockpit.errors import StorageError
from cockpit.sandbox.s3_server import start_moto_server
from cockpit.services.staging_gate import staging_gate, staging_url, unreadable_gate

boto3 = pytest.importorskip("boto3", reason="the [s3] extra is not installed")
pytest.importorskip("moto.server", reason="moto's server is not installed")
httpx = pytest.importorskip("httpx")

PREFIX = "s3://release-backup/torchlet-3.1.0-pypi-staging/"
TAGS, PLATFORMS = ("cp312", "cp313t"), ("manylinux_2_28_x86_64", "macosx_*_arm64")
STAGED = [
    "torchlet-3.1.0-cp312-cp312-manylinux_2_28_x86_64.whl",
    "torchlet-3.1.0-cp313-cp313t-manylinux_2_28_x86_64.whl",
    "torchlet-3.1.0-cp312-cp312-macosx_12_0_arm64.whl",
    "torchlet-3.1.0-cp313-cp313t-macosx_12_0_arm64.whl",
]


@pytest.fixture(scope="module")
def moto_s3() -> Iterator[tuple[str, dict[str, str]]]:
    """moto's S3+IAM server on 127.0.0.1; a bucket with the staged set, a locked bucket, and a user
    allowed to read only the first. Yields the endpoint and that user's environment."""
    try:
        server, endpoint = start_moto_server({"AWS_ACCESS_KEY_ID": "setup", "AWS_SECRET_ACCESS_KEY": "setup"})
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        admin = {
            "endpoint_url": endpoint,
            "region_name": "us-east-1",
            "aws_access_key_id": "setup",
            "aws_secret_access_key": "setup",
        }
        s3 = boto3.client("s3", **admin)
        for bucket in ("release-backup", "locked-backup"):
            s3.create_bucket(Bucket=bucket)
        for name in STAGED:
            s3.put_object(Bucket="release-backup", Key="torchlet-3.1.0-pypi-staging/" + name, Body=b"w" * 2048)
        s3.put_object(Bucket="locked-backup", Key="torchlet-3.1.0-pypi-staging/x.whl", Body=b"x")
        iam = boto3.client("iam", **admin)
        iam.create_user(UserName="release-manager")
        iam.put_user_policy(
            UserName="release-manager",
            PolicyName="read-staging",
            # s3:ListBucket is the action AWS checks for ListObjectsV2; moto 5.2.6 checks the
            # operation's own name instead (s3:ListObjectsV2, s3:HeadObject), so the policy names both. The
            # locked bucket stays outside every statement, so the 403 test is unchanged.
            PolicyDocument=(
                '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["s3:ListBucket", '
                '"s3:ListObjects", "s3:ListObjectsV2", "s3:GetObject", "s3:HeadObject"], '
                '"Resource": ["arn:aws:s3:::release-backup", "arn:aws:s3:::release-backup/*"]}]}'
            ),
        )
        key = iam.create_access_key(UserName="release-manager")["AccessKey"]
        httpx.post(f"{endpoint}/moto-api/reset-auth", content=b"0", timeout=10)  # from now on, IAM decides
        yield endpoint, {"AWS_ACCESS_KEY_ID": key["AccessKeyId"], "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"]}
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture
def as_user(moto_s3, monkeypatch, tmp_path):
    endpoint, keys = moto_s3
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    for name, value in keys.items():
        monkeypatch.setenv(name, value)
    return endpoint


def test_a_fully_staged_set_is_green(as_user) -> None:
    listing = S3Staging(endpoint_url=as_user).listing(PREFIX)
    assert [f.name for f in listing.files] == sorted(STAGED)
    gate = staging_gate(
        listing, package="torchlet", version="3.1.0", python_tags=TAGS, platforms=PLATFORMS, limit_mb=1000
    )
    assert gate.status is GateStatus.GREEN, gate.details
    assert S3Staging(endpoint_url=as_user).size(PREFIX, STAGED[0]) == 2048
    assert S3Staging(endpoint_url=as_user).size(PREFIX, "absent.whl") is None


def test_a_missing_wheel_is_red_and_named(as_user) -> None:
    listing = S3Staging(endpoint_url=as_user).listing(PREFIX)
    gate = staging_gate(
        listing, package="torchlet", version="3.1.0", python_tags=(*TAGS, "cp314"), platforms=PLATFORMS, limit_mb=1000
    )
    assert gate.status is GateStatus.RED
    assert any("cp314" in d for d in gate.details)


def test_a_prefix_that_does_not_exist_lists_nothing_and_is_amber(as_user) -> None:
    listing = S3Staging(endpoint_url=as_user).listing("s3://release-backup/torchlet-9.9.9-pypi-staging/")
    assert listing.files == ()
    gate = staging_gate(
        listing, package="torchlet", version="9.9.9", python_tags=TAGS, platforms=PLATFORMS, limit_mb=1000
    )
    assert gate.status is GateStatus.AMBER and "nothing staged" in gate.summary


def test_a_bucket_that_answers_403_says_access_denied(as_user) -> None:
    with pytest.raises(StagingUnreadable) as err:
        S3Staging(endpoint_url=as_user).listing("s3://locked-backup/torchlet-3.1.0-pypi-staging/")
    assert err.value.trouble is StagingTrouble.ACCESS_DENIED
    assert "access denied" in str(err.value)


def test_without_credentials_staging_is_amber_never_green(moto_s3, monkeypatch, tmp_path) -> None:
    endpoint, _ = moto_s3
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    with pytest.raises(StagingUnreadable) as err:
        S3Staging(endpoint_url=endpoint).listing(PREFIX)
    assert err.value.trouble is StagingTrouble.NO_CREDENTIALS
    gate = unreadable_gate(err.value.trouble, err.value.message)
    assert gate.status is GateStatus.AMBER
    assert gate.summary == "no AWS credentials: cannot read staging"


def test_the_staging_location_comes_from_the_profile_form() -> None:
    assert staging_url("s3://pytorch-backup/{package}-{version}-pypi-staging/", "torch", "3.1.0") == (
        "s3://pytorch-backup/torch-3.1.0-pypi-staging/"
    )
    assert split_s3_url(PREFIX) == ("release-backup", "torchlet-3.1.0-pypi-staging/")
    with pytest.raises(StorageError, match="s3://BUCKET"):
        split_s3_url("https://release-backup/x")
