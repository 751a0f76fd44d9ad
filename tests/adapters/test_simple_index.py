"""The wheel index read as the PEPs say: PEP 691 JSON by content negotiation, PEP 503 HTML as the
fallback, PEP 592 yanked files and PEP 658/714 metadata files, in both forms alike."""

from __future__ import annotations

import hashlib
import json

import pytest

from cockpit.adapters.simple_index import ACCEPT, parse_json_page, parse_metadata, parse_project_page
from cockpit.adapters.storage import WheelIndex
from cockpit.domain.artifacts import IndexFile
from cockpit.errors import ProjectNotFound, StorageError
from cockpit.sandbox.index_pages import metadata_sha256
from cockpit.sandbox.index_server import IndexEmulator
from cockpit.sandbox.model import SbWheel, World

PAGE = "http://index/whl/test/cu126/torchlet/"
CUDA = "torchlet-2.5.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl"
WIN = "torchlet-2.5.0+cu126-cp312-cp312-win_amd64.whl"
META_SHA = "c" * 64


def variant_world() -> World:
    """Two cu126 wheels, one yanked; one cu128 wheel whose METADATA says a release candidate."""
    return World(
        seed=0,
        version="2.5.0",
        repository="acme/torchlet",
        release_branch="release/2.5",
        milestone_number=1,
        tracker_issue=1,
        wheels=[
            SbWheel("test", "torchlet", CUDA, 780_000_000, "a" * 64, variant="cu126"),
            SbWheel("test", "torchlet", WIN, 760_000_000, "b" * 64, variant="cu126", yanked="wrong CUDA runtime"),
            SbWheel(
                "test",
                "torchlet",
                CUDA.replace("cu126", "cu128"),
                790_000_000,
                "d" * 64,
                variant="cu128",
                metadata_version="2.5.0rc1+cu128",
            ),
        ],
    )


@pytest.fixture(scope="module")
def emulator():
    with IndexEmulator(variant_world()) as server:
        yield server


@pytest.fixture
def index(emulator):
    emulator.faults.clear()
    emulator.request_log.clear()
    with WheelIndex(emulator.base_url, timeout=2) as client:
        yield client


class HtmlOnlyIndex(IndexEmulator):
    """An index that predates PEP 691 (download.pytorch.org serves static HTML): it ignores Accept."""

    def handle(self, request):
        request.headers.pop("accept", None)
        return super().handle(request)


def test_the_reader_asks_for_json_first_and_reads_the_json_answer(index, emulator):
    files = index.project_files("torchlet", variant="cu126")
    assert [(f.filename, f.variant, f.sha256) for f in files] == [(CUDA, "cu126", "a" * 64), (WIN, "cu126", "b" * 64)]
    assert files[0].url == f"{emulator.base_url}/whl/test/cu126/{CUDA.replace('+', '%2B')}"
    assert ACCEPT.startswith("application/vnd.pypi.simple.v1+json,")


def test_an_index_that_only_speaks_html_gives_the_same_files(emulator):
    with HtmlOnlyIndex(emulator.world) as html_only, WheelIndex(html_only.base_url, timeout=2) as reader:
        via_html = reader.project_files("torchlet", variant="cu126")
    with WheelIndex(emulator.base_url, timeout=2) as reader:
        via_json = reader.project_files("torchlet", variant="cu126")

    def strip(f):
        return f.filename, f.url.split("/whl/")[1], f.sha256, f.yanked, f.yanked_reason, f.has_metadata

    assert [strip(f) for f in via_html] == [strip(f) for f in via_json]
    assert via_html[1].yanked and via_html[1].yanked_reason == "wrong CUDA runtime"


def test_a_yanked_file_and_the_metadata_digests_come_through(index, emulator):
    good, yanked = index.project_files("torchlet", variant="cu126")
    assert not good.yanked and yanked.yanked and yanked.yanked_reason == "wrong CUDA runtime"
    assert good.has_metadata and good.metadata_sha256 == metadata_sha256(emulator.world.wheels[0])


