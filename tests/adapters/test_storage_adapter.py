"""The storage adapter against the wheel-index emulator: what the RC check reads, and how it fails."""

from __future__ import annotations

import socket
from dataclasses import replace

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cockpit.adapters.storage import PyPIClient, WheelIndex, parse_project_page
from cockpit.domain.artifacts import IndexFile
from cockpit.errors import StorageError
from cockpit.sandbox.index_server import IndexEmulator
from cockpit.sandbox.model import SbPyPIRelease, SbWheel, World

MB = 1_000_000
CUDA_WHEEL = "torchlet-2.5.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64")


def tiny_world() -> World:
    """RC 2.5.0: twelve plain wheels plus one CUDA variant wheel; 2.4.0 and 2.4.1 already on PyPI."""
    wheels = [
        SbWheel("test", "torchlet", f"torchlet-2.5.0-{tag}-{tag}-{plat}.whl", (300 + i) * MB, f"{i:064x}")
        for i, (tag, plat) in enumerate((t, p) for t in ("cp311", "cp312", "cp313") for p in PLATFORMS)
    ]
    wheels.append(SbWheel("test", "torchlet", CUDA_WHEEL, 1_200 * MB, "f" * 64, variant="cu130"))
    return World(
        seed=0,
        version="2.5.0",
        repository="acme/torchlet",
        release_branch="release/2.5",
        milestone_number=1,
        tracker_issue=1,
        wheels=wheels,
        pypi=[
            SbPyPIRelease("torchlet", "2.4.0", ["torchlet-2.4.0-cp312-cp312-win_amd64.whl"], "2025-06-01T10:00:00Z"),
            SbPyPIRelease("torchlet", "2.4.1", ["torchlet-2.4.1-cp312-cp312-win_amd64.whl"], "2025-08-01T10:00:00Z"),
        ],
    )


@pytest.fixture(scope="module")
def emulator():
    with IndexEmulator(tiny_world()) as server:
        yield server


@pytest.fixture
def index(emulator):
    emulator.faults.clear()
    emulator.request_log.clear()
    # a bound on a hang, not a speed: on a busy machine an ordinary answer can take seconds, and a HEAD that
    # timed out is read again by GET (an extra 200 the refresh tests would count)
    with WheelIndex(emulator.base_url, timeout=30) as client:
        yield client


@pytest.fixture
def pypi(emulator):
    with PyPIClient(emulator.base_url, timeout=30) as client:
        yield client


def test_the_rc_page_yields_every_wheel_with_its_checksum_and_decoded_name(index, emulator):
    files = index.project_files("torchlet")
    assert len(files) == 13
    cuda = next(f for f in files if "+cu130" in f.filename)
    assert cuda.filename == CUDA_WHEEL
    assert (
        cuda.url == f"{emulator.base_url}/whl/test/cu130/torchlet-2.5.0%2Bcu130-cp312-cp312-manylinux_2_28_x86_64.whl"
    )
    assert cuda.sha256 == "f" * 64 and cuda.size is None


def test_a_variant_sub_index_with_relative_links_resolves_to_the_same_files(index):
    [via_variant] = index.project_files("torchlet", variant="cu130")
    [via_channel] = [f for f in index.project_files("torchlet") if "+cu130" in f.filename]
    assert via_variant.variant == "cu130" and via_channel.variant == ""
    assert (via_variant.filename, via_variant.url, via_variant.sha256) == (
        via_channel.filename,
        via_channel.url,
        via_channel.sha256,
    )


def test_project_names_are_normalised_before_asking(index, emulator):
    assert len(index.project_files("Torchlet")) == 13
    assert [e["path"] for e in emulator.log()] == ["/whl/test/torchlet/"]


def test_sizes_come_from_head_requests_one_per_file(index, emulator):
    sized = index.with_sizes(index.project_files("torchlet"))
    assert {f.filename: f.size for f in sized}[CUDA_WHEEL] == 1_200 * MB
    assert sorted(f.size for f in sized)[:2] == [300 * MB, 301 * MB]
    heads = [e for e in emulator.log() if e["method"] == "HEAD"]
    assert len(heads) == 13 and all(e["status"] == 200 for e in heads)


