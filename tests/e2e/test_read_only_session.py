"""A viewer presses every key of every pane, uses the palette and submits every dialog: nothing
changes on GitHub, in git or in the state file, and each refused action says why."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from textual.binding import Binding

from cockpit.bootstrap import build_backend
from cockpit.state.store import StateStore
from cockpit.ui.app import PANES, CockpitApp, pane_class
from cockpit.ui.footer import KeysFooter
from cockpit.ui.palette import pane_commands
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.viewer_keys import off_in_viewer

from .driving import answer_dialogs, git_refs, running, settle

pytestmark = pytest.mark.anyio
SIZE = (160, 48)


@pytest.fixture
def private_world(sandbox, sandbox_world, world_clone_copy):
    """The sandbox config on a private copy of the clone and its remote (a leak would not spread)."""
    clone = world_clone_copy / Path(sandbox_world.clone_path).name
    remote = world_clone_copy / Path(sandbox_world.remote_path).name
    subprocess.run(["git", "-C", str(clone), "remote", "set-url", "origin", str(remote)], check=True)
    config = replace(sandbox.config, git=replace(sandbox.config.git, clone=clone))
    return config, clone, remote


def rows_to_visit(pane, table: RowsTable) -> list[int]:
    """The first row (the read-only refusal comes before any row-specific check), plus a row each
    action applies to: the first pickable branch-diff row, the first manual checklist step."""
    rows = {0}
    pickable = [
        str(i)
        for i, r in enumerate(getattr(pane, "rows", ()))
        if getattr(r, "target", None) is not None and getattr(r, "shas", None)
    ]
    report = pane.report if pane.PANE == "checklist" else None
    manual = [v.step.id for v in report[0].steps if v.step.kind.value == "manual"] if report else []
    for key in (pickable + manual)[:1]:
        rows.add(table.get_row_index(key))
    return sorted(rows)


GLOBAL = "the app's own keys"


# Two sessions, each walking half of the panes (a session's start and first loads cost more than a pane's
# keys, and one session walking them all was the suite's longest test, which two workers cannot share).
HALVES = {
    "overview, milestone, cherry-picks": ("overview", "milestone", "picks"),
    "CI, branch diff, checklist and the app's own keys": ("ci", "branch", "checklist", GLOBAL),
}


@pytest.mark.parametrize("half", list(HALVES))
async def test_a_viewer_pressing_every_key_changes_nothing_anywhere(half, private_world, sandbox, monkeypatch):
    """Half of the panes' keys (then the app's own: refresh, refresh all, help), in one session; the whole
    world (GitHub, the index, git, the state file) is checked afterwards, and each pane's refusals are checked
    against what was said there."""
    walked = HALVES[half]
    config, clone, remote = private_world
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)

    writer = StateStore(config.resolved_state_path)
    writer.set_signoff("tag_final_rc", done=True, who="Release Manager", note="tagged v2.5.0-rc3")
    writer.close()
    state_before = config.resolved_state_path.read_bytes()
    clone_before, remote_before = git_refs(clone), git_refs(remote)
    sandbox.github.request_log.clear()

    backend = build_backend(config, read_only=True)
    app = CockpitApp(backend)
    app.animation_level = "none"
    version = config.release.version
    dialogs: dict[str, set[str]] = {}
    notices: dict[str, list[str]] = {"": []}  # "": said before the first pane
    where = ""
    refused_keys: set[str] = set()
    notify = app.notify
    app.notify = lambda message, *a, **k: (notices[where].append(str(message)), notify(message, *a, **k))[1]
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(app, pilot)
        assert app.query_one("#header").render().plain.endswith(" READ-ONLY ")

        for index, (name, title, _path) in enumerate(PANES):
            if name not in walked:
                continue
            where = name
            notices[where], dialogs[where] = [], set()
            await pilot.press(str(index))
            await settle(app, pilot)
            pane = app.pane(name)
            bindings = [b for b in pane_class(name).BINDINGS if isinstance(b, Binding)]
            tables = list(pane.query(".pane-table").results(RowsTable))
            for row in rows_to_visit(pane, tables[0]) if tables else [0]:
                if tables:
                    tables[0].move_cursor(row=row)
                for binding in bindings:
                    pane.focus_body()
                    said = len(notices[where])
                    await pilot.press(binding.key)
                    await pilot.pause()
                    dialogs[where].update(await answer_dialogs(app, pilot, version=version))
                    await settle(app, pilot)
                    if any(n.startswith("read-only session") for n in notices[where][said:]):
                        refused_keys.add(binding.id)
            # what the viewer is not offered: exactly the keys that refused (issue 32)
            hidden = off_in_viewer(backend, bindings)
            assert hidden == {b.id for b in bindings} & refused_keys, (name, hidden, refused_keys)
            footer_keys = {str(getattr(w, "key", "")) for w in app.query_one(KeysFooter).children}
            assert not footer_keys & {b.key for b in bindings if b.id in hidden}, (name, footer_keys)
            # the palette does not offer them by name either
            offered = {command.name for command in pane_commands(app)}
            label = title.split(" ", 1)[1]
            assert not {f"{label}: {b.description}" for b in bindings if b.id in hidden} & offered, (name, offered)

        if GLOBAL in walked:  # the help lists the keys that are off, with why
            await pilot.press("5")
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            rows = {binding_id: text for _key, text, binding_id in app.screen.sections[0][1]}
            assert rows["checklist.toggle"].startswith("off: read-only session."), rows
            assert not rows["checklist.detail"].startswith("off"), rows
            await pilot.press("escape")
            await pilot.pause()
            where = GLOBAL
            notices[where], dialogs[where] = [], set()
            for key in ("r", "R", "question_mark"):
                await pilot.press(key)
                await pilot.pause()
                dialogs[where].update(await answer_dialogs(app, pilot, version=version))
                await settle(app, pilot)
        assert not app.unexpected_errors
    backend.state.close()

    methods = {entry["method"] for entry in sandbox.github.log()}
    assert methods <= {"GET", "HEAD"}, sandbox.github.log()
    assert {entry["method"] for entry in sandbox.index.log()} <= {"GET", "HEAD"}
    assert git_refs(clone) == clone_before
    assert git_refs(remote) == remote_before
    assert config.resolved_state_path.read_bytes() == state_before
    # dialogs were really filled in and submitted, and the refusals say why, in the pane they were asked in
    refusals = {name: [n for n in said if n.startswith("read-only session")] for name, said in notices.items()}
    expected = {
        "milestone": "Remove from milestone would PATCH",
        "branch": "Make local pick branch would git branch",
        "checklist": "Tick or untick a step would",
    }
    for name, words in expected.items():
        if name in walked:
            assert any(words in n for n in refusals[name]), (name, refusals[name])
    if "checklist" in walked:  # told at once, never asked for a note that would not be kept (issue 32)
        assert "TextInputScreen" not in dialogs["checklist"], dialogs["checklist"]
        assert any(n.startswith("read-only session: a note is not written") for n in notices["checklist"])
    for name in {"milestone", "picks", "ci", "branch", "checklist"} & set(walked):
        titles = {a.title for a in backend.actions.for_pane(name) if a.danger.value != "safe"}
        assert any(f"{t} would" in n for t in titles for n in refusals[name]), (name, refusals[name])


def read_only_notices(app) -> list:
    return [n for n in app.notices.said if (n.title or "").startswith("Read-only")]


async def test_a_session_on_a_state_file_another_cockpit_holds_says_who_holds_it_and_how_to_act(sandbox):
    import os
    import socket

    other = StateStore(sandbox.config.resolved_state_path)  # another session of this machine, still running
    other.set_pref("theme", "cockpit-dark")
    try:
        async with running(build_backend(sandbox.config), notifications=True) as (app, pilot):
            holder = f"pid {os.getpid()} on {socket.gethostname()}"
            header = app.query_one("#header")
            assert f" READ-ONLY · state locked by {holder} " in header.render().plain
            assert f"held by {holder} since" in str(header.tooltip) and "quit that cockpit" in str(header.tooltip)
            (notice,) = read_only_notices(app)
            assert notice.title == f"Read-only: state locked by {holder}"
            assert f"held by {holder} since" in notice.message and "quit that cockpit" in notice.message
            await pilot.press("1", "d")
            await settle(app, pilot)
            refusal = list(app.notices.said)[-1].message
            assert refusal.startswith("read-only session (state file ") and f"held by {holder}" in refusal
            assert "quit that cockpit" in refusal
    finally:
        other.close()


async def test_a_session_on_a_corrupt_state_file_says_the_parse_error_and_where_the_copy_went(sandbox):
    state = sandbox.config.resolved_state_path
    state.write_text("schema = 1\n[signoffs\n")
    async with running(build_backend(sandbox.config), notifications=True) as (app, _pilot):
        (copy,) = state.parent.glob(f"{state.name}.corrupt-*")
        assert " READ-ONLY · state file corrupt " in app.query_one("#header").render().plain
        (notice,) = read_only_notices(app)
        assert "does not parse (" in notice.message and f"a copy is kept at {copy}" in notice.message
        assert f"repair {state} by hand" in notice.message
    assert state.read_text() == "schema = 1\n[signoffs\n"
