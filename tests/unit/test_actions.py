"""The action registry's story: nothing changes the world without the right confirmation, a viewer
changes nothing, and the audit log tells who did what, including what was refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cockpit.actions.registry import Action, ActionRegistry, ActionResult, Danger
from cockpit.domain.checklist import AuditEntry
from cockpit.domain.github import ItemKind, ItemState, MilestoneItem
from cockpit.errors import ActionRefused, CockpitError, GitHubError
from cockpit.state.store import StateStore

NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)
ISSUE = MilestoneItem(
    number=123,
    kind=ItemKind.ISSUE,
    title="Crash in conv2d",
    state=ItemState.CLOSED,
    html_url="https://github.com/acme/torchlet/issues/123",
)


class World:
    """What the actions touch: a record of what was done."""

    def __init__(self):
        self.done: list[str] = []


def actions(world: World) -> list[Action]:
    def comment(item):
        if item.number == 500:
            raise GitHubError("POST /repos/acme/torchlet/issues/500/comments answered 502; try again")
        world.done.append(f"comment #{item.number}")
        return f"commented on #{item.number}"

    return [
        Action(
            id="milestone.open",
            title="Open in browser",
            danger=Danger.SAFE,
            pane="milestone",
            run=lambda item: world.done.append(f"open {item.html_url}") or "opened",
            describe=lambda item: f"open {item.html_url}",
        ),
        Action(
            id="milestone.validate",
            title="Post the validation comment",
            danger=Danger.MUTATING,
            pane="milestone",
            run=comment,
            describe=lambda item: f"POST /repos/acme/torchlet/issues/{item.number}/comments",
            applicable=lambda item: None if not item.state.is_open else f"#{item.number} is still open",
        ),
        Action(
            id="checklist.promote_pypi",
            title="Promote wheels to PyPI",
            danger=Danger.IRREVERSIBLE,
            pane="checklist",
            run=lambda version: world.done.append(f"upload {version}") or f"uploaded torchlet {version}",
            describe=lambda version: f"twine upload torchlet-{version}-*.whl",
            label=lambda version: f"torchlet {version}",
        ),
    ]


@pytest.fixture
def world():
    return World()


@pytest.fixture
def store(tmp_path):
    s = StateStore(tmp_path / "state.toml")
    yield s
    s.close()


def registry(store, world, *, read_only=False):
    reg = ActionRegistry(store, read_only=read_only, who="alice", clock=lambda: NOW)
    for action in actions(world):
        reg.register(action)
    return reg


def test_actions_are_listed_in_order_and_by_pane(store, world):
    reg = registry(store, world)
    assert [a.id for a in reg.all()] == ["milestone.open", "milestone.validate", "checklist.promote_pypi"]
    assert [a.id for a in reg.for_pane("milestone")] == ["milestone.open", "milestone.validate"]
    assert reg.for_pane("ci") == []
    with pytest.raises(ActionRefused, match=r"no action named 'ci\.rerun'"):
        reg.get("ci.rerun")
    with pytest.raises(CockpitError, match="registered twice"):
        reg.register(actions(world)[0])


def test_a_dry_run_shows_the_exact_request_and_does_nothing(store, world):
    reg = registry(store, world)
    assert reg.dry_run("milestone.validate", ISSUE) == "POST /repos/acme/torchlet/issues/123/comments"
    assert world.done == [] and store.audit_log() == []


def test_a_confirmed_comment_is_posted_and_audited(store, world):
    reg = registry(store, world)
    result = reg.run("milestone.validate", ISSUE, confirmed=True)
    assert result == ActionResult(True, "commented on #123")
    assert world.done == ["comment #123"]
    url = "https://github.com/acme/torchlet/issues/123"
    assert store.audit_log() == [  # the intent, written before the comment was posted, then the outcome
        AuditEntry(
            "2026-10-01T12:00:00Z",
            "alice",
            "milestone.validate",
            url,
            "started",
            "the action started; its outcome follows",
        ),
        AuditEntry("2026-10-01T12:00:00Z", "alice", "milestone.validate", url, "ok", "commented on #123"),
    ]


def test_a_mutating_action_without_confirmation_is_refused_and_the_refusal_audited(store, world):
    reg = registry(store, world)
    result = reg.run("milestone.validate", ISSUE, confirmed=False)
    assert not result.ok and "needs a confirmation" in result.message
    assert "POST /repos/acme/torchlet/issues/123/comments" in result.message
    assert world.done == []
    [entry] = [e for e in store.audit_log() if e.outcome != "started"]
    assert entry.outcome == "refused" and entry.action == "milestone.validate"


def test_commenting_on_an_open_issue_is_refused_with_the_reason(store, world):
    reg = registry(store, world)
    open_issue = MilestoneItem(7, ItemKind.ISSUE, "Still broken", ItemState.OPEN, "https://x/issues/7")
    assert reg.refusal("milestone.validate", open_issue) == "#7 is still open"
    result = reg.run("milestone.validate", open_issue, confirmed=True)
    assert result == ActionResult(False, "#7 is still open")
    assert world.done == [] and store.audit_log()[0].outcome == "refused"


def test_a_failure_of_the_outside_world_is_a_result_not_a_crash(store, world):
    reg = registry(store, world)
    broken = MilestoneItem(500, ItemKind.ISSUE, "x", ItemState.CLOSED, "https://x/issues/500")
    result = reg.run("milestone.validate", broken, confirmed=True)
    assert not result.ok and "answered 502" in result.message
    [entry] = [e for e in store.audit_log() if e.outcome != "started"]
    assert entry.outcome == "failed" and "answered 502" in entry.detail


def test_a_bug_in_an_action_is_audited_and_still_raised(store, world):
    reg = registry(store, world)
    reg.register(Action("ci.rerun", "Re-run failed jobs", Danger.MUTATING, "ci", run=lambda t: 1 / 0, describe=str))
    with pytest.raises(ZeroDivisionError):
        reg.run("ci.rerun", 42, confirmed=True)
    [entry] = [e for e in store.audit_log() if e.outcome != "started"]
    assert entry.outcome == "failed" and "ZeroDivisionError" in entry.detail and entry.target == "42"


@pytest.mark.parametrize(
    ("typed", "expected", "words"),
    [
        (None, "2.5.0", "type '2.5.0' to confirm (got nothing)"),
        ("2.5", "2.5.0", "type '2.5.0' to confirm (got '2.5')"),
        ("2.5.0", None, "has no confirmation text"),
    ],
)
def test_promoting_to_pypi_needs_the_version_typed_back(store, world, typed, expected, words):
    reg = registry(store, world)
    result = reg.run("checklist.promote_pypi", "2.5.0", confirmed=True, typed=typed, expected_typed=expected)
    assert not result.ok and words in result.message
    assert world.done == []
    [entry] = [e for e in store.audit_log() if e.outcome != "started"]
    assert (entry.outcome, entry.target) == ("refused", "torchlet 2.5.0")


def test_promoting_to_pypi_with_the_version_typed_back_runs_once_and_is_audited(store, world):
    reg = registry(store, world)
    result = reg.run("checklist.promote_pypi", "2.5.0", confirmed=True, typed="2.5.0", expected_typed="2.5.0")
    assert result == ActionResult(True, "uploaded torchlet 2.5.0")
    assert world.done == ["upload 2.5.0"]
    assert [(e.action, e.outcome) for e in store.audit_log()] == [
        ("checklist.promote_pypi", "started"),
        ("checklist.promote_pypi", "ok"),
    ]


def test_safe_actions_run_without_confirmation_and_are_not_audited(store, world):
    reg = registry(store, world)
    assert reg.run("milestone.open", ISSUE, confirmed=False).ok
    assert world.done == ["open https://github.com/acme/torchlet/issues/123"]
    assert store.audit_log() == []


def test_a_viewer_may_open_links_but_is_told_what_a_comment_would_have_done(tmp_path, world):
    writer = StateStore(tmp_path / "state.toml")
    writer.set_pref("theme", "nord")
    writer.close()
    before = (tmp_path / "state.toml").read_bytes()
    viewer_state = StateStore(tmp_path / "state.toml", read_only=True)
    reg = registry(viewer_state, world, read_only=True)
    assert reg.refusal("milestone.open", ISSUE) is None
    assert reg.run("milestone.open", ISSUE, confirmed=False).ok
    reason = reg.refusal("milestone.validate", ISSUE)
    assert reason == (
        "read-only session: Post the validation comment would POST /repos/acme/torchlet/issues/123/comments"
    )
    result = reg.run("milestone.validate", ISSUE, confirmed=True)
    assert result == ActionResult(False, reason)
    # on an open issue the writing cockpit refuses it: the viewer is told that, not what a POST would do
    open_issue = MilestoneItem(7, ItemKind.ISSUE, "Still broken", ItemState.OPEN, "https://x/issues/7")
    said = reg.refusal("milestone.validate", open_issue)
    assert said.startswith("read-only session: Post the validation comment does not apply (") and "POST" not in said
    result = reg.run("checklist.promote_pypi", "2.5.0", confirmed=True, typed="2.5.0", expected_typed="2.5.0")
    assert not result.ok and result.message.startswith("read-only session: Promote wheels to PyPI would twine")
    assert world.done == ["open https://github.com/acme/torchlet/issues/123"]
    assert (tmp_path / "state.toml").read_bytes() == before


def test_a_session_whose_state_is_held_elsewhere_cannot_act_unaudited(store, world):
    second = StateStore(store.path)
    reg = registry(second, world, read_only=False)
    assert reg.read_only
    result = reg.run("milestone.validate", ISSUE, confirmed=True)
    assert not result.ok and "held by pid" in result.message
    assert world.done == []


def test_an_action_that_ran_is_reported_even_if_the_audit_cannot_be_written(store, world, monkeypatch):
    reg = registry(store, world)

    def full_disk(entry):
        raise CockpitError("cannot write state.toml: No space left on device", title="State")

    monkeypatch.setattr(store, "audit", full_disk)
    result = reg.run("milestone.validate", ISSUE, confirmed=True)
    assert not result.ok and world.done == [], "nothing is done outside before its intent is on disk"
    assert "was not started: the state file cannot record it" in result.message and "No space left" in result.message


def test_a_session_whose_state_is_held_elsewhere_says_by_whom_and_what_to_do_when_refused(store, world):
    second = StateStore(store.path)
    reg = registry(second, world, read_only=True)  # as the backend builds it: read-only because of the store
    result = reg.run("milestone.validate", ISSUE, confirmed=True)
    assert not result.ok and result.message.startswith("read-only session (state file ")
    assert "held by pid" in result.message and "quit that cockpit" in result.message
    assert world.done == []
