"""The headless commands a release manager or CI runs, against the sandbox."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from cockpit.cli.main import main


def test_without_a_config_the_cockpit_says_what_is_missing_and_suggests_the_demo(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "no cockpit.toml" in err and "cockpit demo" in err
    assert "Traceback" not in err


def test_a_bad_config_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "cockpit.toml"
    path.write_text('[release]\nversion = "two"\n', encoding="utf-8")
    assert main(["--config", str(path), "check"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "release.version" in err


def test_check_is_no_go_with_each_failing_gate_on_its_own_line(sandbox, capsys):
    assert main(["--config", str(sandbox.config_path), "check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("NO-GO")
    assert any(line.startswith("red: Milestone empty") for line in out)
    assert any(line.startswith("red: Branch diff clean") for line in out)
    assert "unsigned: Performance run shows no regression" in out  # the step by its title, not its id


def test_report_json_and_markdown_carry_the_gates(sandbox, capsys):
    assert main(["--config", str(sandbox.config_path), "report", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"]["go"] is False
    assert data["gates"]["ci_green"]["status"] == "red"
    assert main(["--config", str(sandbox.config_path), "report"]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("## Release 2.5.0") and "NO-GO" in markdown
    assert "### Branch diff" in markdown


def test_cockpit_sandbox_prints_its_config_and_logs_the_requests_made_against_it(tmp_path):
    env = {**os.environ, "COCKPIT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cockpit", "sandbox", "--dir", str(tmp_path / "world")],
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
        assert done.returncode == 1, done.stderr
        api_url = next(line.split('"')[1] for line in config.read_text().splitlines() if line.startswith("api_url"))
        with urllib.request.urlopen(f"{api_url}/_sandbox/log") as response:
            log = json.load(response)
        paths = [entry["path"] for entry in log]
        assert any("/milestones" in p for p in paths) and any("/check-runs" in p for p in paths)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr.read()


def test_locate_says_who_holds_the_state_lock_and_take_over_takes_one_left_on_another_machine(
    sandbox, capsys, monkeypatch
):
    import socket

    from cockpit.bootstrap import build_backend
    from cockpit.state.lock import lock_path_for
    from cockpit.state.store import StateStore

    state = sandbox.config.resolved_state_path
    holder = StateStore(state)
    holder.set_pref("theme", "nord")
    assert main(["--config", str(sandbox.config_path), "locate"]) == 0
    out = capsys.readouterr().out
    assert f"state:          {state}  (readable)" in out
    assert "stylesheets:" not in out  # Textual parses its own stylesheets: the cockpit keeps none
    assert f"held by pid {os.getpid()} on {socket.gethostname()} since" in out and ", running)" in out
    holder.close()

    lock_path_for(state).write_text(json.dumps({"pid": 99, "host": "laptop-of-bob", "started": "2026-10-01T09:00:00Z"}))
    assert build_backend(sandbox.config).read_only, "a lock from another machine is respected"
    assert main(["--config", str(sandbox.config_path), "locate"]) == 0
    assert "laptop-of-bob since 2026-10-01T09:00:00Z, another machine" in capsys.readouterr().out
    started = []  # what the app would have started with: the screen itself is not needed here
    monkeypatch.setattr(
        "cockpit.ui.app.CockpitApp.run",
        lambda app: started.append((app.backend.read_only, json.loads(lock_path_for(state).read_text())["pid"])),
    )
    assert main(["--config", str(sandbox.config_path), "--take-over"]) == 0
    assert started == [(False, os.getpid())]
    assert not lock_path_for(state).exists(), "released when the session ended"


def test_a_reader_that_leaves_early_ends_the_command_quietly_with_status_0(sandbox):
    """``cockpit report | head -1``: the pipe closes before the report is written; no 'internal error'."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cockpit", "--config", str(sandbox.config_path), "report"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
