"""The tables that name actions by id name real ones: a typo would silently leave a pane stale after an action
(``ui/action_effects.CHANGES``) or offer a viewer a key that changes something (``ui/viewer_keys``)."""

from __future__ import annotations

from textual.binding import Binding

from cockpit.bootstrap import build_backend
from cockpit.ui.action_effects import CHANGES, changed_by
from cockpit.ui.pane_table import PANES, PATCH_PANES, pane_class
from cockpit.ui.viewer_keys import LEADS_TO_CHANGES


def test_every_action_and_pane_the_tables_name_exists(sandbox):
    backend = build_backend(sandbox.config, read_only=True)
    try:
        registered = {action.id for action in backend.actions.all()}
    finally:
        backend.state.close()
    panes = {spec.name for spec in (*PANES, *PATCH_PANES)}
    assert set(CHANGES) <= registered, set(CHANGES) - registered
    assert {pane for changed in CHANGES.values() for pane in changed} <= panes
    bindings = {b.id for name in panes for b in pane_class(name).BINDINGS if isinstance(b, Binding)}
    assert bindings >= LEADS_TO_CHANGES, LEADS_TO_CHANGES - bindings


def test_the_checklists_and_the_workflows_actions_change_the_checklist_and_a_link_changes_nothing():
    assert changed_by("checklist.toggle") == ("checklist",)
    assert changed_by("workflow.approve") == ("checklist",)
    assert changed_by("milestone.remove") == ("milestone", "branch")
    assert changed_by("milestone.open") == ()
