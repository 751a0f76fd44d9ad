"""The release's validation chores as actions: open the validation issue once, and post the validation
comment on every closed milestone issue at once.

Both preview exactly what they send (``describe``) and send what was previewed: the preview is kept
and the run uses it. Neither does anything twice when run again after a crash or a timeout that hid
a success: the issue is looked up by its exact title before it is opened, and each issue's comments
are read again just before its comment is posted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from cockpit.actions.issue_lookup import RECENT_ISSUES, look_opened, opening, titled_issues
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.validation_posts import CommentPlan, IssueDraft
from cockpit.errors import ActionRefused
from cockpit.services.milestone import validation_key

if TYPE_CHECKING:
    from cockpit.domain.github import MilestoneItem
    from cockpit.ports import Ports


def issue_key(repository: str, version: str) -> str:
    """The state file's ledger key recording the validation issue's number."""
    return f"{repository}:validation_issue:{version}"


def _counted(backend: Ports, items: Sequence[MilestoneItem]) -> list[MilestoneItem]:
    """The milestone's items without those its skip labels set aside (``release-feature-request``)."""
    skip = set(backend.config.skip_labels)
    return [i for i in items if not skip.intersection(i.labels)]


def register(reg: ActionRegistry, backend: Ports) -> None:
    rel = backend.config.release
    settings = backend.config.validation
    where = settings.repository or backend.repository
    title = settings.title_for(rel.version)
    shown: dict[str, Any] = {}  # the last preview of each action: what a confirmed run sends

    def search_query() -> str:
        words = title.replace('"', " ")
        return f'"{words}" in:title is:issue'

    def lookups() -> list[str]:
        listing = urlencode({"per_page": RECENT_ISSUES, "state": "all", "sort": "created", "direction": "desc"})
        search = urlencode({"per_page": 100, "q": f"repo:{where} {search_query()}"})
        return [f"GET /repos/{where}/issues?{listing}", f"GET /search/issues?{search}"]

    def draft(_target: Any = None) -> IssueDraft:
        from cockpit.services import validation_sections as shape

        milestone = backend.shared.milestone.last
        picks = backend.shared.picks
        if milestone is None or picks is None:
            missing = "the milestone (pane 1)" if milestone is None else "the cherry-picks (pane 2)"
            raise ActionRefused(f"{missing} has not loaded yet: the validation issue lists them")
        web = f"https://github.com/{backend.repository}"
        tracker = rel.tracker_issue
        body = shape.render(
            version=rel.version,
            branch=rel.branch,
            milestone=(milestone[0].title, milestone[0].html_url or f"{web}/milestone/{milestone[0].number}"),
            tracker=(tracker, f"{web}/issues/{tracker}") if tracker else None,
            branch_url=f"{web}/tree/{rel.branch}",
            items=shape.items_from(
                _counted(backend, milestone[1]), picks.rows, repository=backend.repository, branch=rel.branch
            ),
        )
        return IssueDraft(where, title, body)

    def describe_issue(target: Any) -> str:
        shown["issue"] = made = draft(target)
        return "\n".join(
            [
                *lookups(),
                f"(if an issue titled exactly {made.title!r} exists, it is recorded and nothing is posted)",
                f"POST /repos/{made.repository}/issues with the title {made.title!r} and this body:",
                "",
                made.body,
            ]
        )

    def issue_done(_target: Any) -> str | None:
        number = backend.state.ledger_get(issue_key(where, rel.version))
        return None if number is None else f"the validation issue is already open: #{number} (in the state file)"

    def find_by_title() -> MilestoneItem | None:
        return next(iter(titled_issues(backend.github, where, title, search=search_query())), None)

    def create_issue(target: Any) -> str:
        made: IssueDraft = shown.pop("issue", None) or draft(target)
        existing = find_by_title()
        if existing is not None:
            backend.state.ledger_put(issue_key(where, rel.version), existing.number)
            return f"the validation issue already exists: #{existing.number} {existing.html_url}; not opened again"
        issue = backend.github.create_issue(made.repository, made.title, made.body)
        backend.state.ledger_put(issue_key(where, rel.version), issue.number)
        return f"opened the validation issue #{issue.number} {issue.html_url}"

    reg.register(
        Action(
            "milestone.validation_issue",
            "Create the validation issue",
            Danger.MUTATING,
            "milestone",
            run=create_issue,
            describe=describe_issue,
            applicable=issue_done,
            label=lambda _t: f"{where}: {title}",
            intent=lambda _t: opening(where, title),
            look=lambda intent: look_opened(backend.github, intent),
        )
    )

    def comment_text(number: int) -> str:
        try:
            return backend.config.validation_comment.format(version=rel.version, number=number, branch=rel.branch)
        except (KeyError, IndexError, ValueError) as exc:
            raise ActionRefused(
                f"{backend.config.path}: key 'release.validation_comment': expected text whose placeholders are "
                f"{{version}}, {{number}} and {{branch}} ({type(exc).__name__}: {exc})"
            ) from None

    def plan(_target: Any = None) -> CommentPlan:
        from cockpit.services.validation_comments import closed_issues, comment_plan

        milestone, branch = backend.shared.milestone.last, backend.shared.branch_diff.last
        if milestone is None or branch is None:
            missing = "the milestone (pane 1)" if milestone is None else "the branch diff (pane 4)"
            raise ActionRefused(f"{missing} has not loaded yet: it decides which issues are validated")
        issues = closed_issues(_counted(backend, milestone[1]))
        comments = {i.number: backend.github.issue_comments(backend.repository, i.number) for i in issues}
        ledger = {i.number: backend.state.ledger_get(validation_key(backend.repository, i.number)) for i in issues}
        return comment_plan(
            repository=backend.repository,
            branch=rel.branch,
            text=comment_text(issues[0].number if issues else 0),
            phrase=settings.phrase_for(rel.version),
            issues=issues,
            comments=comments,
            recorded={n: v for n, v in ledger.items() if v is not None},
            diff=branch.diff.items,
        )

    def describe_all(target: Any) -> str:
        from cockpit.services.validation_comments import comment_plan_text

        shown["comments"] = made = plan(target)
        return comment_plan_text(made)

    def nothing_to_post(_target: Any) -> str | None:
        made: CommentPlan | None = shown.get("comments")
        if made is not None and not made.to_post:
            return "every closed milestone issue already has its validation comment or is skipped (see the preview)"
        return None

    def post_all(target: Any) -> str:
        from cockpit.services.validation_comments import earlier_validation

        made: CommentPlan | None = shown.pop("comments", None)
        if made is None:
            raise ActionRefused("preview first: the preview reads which issues already have a validation comment")
        posted: list[int] = []
        found: list[int] = []
        record: dict[int, int] = {}
        phrase = settings.phrase_for(rel.version)
        try:
            for step in made.to_post:
                earlier = earlier_validation(backend.github.issue_comments(backend.repository, step.number), phrase)
                if earlier is not None:  # posted meanwhile, or by an attempt whose answer was lost
                    record[step.number] = earlier.id
                    found.append(step.number)
                    continue
                comment = backend.github.create_comment(backend.repository, step.number, comment_text(step.number))
                record[step.number] = comment.id
                posted.append(step.number)
        finally:  # recorded last, after every request: the state file is held from the first change to its write
            for number, comment_id in record.items():
                backend.state.ledger_put(validation_key(backend.repository, number), comment_id)
        skipped = len(made.steps) - len(made.to_post)
        return (
            f"validation comment posted on {len(posted)} issue(s)"
            + (f"; {len(found)} already had one ({', '.join(f'#{n}' for n in found)})" if found else "")
            + (f"; {skipped} skipped" if skipped else "")
        )

    reg.register(
        Action(
            "milestone.validate_all",
            "Post the validation comment on all closed issues",
            Danger.MUTATING,
            "milestone",
            run=post_all,
            describe=describe_all,
            applicable=nothing_to_post,
            label=lambda _t: f"{backend.repository} milestone {rel.milestone}: validation comments",
        )
    )
