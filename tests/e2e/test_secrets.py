"""The release manager's token is used, never shown: not on the screen, in a report, an error,
the state file or the debug log, however GitHub fails. And it is found where it was put."""

from __future__ import annotations

import tomllib
from pathlib import Path

import keyring
import pytest
import tomli_w
from keyring.backend import KeyringBackend
from keyring.errors import NoKeyringError, PasswordDeleteError

from cockpit import logging_setup
from cockpit.adapters.credentials import KEYRING_SERVICE, resolve_token, store_token
from cockpit.cli.main import main
from cockpit.config import load_config
from cockpit.errors import CockpitError

from .driving import screen_text, settle

pytestmark = pytest.mark.anyio
TOKEN = "ghp_TESTTOKEN" + "7Qx2Lm9Zr4Kp1Wv8Ny3Hs6Jt0"
API = "https://api.github.com"


class MemoryKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict (the test's own, never the machine's)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.saved: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.saved.get((service, username))

    def set_password(self, service, username, password):
        self.saved[(service, username)] = password

    def delete_password(self, service, username):
        if self.saved.pop((service, username), None) is None:
            raise PasswordDeleteError("not there")


class NoKeyring(KeyringBackend):
    """What a headless server has: no backend at all."""

    priority = 1

    def get_password(self, service, username):
        raise NoKeyringError("No recommended backend was available.")

    def set_password(self, service, username, password):
        raise NoKeyringError("No recommended backend was available.")

    def delete_password(self, service, username):
        raise NoKeyringError("No recommended backend was available.")


@pytest.fixture
def memory_keyring(monkeypatch, tmp_path):
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    monkeypatch.setenv("GH_CONFIG_DIR", str(tmp_path / "no-gh"))
    yield ring
    keyring.set_keyring(previous)


def gh_hosts(tmp_path: Path, token: str) -> Path:
    folder = tmp_path / "gh"
    folder.mkdir(exist_ok=True)
    (folder / "hosts.yml").write_text(
        f"github.com:\n    user: rm\n    oauth_token: {token}\n    git_protocol: https\n"
        "ghe.example.com:\n    oauth_token: ghp_someOtherHostsToken000000000\n",
        encoding="utf-8",
    )
    return folder


def test_the_token_is_looked_up_in_the_documented_order(memory_keyring, monkeypatch, tmp_path):
    monkeypatch.setenv("GH_CONFIG_DIR", str(gh_hosts(tmp_path, "gho_fromTheGhCli")))
    assert resolve_token(API).source == "gh CLI" and resolve_token(API).token == "gho_fromTheGhCli"
    memory_keyring.set_password(KEYRING_SERVICE, "github.com", "from-keyring")
    assert (resolve_token(API).source, resolve_token(API).token) == ("keyring", "from-keyring")
    monkeypatch.setenv("GITHUB_TOKEN", "from-github-token")
    assert resolve_token(API).source == "GITHUB_TOKEN"
    monkeypatch.setenv("GH_TOKEN", "from-gh-token")
    assert (resolve_token(API).source, resolve_token(API).token) == ("GH_TOKEN", "from-gh-token")
    assert "from-gh-token" not in repr(resolve_token(API))


def test_an_enterprise_host_reads_its_own_gh_login(memory_keyring, monkeypatch, tmp_path):
    monkeypatch.setenv("GH_CONFIG_DIR", str(gh_hosts(tmp_path, "gho_dotcom")))
    assert resolve_token("https://ghe.example.com/api/v3").token == "ghp_someOtherHostsToken000000000"
    assert resolve_token("https://other.example.com/api/v3").source == "none"


def test_auth_login_status_logout_through_the_keyring(memory_keyring, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(
        "sys.stdin", type("Piped", (), {"isatty": lambda self: False, "readline": lambda self: TOKEN + "\n"})()
    )
    assert main(["auth", "login"]) == 0
    assert memory_keyring.saved[(KEYRING_SERVICE, "github.com")] == TOKEN
    assert main(["auth", "status"]) == 0
    assert main(["auth", "logout"]) == 0
    assert main(["auth", "status"]) == 0
    out = capsys.readouterr().out
    assert "using a token from keyring" in out and "no token found" in out
    assert TOKEN not in out


def test_without_a_keyring_backend_the_message_says_what_to_do(monkeypatch, tmp_path, capsys):
    previous = keyring.get_keyring()
    keyring.set_keyring(NoKeyring())
    monkeypatch.setenv("GH_CONFIG_DIR", str(tmp_path / "no-gh"))
    monkeypatch.chdir(tmp_path)
    try:
        info = resolve_token(API)
        assert info.source == "none" and "set GH_TOKEN" in info.note
        with pytest.raises(CockpitError, match="export GH_TOKEN=<token>"):
            store_token(API, TOKEN)
        monkeypatch.setattr(
            "sys.stdin", type("Piped", (), {"isatty": lambda self: False, "readline": lambda self: TOKEN})()
        )
        assert main(["auth", "login"]) == 2
        assert main(["auth", "status"]) == 0
    finally:
        keyring.set_keyring(previous)
    out, err = capsys.readouterr()
    assert "export GH_TOKEN" in err and "no keyring backend" in out
    assert TOKEN not in out + err


@pytest.fixture
def guarded(sandbox_world, tmp_path, monkeypatch):
    """Emulators that demand the planted token; a config with auth = "auto" (so GH_TOKEN is used)."""
    from cockpit.sandbox.demo import write_config
    from cockpit.sandbox.github_server import GitHubEmulator
    from cockpit.sandbox.index_server import IndexEmulator

    monkeypatch.setenv("GH_TOKEN", TOKEN)
    with GitHubEmulator(sandbox_world, token=TOKEN) as gh, IndexEmulator(sandbox_world) as index:
        path = write_config(sandbox_world, tmp_path, github_url=gh.base_url, index_url=index.base_url)
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        doc["github"].update(auth="auto", timeout=0.5, retries=1, max_rate_limit_wait=1)
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
        yield gh, path
    logging_setup.stop_debug_log()
    logging_setup.want_debug(False)


def arm_every_fault(gh) -> None:
    """401, 5xx, malformed, rate limits, timeout, not found: one on each kind of list."""
    gh.faults.clear()
    gh.faults.add("status", path=r"/milestones/", status=401, count=None)
    gh.faults.status_burst(502, count=None, path=r"/issues/\d+/comments")
    gh.faults.malformed(path=r"/pulls", count=None)
    gh.faults.rate_limit(reset_in=3600, path=r"/check-runs", count=None)
    gh.faults.secondary_rate_limit(retry_after=600, path=r"/actions/runs", count=None)
    gh.faults.timeout(2, path=r"/commits\?", count=None)


def outputs_of_files(folder: Path) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix in (".toml", ".log", ".lock", ".json", ".md", "")
    )


