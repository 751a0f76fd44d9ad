"""The patch release 2.5.1 mid-flight (``cockpit demo --patch``): the cockpit's flags, phase and
triage list equal what the world planted, and the triage decisions reach GitHub exactly as previewed."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import unquote

import pytest

from cockpit.bootstrap import build_backend
from cockpit.config import load_config
from cockpit.domain.picks import PickFlag
from cockpit.sandbox.demo import SandboxServers, prepare_world, write_config
from cockpit.services.schedule import phase_on
from tests.conftest import SMALL_WORLD


@pytest.fixture(scope="module")
def patch_world(tmp_path_factory):
    root = tmp_path_factory.mktemp("patch-world")
    return prepare_world(
        SMALL_WORLD["seed"], trunk_commits=SMALL_WORLD["trunk_commits"], directory=root / "w", patch=True
    )


@pytest.fixture()
def patch_sandbox(patch_world, tmp_path):
    with SandboxServers(patch_world) as servers:
        path = write_config(patch_world, tmp_path, github_url=servers.github_url, index_url=servers.index_url)
        servers.config = load_config(path)
        yield servers


def backend(sandbox, *, read_only=False):
    now = datetime.fromisoformat(sandbox.world.clock)
    return build_backend(sandbox.config, read_only=read_only, clock=lambda: now)


def test_the_patch_world_is_a_patch_release_with_its_schedule_in_the_demo_config(patch_sandbox):
    config = patch_sandbox.config
    assert config.release.version == "2.5.1" and config.schedule is not None
    truth = patch_sandbox.world.truth["patch"]
    today = phase_on(config.schedule, datetime.fromisoformat(truth["now"]))
    assert (today.phase.value, today.days_left) == (truth["phase"], truth["days_left"])
    assert today.days_to_deadline is not None and today.days_to_deadline < 0  # the deadline has passed


def test_the_requests_flagged_late_or_unlinked_are_exactly_those_the_world_planted(patch_sandbox):
    b = backend(patch_sandbox)
    try:
        report = b.load_picks()
    finally:
        b.state.close()
    truth = patch_sandbox.world.truth["patch"]
    late = sorted(str(r.request.comment_id) for r in report.rows if PickFlag.AFTER_DEADLINE in r.flags)
    unlinked = sorted(str(r.request.comment_id) for r in report.rows if PickFlag.NO_QUALIFYING_LINK in r.flags)
    assert late == truth["after_deadline"] and len(late) >= 3
    assert unlinked == truth["no_qualifying_link"] and 0 < len(unlinked) < len(report.rows)
    labelled = [e for e in patch_sandbox.github.log() if "labels=" in e["path"]]
    assert len(labelled) <= 2 * len(b.config.schedule.qualifying_labels)  # one list per label, not one per issue


def test_the_triage_list_is_the_labelled_open_items_outside_the_patch_milestone(patch_sandbox):
    b = backend(patch_sandbox)
    try:
        report = b.load_triage()
    finally:
        b.state.close()
    assert [c.number for c in report.candidates] == patch_sandbox.world.truth["patch"]["triage"]
    assert report.label == "triage review" and report.milestone_title == "2.5.1"


def mutations(sandbox) -> list[tuple[str, str]]:
    return [
        (e["method"], unquote(e["path"].split("?")[0]))
        for e in sandbox.github.log()
        if e["method"] not in ("GET", "HEAD")
    ]


def test_triage_decisions_send_exactly_the_previewed_requests_and_none_in_read_only(patch_sandbox):
    b = backend(patch_sandbox)
    try:
        first, second = b.load_triage().candidates[:2]
        previews = [b.actions.dry_run("triage.add_to_milestone", first), b.actions.dry_run("triage.drop_label", second)]
        patch_sandbox.github.request_log.clear()
        assert b.actions.run("triage.add_to_milestone", first, confirmed=False).ok is False  # not confirmed
        assert b.actions.run("triage.add_to_milestone", first, confirmed=True).ok
        assert b.actions.run("triage.drop_label", second, confirmed=True).ok
        sent = mutations(patch_sandbox)
        assert [f"{m} {p}" for m, p in sent] == [" ".join(p.split()[:2]).replace("%20", " ") for p in previews]
        assert '{"milestone": 12}' in previews[0]
        after = b.load_triage()
        assert first.number not in [c.number for c in after.candidates]
        assert second.number not in [c.number for c in after.candidates]
        audit = [(e.action, e.outcome) for e in b.state.audit_log() if e.outcome != "started"]
        assert audit[-2:] == [("triage.add_to_milestone", "ok"), ("triage.drop_label", "ok")]
    finally:
        b.state.close()
    viewer = backend(patch_sandbox, read_only=True)
    try:
        third = viewer.load_triage().candidates[0]
        patch_sandbox.github.request_log.clear()
        for action in ("triage.add_to_milestone", "triage.drop_label"):
            result = viewer.actions.run(action, third, confirmed=True)
            assert not result.ok and "read-only" in result.message
        assert mutations(patch_sandbox) == []
    finally:
        viewer.state.close()


def test_answers_to_the_criteria_are_kept_in_the_state_file_and_audited(patch_sandbox):
    from cockpit.domain.triage import TriageAnswer

    b = backend(patch_sandbox)
    try:
        candidate = b.load_triage().candidates[0]
        assert b.actions.run("triage.answer", TriageAnswer(candidate, "regression", True), confirmed=True).ok
        again = next(c for c in b.load_triage().candidates if c.number == candidate.number)
        assert again.answers.get("regression") is True and again.answers.verdict == "open"
        assert b.state.audit_log()[-1].action == "triage.answer"
    finally:
        b.state.close()
    text = patch_sandbox.config.resolved_state_path.read_text()
    assert "[triage" in text and "regression = true" in text


def test_the_checklist_phase_steps_read_as_the_planted_schedule_and_the_worlds_clock_say(patch_sandbox):
    from cockpit.loaders.picture import gather
    from cockpit.services.report_render import render_markdown

    b = backend(patch_sandbox, read_only=True)
    try:
        picture = gather(b, now=b.clock())
    finally:
        b.state.close()
    truth = patch_sandbox.world.truth["patch"]
    steps = {v.step.gate: v.gate.status.value for v in picture.checklist.steps if v.step.patch_only}
    assert steps == truth["phase_gates"]
    assert {name: g.status.value for name, g in picture.phase_gates.items()} == truth["phase_gates"]
    assert truth["phase_gates"]["phase_cherry_pick"] == "red"  # over, with requests still under review
    assert picture.patch_phase.startswith(f"Patch 2.5.1 · Build and promote: {truth['days_left']} days left")
    assert f"Build and promote: {truth['days_left']} days left" in render_markdown(picture)
