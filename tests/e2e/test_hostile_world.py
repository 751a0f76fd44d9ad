"""An attacker's release: every title, comment, label, job name, a commit and a wheel carry terminal
escapes (clear screen, OSC 52 clipboard writes, OSC 8 links, NUL, C1, bidi overrides) and Markdown
traps (links, images, @mentions, HTML). Through the real adapters and the sandbox emulators, no
pane, detail view, status bar or CLI output lets one active character through, and every
Markdown output is safe to paste into GitHub.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import tomli_w
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from cockpit.bootstrap import build_backend
from cockpit.cli.main import main
from cockpit.config import load_config
from cockpit.sandbox.model import SbWheel
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, screen_text, settle
from tests.hostile_text import CLEAR_SCREEN, PAYLOAD, active_characters

ESC_SHOWN = "\u241b"  # what ESC looks like once inert
LOGIN = "mallory\x1b[2J\u202e"
HOSTILE_WORKFLOW = "lint" + CLEAR_SCREEN


def _git(clone: Path, *args: str, env: dict | None = None, stdin: str | None = None) -> str:
    return subprocess.run(
        ["git", "-C", str(clone), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        input=stdin,
    ).stdout.strip()


def _hostile_commit_on(clone: Path, branch: str) -> None:
    """A fix made only on the release branch, by an author whose name and message are attacks."""
    parent = _git(clone, "rev-parse", f"refs/remotes/origin/{branch}")
    blob = _git(clone, "hash-object", "-w", "--stdin", stdin="hostile\n")
    index = {"GIT_INDEX_FILE": str(clone.parent / "hostile.index")}
    _git(clone, "read-tree", parent, env=index)
    _git(clone, "update-index", "--add", "--cacheinfo", f"100644,{blob},hostile.txt", env=index)
    tree = _git(clone, "write-tree", env=index)
    who = {
        "GIT_AUTHOR_NAME": "Mallory \x1b]52;c;aGFja2Vk\x07 \u202eEvil",
        "GIT_AUTHOR_EMAIL": "m@evil.example",
        "GIT_COMMITTER_NAME": "Mallory",
        "GIT_COMMITTER_EMAIL": "m@evil.example",
    }
    payload = PAYLOAD.replace("\x00", "")  # git refuses a NUL in a commit message
    message = f"Fix the loader{payload}\n\nDetails{payload}\nmore\x1b[31m red\n"
    commit = _git(clone, "commit-tree", tree, "-p", parent, "-F", "-", env=who, stdin=message)
    for ref in (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}"):
        known = subprocess.run(["git", "-C", str(clone), "rev-parse", "--verify", "--quiet", ref], capture_output=True)
        if known.returncode == 0:
            _git(clone, "update-ref", ref, commit)


def _poison(world) -> None:
    core = world.repos[world.repository]
    for milestone in core.milestones:
        milestone.title += PAYLOAD
    for item in (*core.issues, *core.pulls):
        item.title += PAYLOAD
        item.labels.append("bug" + PAYLOAD)
        item.body += "\n\n" + PAYLOAD
    for comment in core.comments:
        comment.body += "\n\n" + PAYLOAD
    core.comments[0].author = LOGIN
    for repo in world.repos.values():
        for job in repo.check_runs:
            job.name += PAYLOAD
    world.wheels.append(
        SbWheel(
            "test",
            "torchlet",
            f"torchlet-2.5.0{CLEAR_SCREEN}\u202e-cp312-cp312-linux_x86_64.whl",
            size=1,
            sha256="0" * 64,
            variant="cpu",
        )
    )
    for wheel in world.wheels:
        if wheel.yanked is not None:  # the reason is the index's text too (PEP 592 data-yanked, JSON yanked)
            wheel.yanked += PAYLOAD


@pytest.fixture(scope="module")
def hostile(sandbox_world, tmp_path_factory):
    """The sandbox world poisoned, served, and a config pointing at it (with a hostile workflow name)."""
    from cockpit.sandbox.demo import SandboxServers, write_config

    root = tmp_path_factory.mktemp("hostile")
    world = copy.deepcopy(sandbox_world)
    source = Path(sandbox_world.clone_path).parent
    shutil.copytree(source, root / "git", ignore=shutil.ignore_patterns("*.toml", "world.json"))
    world.clone_path = str(root / "git" / Path(sandbox_world.clone_path).relative_to(source))
    world.remote_path = str(root / "git" / Path(sandbox_world.remote_path).relative_to(source))
    _git(Path(world.clone_path), "remote", "set-url", "origin", world.remote_path)
    _hostile_commit_on(Path(world.clone_path), world.release_branch)
    _poison(world)
    with SandboxServers(world, owned=True) as servers:
        path = write_config(world, root, github_url=servers.github_url, index_url=servers.index_url)
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        doc["ci"][0]["required"].append(HOSTILE_WORKFLOW)
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
        yield path


def assert_inert(where: str, text: str) -> None:
    assert not active_characters(text), f"{where} lets through {active_characters(text)}"


def assert_safe_markdown(where: str, text: str) -> None:
    assert_inert(where, text)
    assert len(text) < 65_536, f"{where} is {len(text):,} characters, over GitHub's comment limit"
    for trap in ("<img", "<script", "](https://evil", "![", "&#64;"):
        assert trap not in text, f"{where} passes {trap!r} through"
    pings = re.findall(r"(?<![`\w])@(?:alice|bob|carol|acme/release-team|mallory)\b", text)
    assert not pings, f"{where} would ping {pings}"


CLI = {
    "report markdown": ("report", "--format", "markdown"),
    "report json": ("report", "--format", "json"),
    "check": ("check",),
    "missing-in-branch text": ("missing-in-branch", "--format", "text"),
    "missing-in-branch json": ("missing-in-branch", "--format", "json"),
    "missing-in-branch markdown": ("missing-in-branch", "--format", "markdown"),
    "picks": ("picks",),
}


@pytest.mark.parametrize("command", CLI, ids=list(CLI))
def test_no_cli_output_lets_a_terminal_escape_through(hostile, capsys, command):
    status = main(["--config", str(hostile), *CLI[command]])
    out, err = capsys.readouterr()
    assert status in (0, 1), err
    assert_inert(f"cockpit {command} (stdout)", out)
    assert_inert(f"cockpit {command} (stderr)", err)
    shown = json.dumps(json.loads(out), ensure_ascii=False) if command.endswith("json") or command == "picks" else out
    if command != "check":
        assert ESC_SHOWN in shown, f"cockpit {command} shows none of the hostile text: the test proves nothing"
    if command.endswith("markdown"):
        assert_safe_markdown(f"cockpit {command}", out)


def _rendered(app) -> str:
    """What the app would write to the terminal for the current screen: every cell of every strip."""
    update = app.screen._compositor.render_full_update()
    return "\n".join("".join(segment.text for segment in strip) for strip in update.strips)


def _widget_text(app) -> str:
    """The text every widget of the current screen holds, rows scrolled out of view included."""
    parts = []
    for widget in app.screen.query("*"):
        if isinstance(widget, (DataTable, RowsTable)):
            parts += [str(c.label) for c in widget.columns.values()]
            parts += [str(cell) for r in range(widget.row_count) for cell in widget.get_row_at(r)]
        elif isinstance(widget, Static):
            parts.append(str(widget.content))
    return "\n".join(parts)


async def _capture(app, where: str) -> str:
    text = "\n".join((_rendered(app), screen_text(app), _widget_text(app)))
    assert_inert(where, text)
    return text


TABLE_PANES = ("milestone", "picks", "ci", "branch", "checklist")


@pytest.mark.anyio
async def test_no_pane_detail_view_or_status_bar_lets_a_terminal_escape_through(hostile):
    async with running(build_backend(load_config(hostile))) as (app, pilot):
        for key, pane in zip("012345", ("overview", *TABLE_PANES), strict=True):
            await pilot.press(key)
            await settle(app, pilot)
            shown = await _capture(app, f"pane {pane}")
            assert_inert("status bar", str(app.screen.query_one("#status-bar").render()))
            if pane in ("milestone", "picks", "ci", "branch"):
                assert ESC_SHOWN in shown, f"pane {pane} shows none of the hostile text"
            if pane != "overview":
                await _open_details(app, pilot, pane)
        assert app.is_running and not app.unexpected_errors


async def _open_details(app, pilot, pane: str) -> None:
    """Open the detail view of the rows that carry hostile text (and the first row), check each."""
    table = app.query_one(f"#pane-{pane} .pane-table", RowsTable)
    rows = [r for r in range(table.row_count) if ESC_SHOWN in " ".join(str(c) for c in table.get_row_at(r))]
    picks = sorted({0, 1, *rows[:2], *rows[-1:]} & set(range(table.row_count)))
    opened = hostile_details = 0
    for row in picks:
        table.move_cursor(row=row)
        app.pane(pane).action_detail()
        await settle(app, pilot)
        if not isinstance(app.screen, ModalScreen):
            continue  # a section heading has no detail
        opened += 1
        shown = await _capture(app, f"{pane} detail of row {row}")
        detail = app.screen
        for attribute in ("lines", "markdown", "header", "detail_title"):
            value = getattr(detail, attribute, None)
            if value:
                assert_inert(f"{pane} detail {attribute}", value if isinstance(value, str) else "\n".join(value))
        hostile_details += ESC_SHOWN in shown
        await pilot.press("escape")
        await settle(app, pilot)
    assert opened, f"no detail view of the {pane} pane opened"
    if pane in ("milestone", "picks", "ci", "branch"):
        assert hostile_details, f"no {pane} detail view showed the hostile text: the test proves nothing"