def test_metadata_files_are_read_and_their_digest_checked(index, emulator):
    [cu128] = index.with_metadata(index.project_files("torchlet", variant="cu128"))
    assert (cu128.metadata_name, cu128.metadata_version, cu128.metadata_error) == ("torchlet", "2.5.0rc1+cu128", "")
    good, yanked = index.with_metadata(index.project_files("torchlet", variant="cu126"))
    assert good.metadata_version == "2.5.0+cu126" and yanked.metadata_version is None  # a yanked file is not read
    assert [e["path"] for e in emulator.log() if e["path"].endswith(".metadata")] == [
        "/whl/test/cu128/torchlet-2.5.0%2Bcu128-cp312-cp312-manylinux_2_28_x86_64.whl.metadata",
        "/whl/test/cu126/torchlet-2.5.0%2Bcu126-cp312-cp312-manylinux_2_28_x86_64.whl.metadata",
    ]
    [tampered] = index.with_metadata([IndexFile(CUDA, good.url, metadata_sha256="0" * 64, has_metadata=True)])
    assert tampered.metadata_version is None and "sha256" in tampered.metadata_error


def test_a_metadata_file_that_fails_to_load_is_reported_not_raised(index, emulator):
    emulator.faults.status_burst(500, count=None, path=r"\.metadata$")
    [file] = index.with_metadata(index.project_files("torchlet", variant="cu128"))
    # not read is not wrong: the failure is kept apart from a metadata file that was read and is bad
    assert file.metadata_version is None and "500" in file.metadata_unread and file.metadata_error == ""


def test_metadata_that_could_not_be_read_leaves_the_gate_unknown_never_a_finding():
    from dataclasses import replace

    from cockpit.domain.gates import GateStatus
    from cockpit.services.storage import expected_artifacts, storage_gate, validate_rc

    expected = expected_artifacts(["torchlet"], "2.5.0", ["manylinux_2_28_x86_64"], ["cp312"])
    name = "torchlet-2.5.0-cp312-cp312-manylinux_2_28_x86_64.whl"
    found = IndexFile(name, "http://index/" + name, sha256="a" * 64, size=500 * 2**20, has_metadata=True)
    unread = replace(found, metadata_unread="http://index/x.metadata: no answer in 15 s")
    gate = storage_gate(validate_rc(expected, [unread], version="2.5.0", size_limit_mb=1000, size_warn_mb=850))
    assert gate.status is GateStatus.UNKNOWN and "metadata unread" in " ".join(gate.details)
    bad = replace(found, metadata_error="its METADATA says Name: other")
    bad_gate = storage_gate(validate_rc(expected, [bad], version="2.5.0", size_limit_mb=1000, size_warn_mb=850))
    assert bad_gate.status is not GateStatus.UNKNOWN


def test_a_missing_project_page_is_project_not_found(index):
    with pytest.raises(ProjectNotFound, match="404"):
        index.project_files("torchlet-audio", variant="cu126")
    assert issubclass(ProjectNotFound, StorageError)


# --- the parsers on pages written by hand ---------------------------------------------------------


def test_html_attributes_of_pep_592_658_and_714_are_read():
    page = f"""<!DOCTYPE html><html><head><meta name="pypi:repository-version" content="1.3"></head><body>
    <a href="../{CUDA.replace("+", "%2B")}#sha256={"a" * 64}" data-requires-python="&gt;=3.10"
       data-dist-info-metadata="sha256={"d" * 64}" data-core-metadata="sha256={META_SHA}">{CUDA}</a>
    <a href="../{WIN.replace("+", "%2B")}#sha256={"b" * 64}" data-dist-info-metadata="true" data-yanked="">{WIN}</a>
    <a href="../old.whl" data-yanked="superseded &amp; broken">old.whl</a>
    </body></html>"""
    cuda, win, old = parse_project_page(page, PAGE, variant="cu126")
    assert cuda.url == "http://index/whl/test/cu126/" + CUDA.replace("+", "%2B") and cuda.variant == "cu126"
    assert cuda.has_metadata and cuda.metadata_sha256 == META_SHA  # PEP 714: data-core-metadata wins
    assert (win.has_metadata, win.metadata_sha256, win.yanked, win.yanked_reason) == (True, None, True, "")
    assert (old.has_metadata, old.yanked, old.yanked_reason) == (False, True, "superseded & broken")
    assert not cuda.yanked


