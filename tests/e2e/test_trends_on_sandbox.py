"""The pictures drawn from the sandbox, through the real adapters, equal what the world planted.

Each expected series is computed here from the world's own objects (the milestone's items, the
tracker's comments and the release PRs, the workflow runs pushed to each release branch), never
from the cockpit's reports.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from cockpit.bootstrap import build_backend
from cockpit.loaders.picture import gather
from cockpit.services.report_render import render_markdown
from cockpit.services.trends import burn_down, ci_strip, pick_flow
from cockpit.services.trends_text import outcome_line

TODAY = date(2026, 10, 2)  # a day after the sandbox history's last commit


def day_of(stamp: str | None) -> date | None:
    return datetime.fromisoformat(stamp).date() if stamp else None


def days_from(start: date) -> list[date]:
    return [start + timedelta(days=i) for i in range((TODAY - start).days + 1)]


@pytest.fixture()
def picture(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        yield gather(backend)
    finally:
        backend.state.close()


def test_the_burn_down_counts_the_planted_milestone_items_open_each_day(picture, sandbox, sandbox_world):
    repo = sandbox_world.repos[sandbox_world.repository]
    skip = {label.casefold() for label in sandbox.config.skip_labels}
    items = [
        i
        for i in [*repo.issues, *repo.pulls]
        if i.milestone == sandbox_world.milestone_number and not skip & {lbl.casefold() for lbl in i.labels}
    ]
    first = min(day_of(i.created_at) for i in items)
    want = tuple(
        sum(day_of(i.created_at) <= day and (i.state == "open" or day_of(i.closed_at) > day) for i in items)
        for day in days_from(first)
    )
    milestone = next(m for m in repo.milestones if m.number == sandbox_world.milestone_number)

    got = burn_down(picture.milestone.milestone, picture.milestone.items, TODAY)
    assert got.open_items.start == first
    assert got.open_items.values == want
    assert got.open_items.values[-1] == sum(i.state == "open" for i in items) > 0  # not converged yet: a real shape
    assert got.target == day_of(milestone.due_on)


def test_the_pick_flow_counts_the_planted_requests_and_their_release_prs(picture, sandbox_world):
    repo = sandbox_world.repos[sandbox_world.repository]
    comments = {str(c.id): c for c in repo.comments if c.issue_number == sandbox_world.tracker_issue}
    pulls = {p.number: p for p in repo.pulls}
    planted = {cid: fact for cid, fact in sandbox_world.truth["picks"].items() if fact["parsed"]}
    arrived = [day_of(comments[cid].created_at) for cid in planted]
    resolved = []
    for fact in planted.values():
        if fact["status"] in ("accepted", "rejected"):
            pull = pulls[fact["release_prs"][0]]
            resolved.append(day_of(pull.merged_at or pull.closed_at))
    days = days_from(min(arrived))

    flow = pick_flow(picture.picks.rows, TODAY)
    assert flow.arrived.values == tuple(arrived.count(day) for day in days)
    assert flow.resolved.values == tuple(resolved.count(day) for day in days)
    assert flow.pending.values[-1] == len(arrived) - len(resolved) > 0


def test_each_repositorys_ci_history_is_its_newest_required_runs_on_the_release_branch(picture, sandbox, sandbox_world):
    mark = {"success": "✓", "failure": "✗", None: "·"}
    for target in sandbox.config.ci:
        runs = [
            r
            for r in sandbox_world.repos[target.repository].workflow_runs
            if r.head_branch == target.branch and r.event == "push" and r.name in target.required_workflows
        ]
        newest = sorted(runs, key=lambda r: (r.created_at, r.id), reverse=True)[:20]
        want = "".join(mark[r.conclusion if r.status == "completed" else None] for r in reversed(newest))

        history = next(h for h in picture.ci.history if h.repository == target.repository)
        assert outcome_line(ci_strip(history)) == want, target.repository

    torchlet = ci_strip(next(h for h in picture.ci.history if h.repository == sandbox_world.repository))
    assert torchlet.first_red is not None and torchlet.first_red.conclusion == "failure"
    assert sandbox_world.ci_repositories[sandbox_world.repository] == "red"


def test_the_report_draws_the_trends_as_text(picture):
    markdown = render_markdown(picture, TODAY)
    section = markdown.split("### Trends", 1)[1]
    flow = pick_flow(picture.picks.rows, TODAY)
    assert "- Milestone burn-down, open items" in section
    assert "pending  `" in section and f"{flow.pending.values[-1]} now" in section
    assert "| `acme/torchlet` @ `release/2.5` |" in section
