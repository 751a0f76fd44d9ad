"""A release ready to ship stays NO-GO while the cockpit cannot read it.

On the all-green sandbox world `cockpit check` says GO. Then GitHub or the wheel index fails, in
every way they do (a burst of 5xx, a timeout, the primary rate limit as 403 or 429, the secondary
limit with Retry-After or named only in its message, a malformed body, a 404), everywhere at once
or at one endpoint family at a time: `check` must never print GO on data it could not read, must
exit non-zero, and must name the gate whose data is missing. Faults the client rides out (one 502
the retry absorbs, slow answers) leave the verdict GO: a fault never flips a truth either way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w

from cockpit.cli.main import main
from cockpit.config import load_config
from cockpit.domain.picks import PickFlag
from cockpit.sandbox.demo import SandboxServers, prepare_world, seed_dispatches, sign_go_steps, write_config

SEED, TRUNK_COMMITS = 7, 400  # the size of the shared sandbox world (tests/conftest.py)

TIMEOUT, RETRIES, MAX_WAIT = 0.5, 1, 1.0
# A check that must say GO waits as long as a person would: on a busy machine an ordinary answer can
# take longer than the short ceiling the fault tests use to make a planted timeout quick.
PATIENT_TIMEOUT = 30.0
GO = "GO: "

MILESTONE, BRANCH, PICKS, CI, RC = (
    "Milestone empty",
    "Branch diff clean",
    "Cherry-picks clear",
    "CI green",
    "RC artifacts valid",
)

# endpoint family -> (path regex, the gates whose data it carries)
GITHUB_FAMILIES = {
    "every request": (None, (MILESTONE, BRANCH, PICKS, CI)),
    "the milestone": (r"/issues\?milestone=|/milestones/\d+", (MILESTONE, BRANCH)),
    "the tracker issue and its comments": (r"/issues/\d+(/comments)?(\?|$)", (PICKS,)),
    "the release-branch PR list": (r"/pulls\?", (PICKS,)),
    "one PR at a time": (r"/pulls/\d+", (PICKS,)),
    "check runs": (r"/check-runs", (CI,)),
    "workflow runs": (r"/actions/runs", (CI,)),
}
INDEX_FAMILIES = {
    "every request": None,
    "the RC project pages": r"/whl/test/([^/]+/)?torchlet/$",
    "one variant's project page": r"/whl/test/cu128/torchlet/$",
    "the wheels' HEAD sizes": r"\.whl$",
    "the wheels' metadata files": r"\.whl\.metadata$",
    "PyPI's JSON API": r"/pypi/",
}

# fault kind -> (how to arm it on a path, words the reason carries)
GITHUB_FAULTS = {
    "a burst of 503s": (lambda f, p: f.status_burst(503, count=None, path=p), "503"),
    "a timeout": (lambda f, p: f.timeout(5, path=p), f"did not answer within {TIMEOUT:g} s"),
    "the primary rate limit (403)": (lambda f, p: f.rate_limit(path=p), "rate limit is exhausted"),
    "the primary rate limit (429)": (lambda f, p: f.rate_limit(status=429, path=p), "rate limit is exhausted"),
    "a secondary rate limit with Retry-After": (
        lambda f, p: f.secondary_rate_limit(retry_after=600, path=p),
        "rate limit is exhausted",
    ),
    "a secondary rate limit named only in the message": (
        lambda f, p: f.secondary_rate_limit(retry_after=None, path=p),
        "rate limit is exhausted",
    ),
    "a malformed JSON body": (lambda f, p: f.malformed(path=p), "not valid JSON"),
    "a 404": (lambda f, p: f.add("not_found", path=p), "not found (404)"),
}
INDEX_FAULTS = {
    "a burst of 503s": lambda f, p: f.status_burst(503, count=None, path=p),
    "one 502 (the index client does not retry)": lambda f, p: f.status_burst(502, count=1, path=p),
    "a timeout": lambda f, p: f.timeout(5, path=p),
    "a malformed body": lambda f, p: f.malformed(path=p),
    "a 404": lambda f, p: f.add("not_found", path=p),
}
ABSORBED = {
    "one 502 the retry absorbs": lambda f: f.status_burst(502, count=1),
    "slow answers": lambda f: f.latency(0.05),
}
# A 404 from PyPI's JSON API is its real answer for a project never uploaded ("not on PyPI yet"),
# and whether the release is on PyPI does not decide GO.
NOT_A_READ_FAILURE = {("PyPI's JSON API", "a 404")}


@pytest.fixture(scope="module")
def green(tmp_path_factory):
    """The all-green world served once for the module; a config with short ceilings, go steps signed."""
    root = tmp_path_factory.mktemp("green")
    world = prepare_world(SEED, trunk_commits=TRUNK_COMMITS, directory=root / "w", all_green=True)
    with SandboxServers(world) as servers:
        path = write_config(world, root, github_url=servers.github_url, index_url=servers.index_url)
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        doc["github"].update(timeout=PATIENT_TIMEOUT, retries=RETRIES, max_rate_limit_wait=MAX_WAIT)
        patient = path.with_name("patient.toml")
        patient.write_text(tomli_w.dumps(doc), encoding="utf-8")
        doc["github"].update(timeout=TIMEOUT)
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
        sign_go_steps(load_config(path))
        seed_dispatches(load_config(path), world)  # the release workflows it started, as the demo writes them
        servers.config_path = path
        servers.patient_config_path = patient  # the same release and state file, a patient client
        yield servers


@pytest.fixture
def check(green, capsys):
    """Run `cockpit check` on the green world; (exit status, stdout lines); faults cleared after.
    ``patient``: with a long timeout, for a check that must say GO."""

    def run(*, patient: bool = False) -> tuple[int, list[str]]:
        path = green.patient_config_path if patient else green.config_path
        status = main(["--config", str(path), "check"])
        out = capsys.readouterr()
        assert "Traceback" not in out.err
        return status, out.out.splitlines()

    yield run
    green.github.faults.clear()
    green.index.faults.clear()


def assert_no_go_naming(status: int, lines: list[str], gates: tuple[str, ...], reason: str, what: str) -> None:
    assert status == 1 and lines and not lines[0].startswith(GO), (what, lines)
    assert lines[0].startswith("NO-GO"), (what, lines)
    for title in gates:
        said = [line for line in lines if f": {title}: " in line and not line.startswith("green")]
        assert said, (what, f"nothing says why {title} is not green", lines)
        assert any(reason in line for line in said), (what, reason, said)


def test_the_all_green_world_is_go_and_check_exits_0(check):
    status, lines = check(patient=True)
    assert status == 0
    assert lines == ["GO: release 2.5.0: every blocking gate is green and every required step is signed"]


def test_the_all_green_world_is_green_by_its_data_not_by_its_sign_offs(green, tmp_path, capsys):
    """Without the sign-offs only the unsigned steps stand between it and GO: every gate is green."""
    doc = tomllib.loads(green.patient_config_path.read_text(encoding="utf-8"))
    doc["state"]["path"] = str(tmp_path / "nobody-signed.toml")
    unsigned = tmp_path / "cockpit.toml"
    unsigned.write_text(tomli_w.dumps(doc), encoding="utf-8")
    assert main(["--config", str(unsigned), "check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "NO-GO: release 2.5.0"
    # a fresh state file has no dispatch journal either: the workflow runs succeeded, but with inputs the cockpit
    # cannot know, so those steps wait for a person's signature after checking, like the unsigned ones
    signature = ("unsigned: ", "not done: ")
    blocking = [
        line
        for line in lines[1:]
        if not line.startswith(signature[0])
        and ": Checklist: " not in line
        and not (line.startswith(signature[1]) and "succeeded, inputs unknown" in line)
    ]
    assert blocking == [] and any(line.startswith("unsigned: ") for line in lines)


# A PR read one by one that fails was skipped as if deleted, and the request stayed clean: GO.
# Issue 12 item 9 (a failed PR read makes its request could_not_read, the gate UNKNOWN) is fixed on
# the i-refs branch; until it is merged these cases must fail, and once it is they must pass.
PR_READS_UNKNOWN = hasattr(PickFlag, "COULD_NOT_READ")
_PR_READ_DEFECT = pytest.mark.xfail(
    not PR_READS_UNKNOWN, strict=True, reason="a failed PR read is skipped silently (issue 12 item 9, fixed on i-refs)"
)


def _github_case(family: str, fault: str):
    marks = (_PR_READ_DEFECT,) if family == "one PR at a time" else ()
    return pytest.param(family, fault, marks=marks, id=f"{family}-{fault}")


# Every fault kind is drilled on every request at once; each endpoint family then takes the faults that
# reach it by different roads: an error status (the client's retries), a body that is not what was asked
# (the parsers) and a 404 (an answer that means something for some families). How the client meets a
# rate limit or a timeout does not depend on the path it was sent to, and each `check` costs most of a
# second of CPU, so the whole product of families and faults (some 80 checks) is not run. Timeouts cost
# about a second each as well: on every request at once only.
BY_FAMILY = {"a burst of 503s", "a malformed JSON body", "a malformed body", "a 404"}
GITHUB_CASES = [
    _github_case(family, fault)
    for family in GITHUB_FAMILIES
    for fault in GITHUB_FAULTS
    if family == "every request" or fault in BY_FAMILY
]
INDEX_CASES = [
    (family, fault)
    for family in INDEX_FAMILIES
    for fault in INDEX_FAULTS
    if (family, fault) not in NOT_A_READ_FAILURE and (family == "every request" or fault in BY_FAMILY)
]


@pytest.mark.parametrize(("family", "fault"), GITHUB_CASES)
def test_no_github_fault_turns_the_release_go(green, check, family, fault):
    path, gates = GITHUB_FAMILIES[family]
    arm, reason = GITHUB_FAULTS[fault]
    arm(green.github.faults, path)
    status, lines = check()
    assert_no_go_naming(status, lines, gates, reason, f"{fault} on {family}")


@pytest.mark.parametrize(("family", "fault"), INDEX_CASES)
def test_no_wheel_index_fault_turns_the_release_go(green, check, family, fault):
    INDEX_FAULTS[fault](green.index.faults, INDEX_FAMILIES[family])
    status, lines = check()
    reason = "unknown size" if family == "the wheels' HEAD sizes" and fault != "a malformed body" else ""
    if family == "the wheels' HEAD sizes" and fault == "a malformed body":
        reason = "truncated"  # a 200 with a 22-byte body: the size of an error page, not of a wheel
    if family == "the wheels' metadata files":  # PEP 658 says what a wheel is; unread, it is not known good
        # read and wrong is a finding; not read (no answer, 5xx, 404) is unknown, never green either
        reason = "with bad metadata" if fault == "a malformed body" else "with unread metadata"
    if fault == "a 404" and family in ("the RC project pages", "one variant's project page"):
        reason = "answered 404"  # nothing staged there: those wheels are missing, the other pages still judged
    assert_no_go_naming(status, lines, (RC,), reason or "could not load", f"{fault} on {family}")


@pytest.mark.parametrize("what", list(ABSORBED))
def test_faults_the_client_rides_out_leave_the_release_go(green, check, what):
    ABSORBED[what](green.github.faults)
    status, lines = check(patient=True)
    assert status == 0 and lines[0].startswith(GO), (what, lines)


def test_cockpit_sandbox_all_green_serves_a_release_check_calls_go(tmp_path):
    env = {**os.environ, "COCKPIT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cockpit", "sandbox", "--all-green", "--dir", str(tmp_path / "world")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        config = Path(proc.stdout.readline().strip())
        assert config.name == "cockpit.toml" and config.exists()
        done = subprocess.run(
            [sys.executable, "-m", "cockpit", "--config", str(config), "check"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, (done.stdout, done.stderr)
        assert done.stdout.startswith("GO: release 2.5.0")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.returncode == 0
    err = proc.stderr.read()
    assert "all-green" in err and "Traceback" not in err
