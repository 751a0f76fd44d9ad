"""The sandbox's PyPI staging on S3: moto's S3 server on 127.0.0.1, seeded with the world's staged wheels.

PyTorch stages the wheels bound for PyPI under a private S3 prefix
(``s3://pytorch-backup/<package>-<version>-pypi-staging/``, test-infra's ``release/pypi/`` scripts). The
demo does the same against moto's server (``python -m moto.server``, as the S3 adapter's tests start it)
when boto3 (the ``[s3]`` extra) and moto are installed; without them the demo still starts, and its
staging gate says why it cannot read staging.

The objects carry the staged wheels' names, not their weight: moto keeps every body in memory, and the
staged set weighs tens of gigabytes. Their sizes are a few bytes; the index's staging channel keeps the
real ones.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from typing import Any

from cockpit.sandbox.model import SbWheel, World

BUCKET = "sandbox-backup"
PREFIX = "s3://" + BUCKET + "/{package}-{version}-pypi-staging/"  # the shape of PyTorch's staging prefix
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "sandbox", "AWS_SECRET_ACCESS_KEY": "sandbox"}  # moto takes any
START_S = 60.0  # a hang guard for the server's start, not a speed target


def missing() -> str:
    """Why the S3 emulator cannot run here ("" when it can): boto3 and moto's server must be installed."""
    if importlib.util.find_spec("boto3") is None:
        return "boto3 is not installed (pip install 'release-cockpit[s3]')"
    if importlib.util.find_spec("moto") is None or importlib.util.find_spec("moto.server") is None:
        return "moto is not installed (pip install 'moto[server]')"
    return ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_moto_server(credentials: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """moto's server (``python -m moto.server``) on a free port of 127.0.0.1, started with ``credentials``
    in its environment: the process and its endpoint, once it answers. ``RuntimeError`` when it does not
    start within ``START_S`` (the process is ended first)."""
    import httpx

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **credentials},
    )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_S
    while True:
        try:
            httpx.get(f"{endpoint}/moto-api/", timeout=2)
            return server, endpoint
        except httpx.HTTPError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.terminate()
                server.wait(timeout=30)
                raise RuntimeError("moto's S3 server did not start") from None
            time.sleep(0.2)


class S3Emulator:
    """moto's S3 server for one world; ``start`` returns its endpoint, ``stop`` ends it."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.endpoint = ""
        self._server: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        self._server, self.endpoint = start_moto_server(CREDENTIALS)
        self._seed()
        return self.endpoint

    def _client(self) -> Any:
        boto3 = importlib.import_module("boto3")
        keys = {"aws_access_key_id": CREDENTIALS["AWS_ACCESS_KEY_ID"], "aws_secret_access_key": "sandbox"}
        return boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1", **keys)

    def _seed(self) -> None:
        self._client().create_bucket(Bucket=BUCKET)
        self.put(self.world.wheels)

    def put(self, wheels: list[SbWheel]) -> None:
        """Store the staged ones of ``wheels`` under their package's staging prefix."""
        from cockpit.sandbox.world_promotion import STAGING

        s3 = self._client()
        for wheel in wheels:
            if wheel.channel == STAGING:
                prefix = staging_prefix(wheel.package, self.world.version).removeprefix(f"s3://{BUCKET}/")
                s3.put_object(Bucket=BUCKET, Key=prefix + wheel.filename, Body=wheel.sha256.encode())

    def stop(self) -> None:
        if self._server is not None:
            self._server.terminate()
            self._server.wait(timeout=30)
            self._server = None


def staging_prefix(package: str, version: str) -> str:
    """``s3://sandbox-backup/torchlet-2.5.0-pypi-staging/``."""
    return PREFIX.replace("{package}", package).replace("{version}", version)
