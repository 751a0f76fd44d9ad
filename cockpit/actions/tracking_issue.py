"""The tracking issue ``[v.X.Y.Z] Release Day Checklist``: opened from the checklist (preview, then once; an
issue of that title already there is adopted, never doubled), then kept in step: each step done in the
cockpit gets its box ticked with its run's URL; a box ticked by hand on GitHub for a manual step the
cockpit has not signed is recorded as signed on GitHub.

The issue's number is kept in the state file's ledger. Keeping it in step reads the body fresh, changes
only the lines of the steps that turned done (another writer's ticks are kept), sends one edit, and reads
it back: when a second writer's edit landed in between and took a tick away, the tick is made once more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cockpit.actions.issue_lookup import RECENT_ISSUES, look_opened, opening, titled_issues
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.errors import ActionRefused
from cockpit.services import tracking_issue as tracking

if TYPE_CHECKING:
    from cockpit.domain.github import MilestoneItem
    from cockpit.domain.reports import StepView
    from cockpit.ports import Ports

HAND = "ticked by hand in the tracking issue"


def ledger_key(repository: str, version: str) -> str:
    return f"tracking_issue:{repository}:{version}"


def register(reg: ActionRegistry, backend: Ports) -> None:
    rel = backend.config.release
    where = backend.repository
    title = tracking.title(rel.version)

    def steps() -> tuple[StepView, ...]:
        report = backend.shared.checklist
        if report is None:
            raise ActionRefused("the checklist has not been judged yet: the tracking issue is made from it")
        return report.steps

    def number() -> int | None:
        value = backend.state.ledger_get(ledger_key(where, rel.version))
        return value if isinstance(value, int) else None

    def body_now() -> str:
        views = steps()
        return tracking.render(rel.version, views, {v.step.id: tracking.link_of(v) for v in views})

    def find_by_title() -> MilestoneItem | None:
        return next(iter(titled_issues(backend.github, where, title)), None)

    def describe_create(_target: Any) -> str:
        return "\n".join(
            [
                f"GET /repos/{where}/issues (the newest {RECENT_ISSUES}: an issue titled {title!r} is adopted)",
                f"POST /repos/{where}/issues with the title {title!r}, the label {tracking.LABEL!r} and this body:",
                "",
                body_now(),
            ]
        )

    def create(_target: Any) -> str:
        existing = find_by_title()
        if existing is not None:
            backend.state.ledger_put(ledger_key(where, rel.version), existing.number)
            return (
                f"the tracking issue already exists: #{existing.number} {existing.html_url}; adopted, not opened again"
            )
        issue = backend.github.create_issue(where, title, body_now(), labels=(tracking.LABEL,))
        backend.state.ledger_put(ledger_key(where, rel.version), issue.number)
        return f"opened the tracking issue #{issue.number} {issue.html_url}"

    reg.register(
        Action(
            "checklist.tracking_issue",
            "Open the release-day tracking issue",
            Danger.MUTATING,
            "checklist",
            run=create,
            describe=describe_create,
            applicable=lambda _t: (
                f"the tracking issue is #{number()} (in the state file): `I` keeps it in step" if number() else None
            ),
            label=lambda _t: f"{where}: {title}",
            intent=lambda _t: opening(where, title),
            look=lambda intent: look_opened(backend.github, intent),
        )
    )

    def plan() -> tuple[int, str, dict[str, str], list[str]]:
        """The issue's number, its body now, the boxes to tick (id -> link), the manual steps ticked by hand."""
        n = number()
        if n is None:
            raise ActionRefused("no tracking issue yet: `I` opens it first")
        views = steps()
        body = backend.github.issue(where, n).body
        done_here = [v.step.id for v in views if v.done]
        manual = {v.step.id for v in views if not v.step.kind.judged}
        signed = {s for s, signoff in backend.state.signoffs().items() if signoff.done}
        by_hand = [s for s in tracking.ticked_by_hand(body, done_here) if s in manual and s not in signed]
        return n, body, tracking.missing_ticks(body, views), by_hand

    def describe_sync(_target: Any) -> str:
        n, _body, ticks, by_hand = plan()
        titles = {v.step.id: v.step.title for v in steps()}
        lines = [f"GET /repos/{where}/issues/{n}"]
        if ticks:
            lines.append(f"PATCH /repos/{where}/issues/{n}: tick {len(ticks)} box(es), other lines kept as they are:")
            lines += [f"  [x] {titles[s]}{' — ' + link if link else ''}" for s, link in ticks.items()]
        lines += [f"record as signed ({HAND}): {titles[s]}" for s in by_hand]
        if not ticks and not by_hand:
            lines.append(f"nothing to tick or record: #{n} is in step with the checklist")
        return "\n".join(lines)

    def sync(_target: Any) -> str:
        n, body, ticks, by_hand = plan()
        said = []
        if ticks:
            new, ticked = tracking.tick(body, ticks)
            backend.github.edit_issue_body(where, n, new)
            back = backend.github.issue(where, n).body  # read back: a second writer may have edited meanwhile
            lost = {s: ticks[s] for s in ticked if s in tracking.missing_ticks(back, steps())}
            if lost:
                backend.github.edit_issue_body(where, n, tracking.tick(back, lost)[0])
            said.append(f"ticked {len(ticked)} box(es) in #{n}")
        for step_id in by_hand:
            backend.state.set_signoff(step_id, done=True, who=f"GitHub #{n}", note=HAND)
        if by_hand:
            said.append(f"recorded {len(by_hand)} step(s) {HAND}")
        return "; ".join(said) or f"#{n} is in step with the checklist"

    def nothing_to_do(_target: Any) -> str | None:
        if number() is None:
            return "no tracking issue yet: `I` opens it first"
        return None

    reg.register(
        Action(
            "checklist.tracking_sync",
            "Keep the tracking issue in step",
            Danger.MUTATING,
            "checklist",
            run=sync,
            describe=describe_sync,
            applicable=nothing_to_do,
            label=lambda _t: f"{where}#{number()}",
        )
    )
