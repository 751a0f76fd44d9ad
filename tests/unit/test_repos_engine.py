"""The libraries of a release load side by side, two at a time, each tagged its own way."""

from __future__ import annotations

import threading
import time

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.repos import for_repo, repo_gate_name, split_gate_name
from cockpit.loaders import repos
from cockpit.services.rc_pattern import rc_tags_matching


def test_libraries_load_at_most_two_at_a_time_and_keep_the_config_order(monkeypatch):
    running, most = [0], [0]
    lock = threading.Lock()

    def load(ports, ci=None):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return ports

    monkeypatch.setattr(repos, "load_repo", load)
    libraries = ["vision", "audio", "text", "rl"]
    assert repos.load_repos(libraries) == tuple(libraries)  # type: ignore[arg-type]
    assert most[0] == repos.PARALLEL == 2


def test_a_single_repository_release_loads_no_library():
    assert repos.load_repos(()) == ()


def test_a_librarys_gate_carries_its_name_in_the_id_and_the_title():
    gate = for_repo(Gate("branch_diff_clean", "Branch diff clean", GateStatus.RED, "1 missing"), "vision")
    assert gate.name == "branch_diff_clean[vision]" == repo_gate_name("branch_diff_clean", "vision")
    assert gate.title == "Branch diff clean [vision]" and gate.summary == "1 missing"
    assert split_gate_name(gate.name) == ("branch_diff_clean", "vision")
    assert split_gate_name("ci_green") == ("ci_green", "")


def test_rc_tags_follow_the_repositorys_own_pattern_oldest_first():
    tags = ["0.20.0-RC10", "0.20.0-RC2", "v0.20.0-rc1", "0.20.0-RC1", "0.20.0-RCx", "0.2.0-RC1"]
    assert rc_tags_matching(tags, "0.20.0", "{version}-RC{n}") == ["0.20.0-RC1", "0.20.0-RC2", "0.20.0-RC10"]
    assert rc_tags_matching(tags, "0.20.0", "v{version}-rc{n}") == ["v0.20.0-rc1"]


def test_a_library_gate_not_evaluated_yet_holds_the_verdict_under_its_own_title():
    from cockpit.domain.reports import ChecklistReport
    from cockpit.services.overview import BLOCKING, go_no_go

    checklist = ChecklistReport(steps=(), gate=Gate("checklist", "Checklist", GateStatus.GREEN, ""))
    green = {name: Gate(name, name, GateStatus.GREEN, "") for name in BLOCKING}
    verdict = go_no_go(green, checklist, (*BLOCKING, "versions_coherent[audio]", "ci_green[vision]"))
    assert not verdict.go
    assert verdict.reasons == (
        "Versions coherent [audio] is unknown: not evaluated yet",
        "CI green [vision] is unknown: not evaluated yet",
    )
