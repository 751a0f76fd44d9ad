"""The wheel-index emulator speaks PEP 503 and PyPI's JSON API well enough for pip and the adapter."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from cockpit.sandbox.index_server import IndexEmulator
from cockpit.sandbox.model import SbPyPIRelease, SbWheel, World

MB = 1_000_000
CUDA_WHEEL = "torchlet-2.5.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"
PURE_WHEEL = "torchlet-2.5.0-py3-none-any.whl"


def tiny_world() -> World:
    """RC 2.5.0 in the test channel (one CUDA variant wheel, one pure wheel), 2.4.1 stable and on PyPI."""
    return World(
        seed=0,
        version="2.5.0",
        repository="acme/torchlet",
        release_branch="release/2.5",
        milestone_number=1,
        tracker_issue=1,
        wheels=[
            SbWheel("test", "torchlet", CUDA_WHEEL, 912 * MB, "a" * 64, variant="cu130"),
            SbWheel("test", "torchlet", PURE_WHEEL, 3 * MB, "b" * 64),
            SbWheel("test", "torchlet_extras", "torchlet_extras-2.5.0-py3-none-any.whl", 20_000, "c" * 64),
            SbWheel("stable", "torchlet", "torchlet-2.4.1-py3-none-any.whl", 3 * MB, "d" * 64),
        ],
        pypi=[
            SbPyPIRelease("torchlet", "2.4.0", ["torchlet-2.4.0-py3-none-any.whl"], "2025-06-01T10:00:00Z"),
            SbPyPIRelease("torchlet", "2.4.1", ["torchlet-2.4.1-py3-none-any.whl"], "2025-08-01T10:00:00Z"),
        ],
        packages=["torchlet"],
    )


@pytest.fixture(scope="module")
def index():
    with IndexEmulator(tiny_world()) as emulator, httpx.Client(base_url=emulator.base_url) as client:
        yield emulator, client


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.anchors: list[tuple[str, str]] = []
        self._href: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._href = dict(attrs)["href"]

    def handle_data(self, data):
        if self._href is not None and data.strip():
            self.anchors.append((self._href, data.strip()))
            self._href = None


def anchors(page: str) -> list[tuple[str, str]]:
    parser = _Anchors()
    parser.feed(page)
    return parser.anchors


def test_the_rc_channel_root_links_every_project(index):
    _, client = index
    page = client.get("/whl/test/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert anchors(page.text) == [
        ("/whl/test/torchlet/", "torchlet"),
        ("/whl/test/torchlet-extras/", "torchlet-extras"),
    ]


def test_the_rc_project_page_is_html5_with_encoded_links_and_checksums(index):
    _, client = index
    page = client.get("/whl/test/torchlet/").text
    assert page.startswith("<!DOCTYPE html>") and "<title>Links for torchlet</title>" in page
    assert anchors(page) == [
        (f"/whl/test/cu130/torchlet-2.5.0%2Bcu130-cp312-cp312-manylinux_2_28_x86_64.whl#sha256={'a' * 64}", CUDA_WHEEL),
        (f"/whl/test/{PURE_WHEEL}#sha256={'b' * 64}", PURE_WHEEL),
    ]


def test_the_stable_channel_holds_only_the_previous_release(index):
    _, client = index
    assert [text for _, text in anchors(client.get("/whl/torchlet/").text)] == ["torchlet-2.4.1-py3-none-any.whl"]


def test_a_variant_sub_index_lists_only_that_accelerator_with_relative_links(index):
    emulator, client = index
    page = client.get("/whl/test/cu130/torchlet/")
    [(href, text)] = anchors(page.text)
    assert text == CUDA_WHEEL and href.startswith("../torchlet-2.5.0%2Bcu130")
    resolved = httpx.URL(emulator.base_url + "/whl/test/cu130/torchlet/").join(href.split("#")[0])
    assert client.head(resolved).headers["content-length"] == str(912 * MB)


def test_non_normalised_project_names_are_redirected(index):
    _, client = index
    for asked in ("/whl/test/Torchlet/", "/whl/test/torchlet", "/whl/test/Torchlet_Extras/"):
        answer = client.get(asked)
        assert answer.status_code == 301, asked
        assert re.fullmatch(r"/whl/test/torchlet(-extras)?/", answer.headers["location"])
    assert client.get("/whl/test/Torchlet_Extras/", follow_redirects=True).status_code == 200


def test_an_unknown_project_is_404(index):
    _, client = index
    assert client.get("/whl/test/torchvision/").status_code == 404


def test_head_of_a_file_declares_its_size_and_get_is_refused(index):
    _, client = index
    head = client.head(f"/whl/test/{PURE_WHEEL}")
    assert head.status_code == 200 and head.headers["content-length"] == str(3 * MB) and head.content == b""
    get = client.get(f"/whl/test/{PURE_WHEEL}")
    assert get.status_code == 403 and b"HEAD" in get.content
    assert client.head("/whl/test/torchlet-9.9.9-py3-none-any.whl").status_code == 404


def test_pypi_json_lists_published_releases_with_file_details(index):
    _, client = index
    data = client.get("/pypi/torchlet/json").json()
    assert data["info"]["version"] == "2.4.1"
    assert list(data["releases"]) == ["2.4.0", "2.4.1"]
    [file] = data["releases"]["2.4.1"]
    assert file["filename"] == "torchlet-2.4.1-py3-none-any.whl"
    assert file["size"] == 3 * MB and file["digests"]["sha256"] == "d" * 64
    assert file["upload_time_iso_8601"] == "2025-08-01T10:00:00Z" and file["yanked"] is False


def test_pypi_json_of_one_version_and_of_an_unpublished_one(index):
    _, client = index
    assert [f["filename"] for f in client.get("/pypi/torchlet/2.4.0/json").json()["urls"]] == [
        "torchlet-2.4.0-py3-none-any.whl"
    ]
    unpublished = client.get("/pypi/torchlet/2.5.0/json")
    assert unpublished.status_code == 404 and unpublished.json() == {"message": "Not Found"}
    assert client.get("/pypi/torchvision/json").status_code == 404


def test_requests_are_logged_and_faults_can_be_injected(index):
    emulator, client = index
    client.delete("/_sandbox/log")
    emulator.faults.status_burst(503, count=1, path=r"^/whl/test/torchlet/$")
    assert client.get("/whl/test/torchlet/").status_code == 503
    assert client.get("/whl/test/torchlet/").status_code == 200
    log = client.get("/_sandbox/log").json()
    assert [(e["method"], e["path"], e["status"]) for e in log] == [
        ("GET", "/whl/test/torchlet/", 503),
        ("GET", "/whl/test/torchlet/", 200),
    ]


@pytest.mark.slow
def test_pip_lists_the_release_candidate_from_the_test_channel(tmp_path: Path):
    """The issue's own check: ``pip index versions torchlet --index-url <base>/whl/test/``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    with IndexEmulator(tiny_world()) as emulator:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "index",
                "versions",
                "torchlet",
                "--pre",
                "--no-cache-dir",
                "--disable-pip-version-check",
                "--index-url",
                emulator.base_url + "/whl/test/",
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    assert "torchlet (2.5.0)" in done.stdout


