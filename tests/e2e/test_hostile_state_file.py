"""Our own state file is outside input too (issue 30): a hand edit, a tool or a synced copy can put terminal
escapes and Markdown traps in every field (sign-off notes and names, override notes, notes, the audit log,
the dispatch journal, pick readings, RC sizes). Fed the hostile-text corpus through every one, the
checklist pane and its step detail, ``cockpit report`` in every format, ``cockpit check`` and the
published comments let no active character through and ping nobody."""

from __future__ import annotations

import json
import tomllib
from datetime import datetime

import pytest
import tomli_w

from cockpit.actions.publish import ACTION_ID
from cockpit.bootstrap import build_backend
from cockpit.cli.main import main
from cockpit.domain.checklist import AuditEntry, StepKind
from cockpit.sandbox.github_user import SANDBOX_USER
from cockpit.state.store import StateStore
from cockpit.ui.rows_table import RowsTable
from tests.e2e.driving import running, settle
from tests.e2e.test_hostile_world import ESC_SHOWN, _capture, _open_details, assert_inert, assert_safe_markdown
from tests.e2e.test_status_publish import picture
from tests.hostile_text import PAYLOAD


def _poisoned(value, key: str = ""):
    """Every text of the state file with the corpus appended, but times (still read as times) and the schema."""
    if isinstance(value, dict):
        return {k: _poisoned(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_poisoned(v, key) for v in value]
    if isinstance(value, str) and key not in ("when", "dispatched_at", "gate_status"):
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return f"{value} {PAYLOAD}"
    return value


@pytest.fixture
def hostile_state(sandbox):
    """The sandbox config's state file with every kind of entry, every text of it poisoned."""
    backend = build_backend(sandbox.config)
    steps = backend.checklist_steps()
    backend.state.close()
    manual = [s.id for s in steps if s.kind is StepKind.MANUAL]
    automatic = next(s for s in steps if s.kind.judged)
    path = sandbox.config.resolved_state_path
    store = StateStore(path)
    try:
        store.set_signoff(manual[0], done=True, who="Rosa", note="perf run fine")
        store.set_signoff(manual[1], done=False, who="Bo")
        store.set_note(manual[2], "waiting on the perf box")
        store.sign_override(automatic.id, who="Rosa", note="accepted", gate_status="red", gate_summary="1 failing")
        store.audit(AuditEntry("2026-12-01T10:00:00Z", "Rosa", "checklist.toggle", manual[0], "ok", "signed"))
        store.journal_dispatch("build", {"channel": "test"}, dry_run=True, ref="release/2.5", by="Rosa")
        store.confirm_pick_reading("acme#1:2", reading="trunk 1", who="Rosa")
        store.record_rc_sizes("v2.5.0-rc1", {"torch-2.5.0-cp311.whl": 1000})
    finally:
        store.close()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for step_id in (manual[0], manual[1], automatic.id):
        data["signoffs"][step_id] = _poisoned(data["signoffs"][step_id])
    data = {k: (v if k in ("signoffs", "schema") else _poisoned(v, k)) for k, v in data.items()}
    data["rc_sizes"] = {f"v2.5.0-rc1{PAYLOAD}": {f"torch{PAYLOAD}.whl": 1}}
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    assert "\\u001b" in path.read_text(encoding="utf-8") and "\u202e" in path.read_text(encoding="utf-8")
    return sandbox


REPORTS = {"report markdown": ("report", "--format", "markdown"), "report json": ("report", "--format", "json")}


def test_every_report_format_and_check_keep_the_state_files_text_inert(hostile_state, capsys):
    for name, args in {**REPORTS, "check": ("check",)}.items():
        code = main(["--config", str(hostile_state.config_path), *args])
        out, err = capsys.readouterr()
        assert code in (0, 1), err
        assert_inert(f"cockpit {name} (stdout)", out)
        assert_inert(f"cockpit {name} (stderr)", err)
        if name in REPORTS:
            shown = json.dumps(json.loads(out), ensure_ascii=False) if name.endswith("json") else out
            assert ESC_SHOWN in shown, f"cockpit {name} shows none of the state file's text: the test proves nothing"
        if name.endswith("markdown"):
            assert_safe_markdown(f"cockpit {name}", out)


def test_the_published_comments_carry_the_notes_inert_and_ping_nobody(hostile_state, capsys):
    backend = build_backend(hostile_state.config)
    try:
        result = backend.actions.run(ACTION_ID, picture(backend), confirmed=True)
        assert result.ok, result.message
    finally:
        backend.state.close()
    world = hostile_state.world
    comments = hostile_state.github.repos[world.repository.lower()].comments_on(world.tracker_issue)
    written = [c.body for c in comments if "release-cockpit:" in c.body and c.author == SANDBOX_USER]
    assert len(written) == 2, "her sign-off comment and the status comment"
    for body in written:
        assert_safe_markdown("a published comment", body)
    assert any(ESC_SHOWN in body for body in written), "the note reached no comment: the test proves nothing"
    assert main(["view", "--from-tracker", "--config", str(hostile_state.config_path)]) == 0
    out, err = capsys.readouterr()
    assert_inert("cockpit view --from-tracker (stdout)", out)
    assert_inert("cockpit view --from-tracker (stderr)", err)


@pytest.mark.anyio
async def test_the_checklist_pane_and_its_step_detail_keep_the_state_files_text_inert(hostile_state):
    async with running(build_backend(hostile_state.config), pane="checklist") as (app, pilot):
        shown = await _capture(app, "pane checklist")
        assert ESC_SHOWN in shown, "the checklist shows none of the state file's text: the test proves nothing"
        await _open_details(app, pilot, "checklist")
        table = app.query_one("#pane-checklist .pane-table", RowsTable)
        row = next(r for r in range(table.row_count) if ESC_SHOWN in " ".join(map(str, table.get_row_at(r))))
        table.move_cursor(row=row)
        app.pane("checklist").action_detail()
        await settle(app, pilot)
        detail = await _capture(app, "the step detail of a step signed in the state file")
        assert ESC_SHOWN in detail, "the step detail shows none of the state file's text: the test proves nothing"
        assert app.is_running and not app.unexpected_errors
