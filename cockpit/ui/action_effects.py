"""One action, every pane current (issue 32): what each action changes, and the panes that then load again.

An action's own pane follows its result itself (it reloads or redraws in its ``on_done``). The other panes
that show what the action changed load again here, once the action succeeded, after the backend was told
to reuse nothing it read of theirs before (``Backend.forget_reused``): removing a PR from the milestone
takes it out of the branch diff at once, not at the next ``r``. A pane not yet mounted loads fresh anyway.

A pane whose gates change reports them, and the checklist and the overview follow those gates as they
always do; so the table names only the panes whose own data the action changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.ui.host import host_of

if TYPE_CHECKING:
    from textual.widget import Widget

CHANGES: dict[str, tuple[str, ...]] = {
    "milestone.remove": ("milestone", "branch"),  # the branch diff judges the milestone's items
    "triage.add_to_milestone": ("triage", "milestone", "branch"),
    "triage.answer": ("triage",),
    "triage.drop_label": ("triage",),
    "milestone.validate": ("milestone", "checklist"),  # the validation comments are a checklist step's evidence
    "milestone.validate_all": ("milestone", "checklist"),
    "milestone.validation_issue": ("milestone", "checklist"),
    "milestone.release_tracker": ("picks", "checklist"),
    "picks.merge": ("picks", "ci"),  # the release branch moved: its CI starts again
    "picks.reply": ("picks",),
    "picks.bot_command": ("picks",),
    "picks.confirm_reading": ("picks",),
    "ci.rerun": ("ci",),
    "checklist.rc_tag": ("checklist", "ci"),  # the new tag's builds are a row of the CI pane
    "overview.publish_status": ("checklist",),  # the team's sign-offs are read back from the tracker
}
"""Action id -> the panes whose data it changes. Actions under ``checklist.`` and ``workflow.`` change the
checklist's (its evidence, runs and gates); an action not named changes nothing another pane shows."""


def changed_by(action_id: str) -> tuple[str, ...]:
    """The panes whose data ``action_id`` changes."""
    if action_id in CHANGES:
        return CHANGES[action_id]
    if action_id.startswith(("checklist.", "workflow.")):
        return ("checklist",)
    return ()


def follow(widget: Widget, action_id: str, acted_from: str) -> None:
    """After ``action_id`` succeeded from pane ``acted_from``: forget what the panes it changed had read, and
    load every one of them again but ``acted_from`` (which follows its own action, after this: what it reads
    again is read fresh)."""
    host = host_of(widget)
    panes = changed_by(action_id)
    if host is None or not panes:
        return
    host.backend.forget_reused(panes)
    for name in panes:
        pane = host.mounted_pane(name)
        if name != acted_from and pane is not None and pane.report is not None:
            pane.reload()