async def test_the_planted_token_appears_in_no_output_however_github_fails(guarded, capfd, tmp_path):
    from cockpit.bootstrap import build_backend
    from cockpit.ui.app import CockpitApp

    gh, path = guarded
    seen: list[str] = []

    assert main(["--debug", "--config", str(path), "report"]) == 0  # healthy: the token works
    assert any(e["status"] == 200 for e in gh.log()) and not any(e["status"] == 401 for e in gh.log())
    arm_every_fault(gh)
    for argv in (["report"], ["report", "--format", "json"], ["check"], ["auth", "status"], ["locate"]):
        main(["--debug", "--config", str(path), *argv])
    main(["--config", str(path), "report"])
    out, err = capfd.readouterr()
    seen += [out, err]
    assert "Traceback" not in err

    logging_setup.want_debug(True)
    config = load_config(path)
    logging_setup.use_state_dir(config.resolved_state_path)
    backend = build_backend(config)
    backend.state.set_note("tag_final_rc", f"pasted by mistake: {TOKEN}")
    app = CockpitApp(backend)
    app.animation_level = "none"
    notices: list[str] = []
    notify = app.notify
    app.notify = lambda message, *a, **k: (notices.append(str(message)), notify(message, *a, **k))[1]
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        for key in "012345":
            await pilot.press(key)
            await pilot.pause()
            seen.append(screen_text(app))
        seen += [str(app.pane(n).error) for n in ("milestone", "picks", "ci", "branch")]
        assert any(app.pane(n).error for n in ("milestone", "picks", "ci", "branch"))
        app.report_unexpected(RuntimeError(f"a bug holding {TOKEN}"))
        await pilot.pause()
        seen.append(screen_text(app))
    backend.state.close()
    logging_setup.stop_debug_log()
    seen += notices
    seen.append(outputs_of_files(tmp_path))
    out, err = capfd.readouterr()
    seen += [out, err]

    debug_log = (tmp_path / logging_setup.LOG_NAME).read_text(encoding="utf-8")
    assert "GET /repos/" in debug_log and "401" in debug_log and "a bug holding" in debug_log
    assert "[redacted token]" in debug_log
    assert all(TOKEN not in text for text in seen)
    assert all(TOKEN[4:] not in text for text in seen)  # not even without its prefix


def test_without_debug_nothing_is_logged_and_libraries_stay_silent(guarded, capfd, tmp_path):
    gh, path = guarded
    gh.faults.status_burst(503, count=None)
    assert main(["--config", str(path), "check"]) in (0, 1)
    out, err = capfd.readouterr()
    assert not (tmp_path / logging_setup.LOG_NAME).exists()
    assert "urllib3" not in err and "github" not in err.lower().replace("github:", "")
    assert "Traceback" not in out + err


def test_an_internal_error_is_one_line_naming_the_debug_log(guarded, capfd, monkeypatch, tmp_path):
    _gh, path = guarded

    def broken(args):
        raise RuntimeError(f"something broke near {TOKEN}")

    monkeypatch.setattr("cockpit.cli.report.run_check", broken)
    assert main(["--config", str(path), "check"]) == 1
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cockpit: internal error: RuntimeError: something broke near")
    assert "run with --debug and see" in err and TOKEN not in err and "Traceback" not in err

    monkeypatch.setenv("COCKPIT_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["--debug", "--config", str(path), "check"]) == 1
    err = capfd.readouterr().err
    log = tmp_path / "cache" / logging_setup.LOG_NAME  # it broke before the config was read
    assert f"see {log}" in err
    assert "Traceback" in log.read_text(encoding="utf-8") and TOKEN not in log.read_text(encoding="utf-8")


def test_auth_login_and_logout_refuse_under_read_only_and_leave_the_keyring_alone(
    memory_keyring, monkeypatch, capsys, tmp_path
):
    monkeypatch.chdir(tmp_path)
    memory_keyring.set_password(KEYRING_SERVICE, "github.com", "kept")
    piped = type("Piped", (), {"isatty": lambda self: False, "readline": lambda self: TOKEN + "\n"})
    monkeypatch.setattr("sys.stdin", piped())
    assert main(["--read-only", "auth", "login"]) == 2
    assert main(["auth", "logout", "--read-only"]) == 2
    assert main(["--read-only", "auth", "status"]) == 0, "looking is fine"
    assert memory_keyring.saved[(KEYRING_SERVICE, "github.com")] == "kept"
    err = capsys.readouterr().err
    assert "'auth login' changes the system keyring" in err and "'auth logout' changes the system keyring" in err