def test_a_head_without_content_length_leaves_the_size_unknown(index):
    index._http = httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(200)))
    [file] = index.with_sizes([IndexFile("a-1-py3-none-any.whl", "http://index/a-1-py3-none-any.whl")])
    assert file.size is None
    assert file.size_error == "HEAD http://index/a-1-py3-none-any.whl answered 200 with no Content-Length"


def test_a_connection_dropped_under_a_get_is_asked_once_more_and_a_second_drop_is_told(index):
    """A kept-alive connection closed between two requests (by the server, or under load) fails the next one
    with a read error; a GET changes nothing, so it is sent once more on a fresh connection."""
    calls = []

    def flaky(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if len(calls) == 1:
            raise httpx.ReadError("[Errno 9] Bad file descriptor", request=request)
        return httpx.Response(200, headers={"Content-Length": "7"})

    index._http = httpx.Client(transport=httpx.MockTransport(flaky))
    [file] = index.with_sizes([IndexFile("a-1-py3-none-any.whl", "http://index/a-1-py3-none-any.whl")])
    assert file.size == 7 and calls == ["HEAD", "HEAD"]

    def dead(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        raise httpx.ReadError("connection reset", request=request)

    calls.clear()
    index._http = httpx.Client(transport=httpx.MockTransport(dead))
    [file] = index.with_sizes([IndexFile("a-1-py3-none-any.whl", "http://index/a-1-py3-none-any.whl")])
    assert file.size is None and "ReadError" in file.size_error and calls == ["HEAD", "HEAD"]


def test_pypi_says_which_versions_are_published(pypi):
    assert pypi.versions("torchlet") == ["2.4.0", "2.4.1"]
    assert pypi.release_files("torchlet", "2.4.1") == ["torchlet-2.4.1-cp312-cp312-win_amd64.whl"]
    assert pypi.release_files("torchlet", "2.5.0") is None
    assert pypi.versions("never-uploaded") == []


def test_a_server_error_becomes_a_storage_error_naming_the_url(index, emulator):
    emulator.faults.status_burst(500, count=1, path=r"/whl/test/torchlet/")
    with pytest.raises(StorageError) as caught:
        index.project_files("torchlet")
    assert f"{emulator.base_url}/whl/test/torchlet/" in str(caught.value)
    assert "500" in str(caught.value)


def test_a_failing_head_leaves_that_size_unknown_with_the_reason_and_sizes_the_rest(index, emulator):
    files = index.project_files("torchlet")
    emulator.faults.status_burst(503, count=1, path=r"cu130/torchlet-2\.5\.0%2Bcu130")
    sized = {f.filename: f for f in index.with_sizes(files)}
    failed = sized[CUDA_WHEEL]
    assert failed.size is None
    assert "HEAD" in failed.size_error and "%2Bcu130" in failed.size_error and "503" in failed.size_error
    assert all(f.size is not None and not f.size_error for name, f in sized.items() if name != CUDA_WHEEL)


def test_an_index_that_stops_answering_costs_a_few_timeouts_not_one_per_wheel(emulator):
    """Every HEAD hangs: the batch stops asking after GIVE_UP_AFTER unanswered requests (plus those
    already in flight); each file not asked says so, and why."""
    from cockpit.adapters.storage import GIVE_UP_AFTER, HEAD_CONCURRENCY

    emulator.faults.clear()
    with WheelIndex(emulator.base_url, timeout=0.3) as index:
        files = index.project_files("torchlet") * 4  # 52 files, more than a pool's worth
        emulator.faults.timeout(5, path=r"\.whl$")
        sized = index.with_sizes(files)
    emulator.faults.clear()
    asked = [f for f in sized if not f.size_error.startswith("not asked")]
    skipped = [f for f in sized if f.size_error.startswith("not asked")]
    assert len(asked) < GIVE_UP_AFTER + HEAD_CONCURRENCY, len(asked)
    assert all(f.size is None and "no answer within 0.3 s" in f.size_error for f in sized), {
        f.size_error for f in sized
    }
    assert len(skipped) == len(files) - len(asked)
    assert all(f.size_error.startswith("not asked: the wheel index stopped answering (HEAD ") for f in skipped)


def test_a_refused_connection_becomes_a_storage_error_naming_the_url():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with WheelIndex(f"http://127.0.0.1:{port}", timeout=2) as index, pytest.raises(StorageError) as caught:
        index.project_files("torchlet")
    assert f"http://127.0.0.1:{port}/whl/test/torchlet/" in str(caught.value)
    assert "cannot connect" in str(caught.value)
    with PyPIClient(f"http://127.0.0.1:{port}", timeout=2) as pypi, pytest.raises(StorageError, match="pypi/torchlet"):
        pypi.versions("torchlet")


def test_a_slow_index_times_out_as_a_storage_error(emulator):
    emulator.faults.timeout(5, count=1, path=r"/whl/test/torchlet/")
    with (
        WheelIndex(emulator.base_url, timeout=0.3) as index,
        pytest.raises(StorageError, match=r"no answer within 0\.3 s"),
    ):
        index.project_files("torchlet")
    emulator.faults.clear()


def test_a_malformed_body_is_a_storage_error_for_both_clients(index, pypi, emulator):
    emulator.faults.malformed(count=2)
    with pytest.raises(StorageError, match="expected a PEP 691 JSON or PEP 503 HTML page, got application/json"):
        index.project_files("torchlet")
    with pytest.raises(StorageError, match="not valid JSON"):
        pypi.versions("torchlet")


def test_an_unknown_project_is_a_storage_error(index):
    with pytest.raises(StorageError, match="404"):
        index.project_files("torchvision")


def test_the_parser_reads_relative_absolute_and_odd_links():
    page = """<!doctype html><title>x</title>
      <a href="pkg-1.0%2Bcpu-py3-none-any.whl#sha256={SHA}">x</a>
      <a href='https://files.example/whl/pkg-1.0-py3-none-any.whl#md5=00'>pkg-1.0-py3-none-any.whl</a>
      <A HREF="/whl/pkg-1.0-cp312-cp312-win_amd64.whl#sha256=tooshort">y</A>
      <a href="../">parent</a><a>no href</a>""".replace("{SHA}", "ABCDEF0123456789abcdef0123456789" * 2)
    files = parse_project_page(page, "http://index/whl/test/pkg/")
    assert [(f.filename, f.url, f.sha256) for f in files] == [
        (
            "pkg-1.0+cpu-py3-none-any.whl",
            "http://index/whl/test/pkg/pkg-1.0%2Bcpu-py3-none-any.whl",
            "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
        ),
        ("pkg-1.0-py3-none-any.whl", "https://files.example/whl/pkg-1.0-py3-none-any.whl", None),
        ("pkg-1.0-cp312-cp312-win_amd64.whl", "http://index/whl/pkg-1.0-cp312-cp312-win_amd64.whl", None),
    ]


def test_text_that_is_not_html_is_a_storage_error():
    with pytest.raises(StorageError, match="http://index/whl/test/pkg/"):
        parse_project_page('{"message": "Not Found"}', "http://index/whl/test/pkg/")
    assert parse_project_page("", "http://index/whl/test/pkg/") == []


html_bits = st.sampled_from(
    [
        "<a href=",
        "<a href='",
        '"',
        "#sha256=",
        "%2B",
        "%",
        "%zz",
        "</a>",
        "<!--",
        "-->",
        "<![CDATA[",
        "<!",
        "<?",
        "&#",
        "&amp",
        ";",
        "\x00",
        "\ud7ff",
        "[::1",
        "http://[",
        "//",
        "../",
        "<script>",
        "</",
        ">",
        "=",
        " ",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.lists(st.one_of(html_bits, st.text(max_size=5)), max_size=40).map("".join)))
def test_hostile_page_text_only_ever_raises_storage_error(text):
    try:
        files = parse_project_page(text, "http://index/whl/test/pkg/")
    except StorageError:
        return
    assert all(isinstance(f, IndexFile) and f.filename for f in files)


@settings(max_examples=100, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(
        lambda name: name not in (".", "..")  # dot segments name a directory, never a file
    )
)
def test_any_percent_encoded_filename_comes_back_decoded(name):
    from html import escape
    from urllib.parse import quote

    from cockpit.domain.text import inert

    page = f'<a href="{escape(quote(name, safe=""))}#sha256={"0" * 64}">{escape(name)}</a>'
    [file] = parse_project_page(page, "http://index/whl/test/pkg/")
    assert file.filename == inert(name) and file.sha256 == "0" * 64  # control characters shown, never obeyed


def test_the_rc_check_over_the_index_flags_the_oversize_cuda_wheel_and_the_missing_python(index):
    from cockpit.services.storage import expected_artifacts, storage_gate, validate_rc

    expected = expected_artifacts(["torchlet"], "2.5.0", PLATFORMS, ["cp311", "cp312", "cp313", "cp313t"])
    found = index.with_sizes(index.project_files("torchlet"))
    gate = storage_gate(validate_rc(expected, found, version="2.5.0", index_url=index.project_url("torchlet")))
    assert gate.status.value == "red"
    assert gate.summary == "5 problems: 4 missing, 1 over 1000 MB"


def test_a_head_answering_an_error_page_of_22_bytes_is_a_truncated_wheel_not_a_present_one(index, emulator):
    from cockpit.services.storage import expected_artifacts, storage_gate, validate_rc

    expected = expected_artifacts(["torchlet"], "2.5.0", PLATFORMS, ["cp311", "cp312", "cp313"])
    files = index.project_files("torchlet")
    emulator.faults.malformed(path=r"torchlet-2\.5\.0-cp312-cp312-win_amd64\.whl", count=1)
    report = validate_rc(expected, index.with_sizes(files), version="2.5.0")
    [problem] = [p for p in report.problems if p.kind != "oversize"]
    assert (problem.kind, problem.filename) == ("truncated", "torchlet-2.5.0-cp312-cp312-win_amd64.whl")
    assert "only 22 bytes" in problem.detail and "typically 306 MB" in problem.detail
    assert storage_gate(report).status.value == "red"


def test_a_refresh_of_an_unchanged_index_costs_only_304s_and_reads_the_same_files(index, pypi, emulator):
    first = index.with_sizes(index.project_files("torchlet"))
    versions = pypi.versions("torchlet")
    emulator.request_log.clear()
    again = index.with_sizes(index.project_files("torchlet"))
    assert again == first and pypi.versions("torchlet") == versions
    log = emulator.log()
    assert len(log) == 1 + 13 + 1 and {e["status"] for e in log} == {304}, "page, every HEAD and PyPI's JSON"
    assert index.not_modified == 14 and pypi.not_modified == 1


def test_a_wheel_uploaded_again_with_another_size_is_seen_on_the_next_refresh(index, emulator):
    before = {f.filename: f.size for f in index.with_sizes(index.project_files("torchlet"))}
    wheels = emulator.world.wheels
    k = next(i for i, w in enumerate(wheels) if w.filename == CUDA_WHEEL)
    original = wheels[k]
    wheels[k] = replace(original, size=900 * MB)
    try:
        emulator.request_log.clear()
        after = {f.filename: f.size for f in index.with_sizes(index.project_files("torchlet"))}
    finally:
        wheels[k] = original
    assert before[CUDA_WHEEL] == 1_200 * MB and after[CUDA_WHEEL] == 900 * MB
    changed = [(e["method"], e["path"]) for e in emulator.log() if e["status"] == 200]
    assert changed == [
        ("GET", "/whl/test/torchlet/"),
        ("HEAD", "/whl/test/cu130/torchlet-2.5.0%2Bcu130-cp312-cp312-manylinux_2_28_x86_64.whl"),
    ], "the page states sizes too"
    assert sum(1 for e in emulator.log() if e["status"] == 304) == 12
