"""GitHub has a bad minute on release day: the cockpit stays up, keeps the last good data marked
STALE with its age, says what went wrong, tries again by itself, and never hangs on a limit."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from textual.widgets import Static

from cockpit.adapters.github import GitHubClient
from cockpit.bootstrap import build_backend
from cockpit.errors import GitHubError
from cockpit.ui.app import CockpitApp
from cockpit.ui.rows_table import RowsTable
from cockpit.ui.widgets import GateLine, StatusBar

from .driving import running, settle

pytestmark = pytest.mark.anyio
ISSUES = r"/issues\?"  # the milestone pane's one list call
TIMEOUT, RETRIES, MAX_WAIT = 0.5, 1, 1.0
# Bounds a hang (a rate limit waited out for an hour), not a speed: tens of seconds leave room for a
# machine with a load of 7.
CEILING = MAX_WAIT + TIMEOUT * (RETRIES + 1) + 40


@pytest.fixture
def impatient(sandbox):
    """The sandbox config with short ceilings: half a second per request, one retry, 1 s of waiting."""
    github = replace(sandbox.config.github, timeout_s=TIMEOUT, retries=RETRIES, max_rate_limit_wait_s=MAX_WAIT)
    return replace(sandbox.config, github=github)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def gate_line(app, pane: str) -> str:
    return str(app.query_one(f"#pane-{pane} GateLine", GateLine).render())


def pane_error(app, pane: str) -> str:
    return str(app.query_one(f"#pane-{pane} .pane-error", Static).render())


FAULTS = [
    # (what GitHub does, how to arm it, what the pane says; None: the retries absorb it)
    ("a 502 the retry absorbs", lambda f: f.status_burst(502, count=1, path=ISSUES), None),
    ("a burst of 503s", lambda f: f.status_burst(503, count=None, path=ISSUES), "GitHub failed (503"),
    ("a timeout", lambda f: f.timeout(3, path=ISSUES, count=None), f"did not answer within {TIMEOUT:g} s"),
    (
        "a rate limit with a reset time",
        lambda f: f.rate_limit(reset_in=3600, path=ISSUES, count=None),
        "rate limit is exhausted until",
    ),
    (
        "a secondary limit with Retry-After",
        lambda f: f.secondary_rate_limit(retry_after=600, path=ISSUES, count=None),
        "rate limit is exhausted until",
    ),
    ("a malformed JSON body", lambda f: f.malformed(path=ISSUES, count=None), "not valid JSON"),
    ("a slow answer", lambda f: f.latency(0.3, path=ISSUES, count=None), None),
]


async def test_each_fault_keeps_the_last_good_milestone_marked_stale_then_recovers(impatient, sandbox):
    clock = Clock()
    app = CockpitApp(build_backend(impatient), clock=clock)
    app.animation_level = "none"
    notices: list[str] = []
    notify = app.notify
    app.notify = lambda message, *a, **k: (notices.append(str(message)), notify(message, *a, **k))[1]
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("1")
        pane = app.pane("milestone")
        pane.RETRY_BASE_S = 600  # no automatic retry while each fault is looked at
        good_rows = pane.table.row_count
        assert good_rows and pane.error is None
        assert "/5,000" in app.query_one(StatusBar).budget

        for what, arm, says in FAULTS:
            arm(sandbox.github.faults)
            notices.clear()
            started = time.monotonic()
            await pilot.press("r")
            await settle(app, pilot)
            assert time.monotonic() - started < CEILING, what
            sandbox.github.faults.clear()
            assert app.is_running
            if says is None:
                assert pane.error is None and not pane.stale, (what, pane.error)
                continue
            assert says in (pane.error or ""), (what, pane.error)
            assert pane.stale and pane.table.row_count == good_rows and pane.table.display, what
            assert "STALE · last good" in gate_line(app, "milestone"), what
            assert says in pane_error(app, "milestone") and "Showing the last good data" in pane_error(app, "milestone")
            assert any(says in n for n in notices), (what, notices)
            assert "could not refresh" in app.gates["milestone_empty"].summary

            clock.now += timedelta(minutes=3)
            app.tick()
            assert "last good 3 min ago" in gate_line(app, "milestone"), what
            await pilot.press("r")
            await settle(app, pilot)
            assert pane.error is None and not pane.stale and "STALE" not in gate_line(app, "milestone"), what

        # left alone, a failed pane tries again by itself and recovers when GitHub does
        pane.RETRY_BASE_S = 0.2
        sandbox.github.faults.status_burst(503, count=2, path=ISSUES)
        await pilot.press("r")
        for _ in range(100):
            await pilot.pause(0.05)
            if pane.failures == 0 and not pane.stale and all(w.is_finished for w in app.workers):
                break
        assert pane.error is None and not pane.stale and pane.table.row_count == good_rows
        assert not app.unexpected_errors
    app.backend.state.close()


async def test_keys_answer_while_a_slow_ci_request_is_in_flight(impatient, sandbox):
    slow = replace(impatient, github=replace(impatient.github, timeout_s=10))
    async with running(build_backend(slow)) as (app, pilot):
        sandbox.github.faults.latency(3, path=r"/check-runs", count=None)
        await pilot.press("3", "r")
        await pilot.pause(0.2)
        ci_loading = [w for w in app.workers if w.group == "ci" and not w.is_finished]
        table = app.query_one("#pane-ci .pane-table", RowsTable)
        assert ci_loading and not table.loading, "a reload leaves the last rows on screen and in use"
        assert app.focused is table and "refreshing…" in str(app.query_one("#pane-ci .ci-status").render())
        assert "loading: ci" in app.query_one(StatusBar).tasks

        await pilot.press("1")
        await pilot.press("f")
        await pilot.press("4")
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape", "2")
        assert app.current_name == "picks"
        assert not all(w.is_finished for w in ci_loading), "the keys should have been handled before CI answered"
        sandbox.github.faults.clear()
        await settle(app, pilot)
        assert app.pane("ci").error is None


async def test_the_remaining_budget_in_the_header_follows_every_request(impatient):
    async with running(build_backend(impatient)) as (app, pilot):
        first = app.query_one(StatusBar).budget
        await pilot.press("R")
        await settle(app, pilot)
        app.tick()
        again = app.query_one(StatusBar).budget
        assert first.startswith("GitHub ") and "/5,000" in first
        assert first != again  # more requests counted (304s cost no budget, but are counted)


def test_editing_a_comment_that_was_deleted_says_it_is_gone(sandbox):
    repo = sandbox.config.release.repository
    client = GitHubClient(sandbox.github_url, None, timeout=TIMEOUT, retries=RETRIES, max_rate_limit_wait=MAX_WAIT)
    comment = client.create_comment(repo, sandbox.config.release.tracker_issue, "@pytorchbot cherry-pick")
    client.delete_comment(repo, comment.id)
    with pytest.raises(GitHubError, match=r"not found \(404\)") as gone:
        client.edit_comment(repo, comment.id, "edited")
    assert f"edit comment {comment.id}" in str(gone.value)


def test_a_404_while_acting_is_reported_and_audited_not_raised(sandbox):
    backend = build_backend(sandbox.config)
    try:
        item = next(i for i in backend.load_milestone().items if i.state.value == "merged")
        sandbox.github.faults.not_found(rf"/issues/{item.number}/comments", count=None)
        result = backend.actions.run("milestone.validate", item, confirmed=True)
        assert not result.ok and "not found (404)" in result.message
        assert backend.state.audit_log()[-1].outcome == "failed"
    finally:
        backend.state.close()


def test_a_long_rate_limit_fails_fast_instead_of_sleeping(sandbox):
    client = GitHubClient(sandbox.github_url, None, timeout=TIMEOUT, retries=RETRIES, max_rate_limit_wait=MAX_WAIT)
    sandbox.github.faults.secondary_rate_limit(status=429, retry_after=3600, count=None)
    started = time.monotonic()
    with pytest.raises(GitHubError, match="longer than this session waits"):
        client.pull(sandbox.config.release.repository, 1)
    assert time.monotonic() - started < CEILING