def test_json_fields_of_pep_691_592_658_and_714_are_read():
    page = json.dumps(
        {
            "meta": {"api-version": "1.1"},
            "name": "torchlet",
            "files": [
                {
                    "filename": CUDA,
                    "url": f"../{CUDA.replace('+', '%2B')}",
                    "hashes": {"sha256": "A" * 64},
                    "core-metadata": {"sha256": META_SHA},
                    "dist-info-metadata": {"sha256": "d" * 64},
                    "yanked": False,
                },
                {
                    "filename": WIN,
                    "url": "https://files.example/w.whl#sha256=x",
                    "hashes": {},
                    "dist-info-metadata": True,
                    "yanked": "wrong CUDA runtime",
                },
                {"filename": "old.whl", "url": "old.whl", "hashes": {"md5": "0" * 32}, "yanked": True},
            ],
        }
    )
    cuda, win, old = parse_json_page(page, PAGE, variant="cu126")
    assert cuda.url.endswith("/whl/test/cu126/" + CUDA.replace("+", "%2B")) and cuda.sha256 == "a" * 64
    assert cuda.metadata_sha256 == META_SHA and not cuda.yanked
    assert (win.url, win.sha256, win.has_metadata, win.yanked_reason) == (
        "https://files.example/w.whl",
        None,
        True,
        "wrong CUDA runtime",
    )
    assert old.yanked and old.yanked_reason == "" and old.sha256 is None and not old.has_metadata


@pytest.mark.parametrize(
    "page, words",
    [
        ({"meta": {"api-version": "2.0"}, "name": "t", "files": []}, "meta.api-version is '2.0'"),
        ({"meta": {}, "name": "t", "files": []}, "meta.api-version is ''"),
        ({"name": "t", "files": []}, "expected a PEP 691 object"),
        ({"meta": {"api-version": "1.0"}, "files": {}}, 'expected a "files" list'),
        ({"meta": {"api-version": "1.0"}, "files": [{"filename": "a.whl"}]}, "files[0]: expected an object"),
        ({"meta": {"api-version": "1.0"}, "files": [{"filename": "a.whl", "url": "a.whl", "yanked": 1}]}, '"yanked"'),
        ({"meta": {"api-version": "1.0"}, "files": [{"filename": "a.whl", "url": "a.whl", "hashes": []}]}, '"hashes"'),
        (
            {"meta": {"api-version": "1.0"}, "files": [{"filename": "a.whl", "url": "a.whl", "core-metadata": "yes"}]},
            '"core-metadata"',
        ),
    ],
)
def test_a_json_page_not_in_pep_691s_shape_is_a_storage_error_naming_the_field(page, words):
    with pytest.raises(StorageError) as caught:
        parse_json_page(json.dumps(page), PAGE)
    assert words in str(caught.value) and PAGE in str(caught.value)


def test_an_html_page_of_a_future_major_repository_version_is_refused():
    with pytest.raises(StorageError, match=r"pypi:repository-version is '2\.0'"):
        parse_project_page('<html><head><meta name="pypi:repository-version" content="2.0"></head></html>', PAGE)


def test_core_metadata_is_read_from_its_headers_and_checked_against_its_digest():
    body = b"Metadata-Version: 2.1\nName: torchlet\nVersion: 2.5.0+cu126\nRequires-Python: >=3.10\n\nlong text\n"
    file = IndexFile(CUDA, PAGE + CUDA, has_metadata=True, metadata_sha256=hashlib.sha256(body).hexdigest())
    assert parse_metadata(body, file) == ("torchlet", "2.5.0+cu126", "")
    assert "no Version:" in parse_metadata(b"Metadata-Version: 2.1\nName: torchlet\n", IndexFile(CUDA, PAGE))[2]
    assert "sha256" in parse_metadata(body + b"x", file)[2]
    assert "not readable" in parse_metadata(b"\xff\xfe", IndexFile(CUDA, PAGE))[2]