# --- PEP 691 content negotiation, PEP 658/714 metadata, PEP 592 yanked -----------------------------

JSON_TYPE = "application/vnd.pypi.simple.v1+json"


@pytest.mark.parametrize(
    "accept, answer",
    [
        ("", "text/html"),
        ("*/*", "text/html"),
        (f"{JSON_TYPE}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01", JSON_TYPE),
        (f"text/html, {JSON_TYPE};q=0.5", "text/html"),
        ("application/vnd.pypi.simple.v1+html", "application/vnd.pypi.simple.v1+html"),
        ("application/*", "application/vnd.pypi.simple.v1+html"),  # a wildcard gets the most compatible form
        (f"{JSON_TYPE};q=0, */*;q=0.1", "text/html"),
        ("application/json", None),
    ],
)
def test_the_answer_form_follows_the_accept_header_as_pep_691_says(accept, answer):
    from cockpit.sandbox.index_pages import negotiate

    assert negotiate(accept) == answer


def test_a_json_project_page_is_pep_691_with_pep_700s_fields(index):
    _, client = index
    page = client.get("/whl/test/torchlet/", headers={"Accept": JSON_TYPE})
    assert page.headers["content-type"] == JSON_TYPE and page.headers["vary"] == "Accept"
    data = page.json()
    assert data["meta"] == {"api-version": "1.1"} and data["name"] == "torchlet"
    assert data["versions"] == ["2.5.0", "2.5.0+cu130"]
    cuda = data["files"][0]
    assert cuda["filename"] == CUDA_WHEEL and cuda["url"] == "/whl/test/cu130/" + CUDA_WHEEL.replace("+", "%2B")
    assert cuda["hashes"] == {"sha256": "a" * 64} and cuda["yanked"] is False and cuda["size"] == 912 * MB
    assert cuda["core-metadata"] == cuda["dist-info-metadata"] and len(cuda["core-metadata"]["sha256"]) == 64
    root = client.get("/whl/test/", headers={"Accept": JSON_TYPE}).json()
    assert root["projects"] == [{"name": "torchlet"}, {"name": "torchlet-extras"}]


def test_an_unacceptable_form_is_406(index):
    _, client = index
    answer = client.get("/whl/test/torchlet/", headers={"Accept": "application/json"})
    assert answer.status_code == 406 and JSON_TYPE in answer.text


def test_each_file_serves_its_core_metadata_matching_the_digest_the_pages_state(index):
    _, client = index
    page = client.get("/whl/test/torchlet/", headers={"Accept": JSON_TYPE}).json()
    for file in page["files"]:
        body = client.get(file["url"] + ".metadata")
        assert body.status_code == 200 and hashlib.sha256(body.content).hexdigest() == file["core-metadata"]["sha256"]
        assert f"Version: {file['filename'].split('-')[1]}" in body.text
    assert client.get(f"/whl/test/{PURE_WHEEL}.metadata").text.startswith("Metadata-Version: 2.1\nName: torchlet\n")
    assert client.get("/whl/test/torchlet-9.9.9-py3-none-any.whl.metadata").status_code == 404


def test_yanked_files_carry_their_reason_in_both_forms():
    world = tiny_world()
    world.wheels[1].yanked = "broken <build> & more"
    world.wheels[0].yanked = ""
    with IndexEmulator(world) as emulator, httpx.Client(base_url=emulator.base_url) as client:
        html_page = client.get("/whl/test/torchlet/").text
        data = client.get("/whl/test/torchlet/", headers={"Accept": JSON_TYPE}).json()
    assert 'data-yanked="broken &lt;build&gt; &amp; more"' in html_page and 'data-yanked=""' in html_page
    assert 'data-requires-python="&gt;=3.10"' in html_page and 'data-core-metadata="sha256=' in html_page
    assert [f["yanked"] for f in data["files"]] == [True, "broken <build> & more"]
