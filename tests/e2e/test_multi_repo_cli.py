"""The headless commands over a release of several repositories: all of them, or one with --repo NAME."""

from __future__ import annotations

import json

import pytest

from cockpit.cli.main import main


def run(capsys, sandbox, *args):
    status = main(["--config", str(sandbox.config_path), *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_check_judges_the_whole_release_with_each_librarys_gates(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "check")
    assert status == 1 and out.startswith("NO-GO: release 2.5.0")
    assert "red: Versions coherent [audio]: requirements.txt pins torchlet 2.4.0, the core is 2.5.0" in out
    assert "red: Branch diff clean [vision]: 1 missing" in out


def test_check_of_one_library_is_that_librarys_release(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "check", "--repo", "vision")
    lines = out.splitlines()
    assert status == 1 and lines[0] == "NO-GO: release 0.20.0"
    assert "red: Branch diff clean: 1 missing" in lines and "red: CI green: acme/vision @ release/0.20" in lines
    assert not any("[" in line.split(":")[1] for line in lines if line.startswith("red:"))


@pytest.mark.parametrize("command", [["check"], ["report"], ["missing-in-branch"], ["picks"]])
def test_an_unknown_repository_name_is_one_line_listing_the_configured_ones(multi_sandbox, capsys, command):
    status, out, err = run(capsys, multi_sandbox, *command, "--repo", "text")
    assert status == 2 and out == ""
    assert err.strip() == (
        "cockpit: Config: no repository named 'text' in the release: the configured ones are torchlet, vision, audio"
    )


def test_the_json_report_carries_each_library_with_its_gates(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "report", "--format", "json")
    data = json.loads(out)
    assert status == 0 and [r["name"] for r in data["repos"]] == ["vision", "audio"]
    audio = {g["name"]: g["status"] for g in data["repos"][1]["gates"]}
    assert audio["versions_coherent[audio]"] == "red" and data["gates"]["ci_green[audio]"]["status"] == "amber"


def test_the_report_of_the_core_alone_has_no_library_in_it(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "report", "--format", "json", "--repo", "torchlet")
    data = json.loads(out)
    assert status == 0 and "repos" not in data and not any("[" in name for name in data["gates"])


def test_missing_in_branch_prints_every_repository_under_its_name(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "missing-in-branch")
    assert status == 1
    headers = [line for line in out.splitlines() if line.startswith("== ")]
    assert headers == [
        "== torchlet (acme/torchlet, release/2.5)",
        "== vision (acme/vision, release/0.20)",
        "== audio (acme/audio, release/2.5)",
    ]
    status, out, _ = run(capsys, multi_sandbox, "missing-in-branch", "--format", "json")
    data = json.loads(out)
    assert list(data) == ["torchlet", "vision", "audio"]
    missing = [i["number"] for i in data["vision"]["items"] if i["verdict"] == "missing"]
    assert missing == multi_sandbox.world.truth["libraries"]["vision"]["missing"]


def test_missing_in_branch_of_one_library_is_clean_when_everything_was_picked(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "missing-in-branch", "--repo", "audio", "--format", "json")
    assert status == 0 and not [i for i in json.loads(out)["items"] if i["verdict"] == "missing"]
    status, _, _ = run(capsys, multi_sandbox, "missing-in-branch", "--repo", "acme/vision")
    assert status == 1, "a configured owner/name selects that repository too"


def test_picks_reads_each_repositorys_own_tracker(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "picks")
    data = json.loads(out)
    truth = multi_sandbox.world.truth["libraries"]
    assert status == 0 and list(data) == ["torchlet", "vision", "audio"]
    for name in ("vision", "audio"):
        assert [(r["trunk_prs"], r["release_prs"]) for r in data[name]] == [
            ([truth[name]["trunk_pr"]], [truth[name]["release_pr"]])
        ]
    status, out, _ = run(capsys, multi_sandbox, "picks", "--repo", "vision")
    assert json.loads(out) == data["vision"]


def test_cockpit_sandbox_multi_serves_the_core_and_its_libraries(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "COCKPIT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cockpit", "sandbox", "--multi", "--dir", str(tmp_path / "world")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        config = Path(proc.stdout.readline().strip())
        assert "[[repo]]" in config.read_text()
        done = subprocess.run(
            [sys.executable, "-m", "cockpit", "--config", str(config), "check", "--repo", "audio"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 1 and done.stdout.startswith("NO-GO: release 2.5.0"), done.stderr
        assert "red: RC artifacts valid: 1 problem: 1 yanked" in done.stdout
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.returncode == 0


@pytest.mark.parametrize("other", ["--patch", "--all-green"])
def test_the_multi_repository_demo_is_its_own_release(other, capsys):
    assert main(["demo", "--multi", other]) == 2
    assert "--multi is the 2.5.0 release with its domain libraries" in capsys.readouterr().err


def test_the_markdown_report_has_a_section_per_library_naming_what_it_misses(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "report")
    missing = multi_sandbox.world.truth["libraries"]["vision"]["missing"][0]
    assert status == 0 and "### vision: acme/vision 0.20.0, `release/0.20`" in out
    vision = out.split("### vision:")[1].split("###")[0]
    assert f"- #{missing} " in vision and "**missing**" in vision
    audio = out.split("### audio:")[1].split("###")[0]
    assert "Versions coherent \\[audio\\]: ❌ red: requirements.txt pins torchlet 2.4.0, the core is 2.5.0" in audio


def test_locate_prints_each_librarys_clone(multi_sandbox, capsys):
    status, out, _ = run(capsys, multi_sandbox, "locate")
    clones = {lib["name"]: lib["clone_path"] for lib in multi_sandbox.world.libraries}
    assert status == 0
    assert f"clone vision:   {clones['vision']}" in out and f"clone audio:    {clones['audio']}" in out


def test_check_and_report_name_the_versions_file_variable_that_disagrees_with_both_values(multi_sandbox, capsys):
    """release/release_versions.sh in the workflows' repository left vision at its previous release: check says
    which variable, what the file says and what the release needs; the JSON report carries the gate."""
    import json

    status, out, _ = run(capsys, multi_sandbox, "check")
    line = next(line for line in out.splitlines() if "versions file" in line)
    assert status == 1 and line.startswith("not done: ") and "(red: " in line
    assert "TORCHLET_VISION_VERSION=0.19.0" in line and "0.20.0" in line  # the sandbox's torchlet_vision
    _, report, _ = run(capsys, multi_sandbox, "report", "--format", "json")
    steps = json.loads(report)["checklist"]["steps"]
    gate = next(s["gate"] for s in steps if s["step"]["id"] == "release_versions")
    assert gate["status"] == "red" and "TORCHLET_VISION_VERSION=0.19.0" in gate["summary"]
