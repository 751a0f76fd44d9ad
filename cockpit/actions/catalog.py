"""Every action the cockpit offers, registered against a backend's adapters.

Targets are domain objects: a ``MilestoneItem``, a ``PickRow``, a ``RepoCIVerdict``, an
``ItemDiff``, a checklist step id. Each action's ``describe`` is its exact dry-run text.
"""

from __future__ import annotations

import webbrowser
from typing import TYPE_CHECKING, Any

from cockpit.actions import (
    branch,
    checklist,
    ci,
    milestone,
    picks,
    publish,
    rc_tag,
    release_merge,
    release_tracker,
    release_workflows,
    revert_prs,
    tracking_issue,
    triage,
    validation,
)
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.errors import ActionRefused

if TYPE_CHECKING:
    from cockpit.ports import Ports


def _open(url: str) -> str:
    if not url:
        raise ActionRefused("this row has no URL to open")
    if not webbrowser.open(url):  # False: no browser could be started here (a server, a bare terminal)
        return f"no browser on this machine; the address: {url}"
    return f"opened {url}"


def register_actions(reg: ActionRegistry, backend: Ports) -> None:
    """Register the milestone, cherry-pick, CI, branch-diff and checklist actions in ``reg``."""

    def url_of(target: Any) -> str:
        return getattr(target, "html_url", "") or getattr(getattr(target, "request", None), "html_url", "")

    for pane in ("milestone", "picks", "ci", "branch", "triage"):
        reg.register(
            Action(
                f"{pane}.open",
                "Open in browser",
                Danger.SAFE,
                pane,
                run=lambda t: _open(url_of(t)),
                describe=lambda t: f"open {url_of(t)}",
            )
        )

    for module in (
        milestone,
        validation,
        picks,
        release_merge,
        ci,
        branch,
        checklist,
        rc_tag,
        triage,
        publish,
        release_workflows,
        tracking_issue,
        release_tracker,
        revert_prs,
    ):
        module.register(reg, backend)
