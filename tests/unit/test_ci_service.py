"""The CI pane's story: is the release branch green by PyTorch's own rules?"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

import pytest

from cockpit.domain.ci import CheckRun, CITarget
from cockpit.domain.gates import GateStatus
from cockpit.services.ci import (
    BAD,
    GOOD,
    branch_verdict,
    ci_gate,
    ci_report,
    ci_verdict,
    fold_shard,
    is_unstable,
    last_green,
    rc_target,
)

TARGET = CITarget(repository="acme/torchlet", branch="release/2.5", required_workflows=("pull", "trunk", "lint"))
_ids = count(1)
T0 = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def job(name, workflow="trunk", conclusion="success", status="completed", sha="a" * 40, minutes=10):
    done = status == "completed"
    return CheckRun(
        id=next(_ids),
        name=name,
        status=status,
        conclusion=conclusion if done else None,
        workflow=workflow,
        html_url=f"https://github.com/acme/torchlet/actions/runs/1/job/{name}",
        run_id=1,
        head_sha=sha,
        started_at=T0,
        completed_at=T0 + timedelta(minutes=minutes) if done else None,
    )


def green_runs(sha="a" * 40):
    return [
        job("lintrunner", "lint", sha=sha),
        job("linux-jammy / build", "pull", sha=sha),
        job("linux-jammy / test (default, 1, 2, linux.2xlarge)", "trunk", sha=sha),
        job("linux-jammy / test (default, 2, 2, linux.2xlarge)", "trunk", sha=sha),
    ]


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("test (default, 1, 5, linux.2xlarge)", "test (default)"),
        (
            "linux-jammy-py3.9-gcc11 / test (distributed, 2, 3, linux.8xlarge.nvidia.gpu)",
            "linux-jammy-py3.9-gcc11 / test (distributed)",
        ),
        (
            "win-vs2022-cpu-py3 / test (default, 3, 3, windows.4xlarge.nonephemeral)",
            "win-vs2022-cpu-py3 / test (default)",
        ),
        ("test (default, 1, 2)", "test (default)"),
        ("linux-jammy / build", "linux-jammy / build"),
        ("test (default)", "test (default)"),
        ("lint / quick-checks (ubuntu-latest)", "lint / quick-checks (ubuntu-latest)"),
    ],
)
def test_shard_suffixes_fold_to_the_config(name, folded):
    assert fold_shard(name) == folded


def test_unstable_jobs_are_recognised_by_name_or_by_config():
    assert is_unstable("linux-focal-rocm / test (default, 1, 2, linux.rocm.gpu) (unstable)")
    assert is_unstable("UNSTABLE / mac-test")
    assert not is_unstable("linux-jammy / test (default)")
    assert is_unstable("linux-jammy / test (slow, 1, 2, linux.2xlarge)", ["linux-jammy / test (slow)"])
    assert is_unstable("Mac / Test", ["mac / test"])


def test_all_required_workflows_green_is_green():
    v = ci_verdict(TARGET, green_runs(), ref="release/2.5")
    assert v.status is GateStatus.GREEN
    assert v.job_count == 3  # two shards counted once
    assert v.head_sha == "a" * 40
    assert "all 3 jobs of lint, pull, trunk passed" in v.reason


@pytest.mark.parametrize("conclusion", sorted(GOOD))
def test_good_conclusions_keep_a_commit_green(conclusion):
    v = ci_verdict(TARGET, [*green_runs(), job("docs", "pull", conclusion=conclusion)], ref="r")
    assert v.status is GateStatus.GREEN


@pytest.mark.parametrize("conclusion", sorted(BAD))
def test_bad_conclusions_in_a_required_workflow_turn_it_red(conclusion):
    assert {"failure", "cancelled", "timed_out", "action_required", "stale", "startup_failure"} <= BAD
    v = ci_verdict(
        TARGET, [*green_runs(), job("linux-jammy / test (crossref)", "pull", conclusion=conclusion)], ref="r"
    )
    assert v.status is GateStatus.RED
    assert [j.name for j in v.failed] == ["linux-jammy / test (crossref)"]
    assert v.failed[0].conclusion == conclusion


@pytest.mark.parametrize("status", ["queued", "in_progress", "waiting", "requested", "pending"])
def test_running_jobs_make_it_amber(status):
    v = ci_verdict(TARGET, [*green_runs(), job("win / build", "trunk", status=status)], ref="r")
    assert v.status is GateStatus.AMBER
    assert [j.name for j in v.pending] == ["win / build"]
    assert "1 job pending: trunk / win / build" in v.reason


def test_a_completed_job_without_conclusion_is_pending_not_green():
    v = ci_verdict(TARGET, [*green_runs(), job("odd", "trunk", conclusion=None)], ref="r")
    assert v.status is GateStatus.AMBER


def test_failures_are_named_per_workflow():
    runs = [
        *green_runs(),
        job("linux-jammy / test (default, 1, 2, linux.2xlarge)", conclusion="failure"),
        job("win / test (default, 1, 1, windows)", conclusion="timed_out"),
    ]
    v = ci_verdict(TARGET, runs, ref="release/2.5")
    assert v.status is GateStatus.RED
    assert v.reason.startswith("trunk: 2 jobs failed: linux-jammy / test (default), win / test (default)")


def test_one_failed_shard_fails_the_folded_job_once():
    runs = [
        job("lintrunner", "lint"),
        job("b", "pull"),
        job("t / test (default, 1, 3, x)", conclusion="failure"),
        job("t / test (default, 2, 3, x)", conclusion="failure"),
        job("t / test (default, 3, 3, x)", status="in_progress"),
    ]
    v = ci_verdict(TARGET, runs, ref="r")
    assert [j.name for j in v.failed] == ["t / test (default)"]
    assert v.pending == ()
    assert v.job_count == 3


def test_one_pending_shard_keeps_the_folded_job_pending():
    runs = [
        job("lintrunner", "lint"),
        job("b", "pull"),
        job("t / test (default, 1, 2, x)"),
        job("t / test (default, 2, 2, x)", status="queued"),
    ]
    v = ci_verdict(TARGET, runs, ref="r")
    assert v.status is GateStatus.AMBER
    assert [(j.name, j.status) for j in v.pending] == [("t / test (default)", "queued")]


def test_a_missing_required_workflow_is_amber_and_named():
    runs = [j for j in green_runs() if j.workflow != "lint"]
    v = ci_verdict(TARGET, runs, ref="r")
    assert v.status is GateStatus.AMBER
    assert v.missing_workflows == ("lint",)
    assert v.reason == "lint not started"


def test_no_runs_at_all_means_nothing_started():
    v = ci_verdict(TARGET, [], ref="r")
    assert v.status is GateStatus.AMBER
    assert v.missing_workflows == ("pull", "trunk", "lint")


def test_required_workflows_match_the_whole_name_by_regex():
    target = CITarget("acme/torchlet", "release/2.5", required_workflows=("pull", "linux-binary-.*"))
    runs = [job("b", "pull"), job("x", "linux-binary-manywheel"), job("y", "pull-extra", conclusion="failure")]
    v = ci_verdict(target, runs, ref="r")
    assert v.status is GateStatus.GREEN  # "pull-extra" is not "pull"
    assert [j.name for j in v.advisory_failed] == ["y"]


def test_an_unstable_failure_does_not_turn_it_red():
    runs = [
        *green_runs(),
        job("linux-rocm / test (default, 1, 2, rocm) (unstable)", conclusion="failure"),
        job("mac / test", "unstable", conclusion="failure"),
    ]
    v = ci_verdict(TARGET, runs, ref="r")
    assert v.status is GateStatus.GREEN
    assert {j.name for j in v.unstable} == {"linux-rocm / test (default) (unstable)", "mac / test"}
    assert "2 jobs unstable failing (ignored)" in v.reason


def test_configured_unstable_jobs_are_set_aside():
    target = CITarget("acme/torchlet", "release/2.5", unstable_jobs=("trunk / linux-jammy / test (slow)",))
    runs = [*green_runs(), job("linux-jammy / test (slow, 1, 1, linux.2xlarge)", conclusion="failure")]
    assert ci_verdict(target, runs, ref="r").status is GateStatus.GREEN


def test_failures_outside_required_workflows_are_listed_but_do_not_count():
    v = ci_verdict(TARGET, [*green_runs(), job("nightly thing", "periodic", conclusion="failure")], ref="r")
    assert v.status is GateStatus.GREEN
    assert [j.name for j in v.advisory_failed] == ["nightly thing"]
    assert v.failed == ()


def test_a_bad_regex_in_the_config_is_taken_literally():
    target = CITarget("acme/torchlet", "release/2.5", required_workflows=("pull(",))
    assert ci_verdict(target, [job("b", "pull(")], ref="r").status is GateStatus.GREEN


def test_without_required_workflows_every_workflow_counts():
    target = CITarget("acme/vision", "release/0.20", required_workflows=())
    assert ci_verdict(target, [job("b", "tests", conclusion="failure")], ref="r").status is GateStatus.RED


def test_the_folded_job_keeps_the_longest_shard_duration():
    runs = [
        job("t / test (default, 1, 2, x)", conclusion="failure", minutes=10),
        job("t / test (default, 2, 2, x)", minutes=25),
    ]
    v = ci_verdict(CITarget("o/r", "b", required_workflows=("trunk",)), runs, ref="r")
    assert v.job_count == 1
    assert v.failed[0].duration_s == 25 * 60
    assert v.failed[0].html_url.endswith("t / test (default, 1, 2, x)")  # links to the failing shard


def test_last_green_walks_back_to_the_newest_green_commit():
    red = [*green_runs("c" * 40), job("x", conclusion="failure", sha="c" * 40)]
    pending = [*green_runs("b" * 40), job("x", status="in_progress", sha="b" * 40)]
    history = [("c" * 40, red), ("b" * 40, pending), ("a" * 40, green_runs()), ("9" * 40, green_runs("9" * 40))]
    assert last_green(TARGET, history) == ("a" * 40, 2)
    assert last_green(TARGET, history[:2]) == (None, None)


def test_branch_verdict_reports_how_far_behind_the_last_green_is():
    head = [*green_runs("d" * 40), job("x", conclusion="failure", sha="d" * 40)]
    v = branch_verdict(TARGET, "release/2.5", head, [("c" * 40, head), ("a" * 40, green_runs())])
    assert v.status is GateStatus.RED
    assert (v.last_green_sha, v.commits_behind_green) == ("a" * 40, 2)
    green = branch_verdict(TARGET, "release/2.5", green_runs())
    assert (green.last_green_sha, green.commits_behind_green) == ("a" * 40, 0)


def test_rc_tags_are_judged_on_the_binary_workflow():
    target = CITarget("acme/torchlet", "release/2.5", binary_workflows=("binary-builds",))
    assert rc_target(target).required_workflows == ("binary-builds",)
    assert rc_target(TARGET) is TARGET


def test_gate_is_the_worst_and_names_the_repositories_at_fault():
    torchlet = ci_verdict(TARGET, [*green_runs(), job("x", conclusion="failure")], ref="release/2.5")
    vision = ci_verdict(CITarget("acme/vision", "release/0.20"), [], ref="release/0.20")
    gate = ci_gate([torchlet, vision], [])
    assert gate.name == "ci_green"
    assert gate.status is GateStatus.RED
    assert gate.summary == "acme/torchlet @ release/2.5"  # the status is said beside it, not in it
    assert any(d.startswith("acme/vision @ release/0.20: amber") for d in gate.details)


def test_gate_is_green_only_when_all_are_and_unknown_without_any():
    ok = ci_verdict(TARGET, green_runs(), ref="release/2.5")
    assert ci_gate([ok], [ok]).status is GateStatus.GREEN
    assert ci_gate([], []).status is GateStatus.UNKNOWN


def test_report_takes_raw_runs_from_the_loader():
    binary = CITarget("acme/torchlet", "release/2.5", binary_workflows=("binary-builds",))
    report = ci_report(
        [(binary, "release/2.5", green_runs(), [])],
        [(binary, "v2.5.0-rc2", [job("manywheel-py3_12", "binary-builds", status="in_progress")])],
        requests=7,
    )
    assert report.branches[0].status is GateStatus.GREEN
    assert report.rc_builds[0].ref == "v2.5.0-rc2"
    assert report.rc_builds[0].status is GateStatus.AMBER
    assert report.gate.status is GateStatus.AMBER
    assert report.requests == 7


def test_malformed_runs_do_not_crash_the_verdict():
    naive = CheckRun(1, "", "completed", "weird", workflow="", started_at=datetime(2026, 1, 1), completed_at=T0)
    v = ci_verdict(TARGET, [naive], ref="r")
    assert v.status is GateStatus.AMBER


def test_an_unstable_shard_marker_survives_folding_and_is_set_aside():
    from cockpit.domain.ci import CheckRun, CITarget
    from cockpit.domain.gates import GateStatus
    from cockpit.services.ci import ci_verdict, fold_shard

    name = "linux-focal-rocm / test (default, 1, 2, linux.rocm.gpu.2, unstable)"
    assert fold_shard(name) == "linux-focal-rocm / test (default, unstable)"
    runs = [
        CheckRun(1, name, "completed", "failure", workflow="trunk"),
        CheckRun(2, "linux-jammy / test (default, 1, 1, linux.2xlarge)", "completed", "success", workflow="trunk"),
    ]
    verdict = ci_verdict(CITarget("acme/torchlet", "release/2.5", ("trunk",)), runs, ref="release/2.5")
    assert verdict.status is GateStatus.GREEN
    assert [j.name for j in verdict.unstable] == ["linux-focal-rocm / test (default, unstable)"]


def test_a_green_head_never_walks_back_through_the_history():
    def history():
        raise AssertionError("the history of a green head was read")
        yield  # pragma: no cover

    v = branch_verdict(TARGET, "release/2.5", green_runs(), history())
    assert (v.status, v.commits_behind_green) == (GateStatus.GREEN, 0)


def test_the_walk_back_stops_at_the_first_green_commit():
    read = []

    def history():
        for sha, runs in [
            ("c" * 40, [job("x", conclusion="failure", sha="c" * 40)]),
            ("b" * 40, green_runs("b" * 40)),
            ("a" * 40, green_runs()),
        ]:
            read.append(sha)
            yield sha, runs

    v = branch_verdict(TARGET, "release/2.5", [job("x", conclusion="failure", sha="d" * 40)], history())
    assert (v.last_green_sha, v.commits_behind_green) == ("b" * 40, 2)
    assert read == ["c" * 40, "b" * 40]


def test_the_report_carries_what_the_load_cost_and_what_could_not_be_judged():
    report = ci_report(
        [(TARGET, "release/2.5", green_runs(), [])],
        requests=20,
        not_modified=20,
        notes=["acme/vision: binary builds not judged"],
    )
    assert (report.requests, report.not_modified, report.notes) == (20, 20, ("acme/vision: binary builds not judged",))


class _GitHub:
    """Check runs per ref, and a record of what was asked (the loader's only view of GitHub)."""

    def __init__(self, runs_by_ref):
        self.runs_by_ref, self.asked = runs_by_ref, []

    def thread_request_counts(self):
        return len(self.asked), 0

    def check_runs(self, repo, ref):
        self.asked.append(("check_runs", repo, ref))
        return self.runs_by_ref.get(ref, [])

    def branch_commits(self, repo, branch, limit):
        self.asked.append(("branch_commits", repo, branch))
        return ["d" * 40, "c" * 40, "a" * 40][:limit]

    def workflow_runs(self, repo, *, branch=None, head_sha=None, event=None, limit=300):
        self.asked.append(("workflow_runs", repo, branch))
        return []


def _backend(targets, runs_by_ref, tags=()):
    from types import SimpleNamespace

    from cockpit.domain.release import Release

    config = SimpleNamespace(
        ci=tuple(targets), release=Release("2.5.0", "acme/torchlet", "release/2.5"), rc_tag_pattern="v{version}-rc{n}"
    )
    git = SimpleNamespace(tags=lambda: dict.fromkeys(tags, "a" * 40), log=lambda rev_range, **_: [])
    return SimpleNamespace(config=config, repository="acme/torchlet", github=_GitHub(runs_by_ref), git=git)


def test_every_configured_ci_field_is_honoured_by_the_loader():
    from cockpit.loaders.ci import load_ci

    core = CITarget(
        "acme/torchlet",
        "release/2.5",
        ("pull", "trunk", "lint"),
        ("binary-builds",),
        unstable_jobs=("trunk / linux-jammy / test (slow)",),
    )
    vision = CITarget("acme/vision", "release/0.20", ("pull",), ("wheels",))
    head = [
        *green_runs("d" * 40),
        job("linux-jammy / test (slow, 1, 1, linux.2xlarge)", conclusion="failure", sha="d" * 40),
    ]
    rc = [job("manywheel-py3_12-cpu / build", "binary-builds", sha="a" * 40)]
    backend = _backend(
        [core, vision],
        {"release/2.5": head, "release/0.20": [job("b", "pull")], "v2.5.0-rc2": rc},
        tags=("v2.5.0-rc1", "v2.5.0-rc2"),
    )
    report = load_ci(backend)
    torchlet, vis = report.branches
    assert torchlet.status is GateStatus.GREEN and len(torchlet.unstable) == 1  # unstable_jobs set it aside
    assert (vis.repository, vis.ref, vis.status) == (
        "acme/vision",
        "release/0.20",
        GateStatus.GREEN,
    )  # branch, required
    assert [(v.ref, v.status) for v in report.rc_builds] == [("v2.5.0-rc2", GateStatus.GREEN)]  # newest RC, binaries
    assert report.notes == (
        "acme/vision: binary builds (wheels) not judged: RC tags are read from the acme/torchlet clone only",
    )
    assert report.requests == 5 and not any(a[0] == "branch_commits" for a in backend.github.asked)
    assert [(h.repository, h.branch, h.required) for h in report.history] == [
        ("acme/torchlet", "release/2.5", ("pull", "trunk", "lint")),
        ("acme/vision", "release/0.20", ("pull",)),
    ]


def test_without_an_rc_tag_the_binary_builds_are_named_as_not_judged():
    from cockpit.loaders.ci import load_ci

    core = CITarget("acme/torchlet", "release/2.5", binary_workflows=("binary-builds",))
    report = load_ci(
        _backend(
            [core], {"release/2.5": [job("x", conclusion="failure", sha="d" * 40)], "c" * 40: green_runs("c" * 40)}
        )
    )
    assert report.rc_builds == ()
    assert report.notes == ("acme/torchlet: no RC tag v2.5.0-rcN in the clone yet: binary builds not judged",)
    assert (report.branches[0].last_green_sha, report.branches[0].commits_behind_green) == ("c" * 40, 1)
