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
    assert any(line.startswith("unsigned: ") for line in out)


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
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        config = Path(proc.stdout.readline().strip())
        assert config.name == "cockpit.toml" and config.exists()
        done = subprocess.run([sys.executable, "-m", "cockpit", "--config", str(config), "check"],
                              capture_output=True, text=True, env=env, timeout=120)
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
