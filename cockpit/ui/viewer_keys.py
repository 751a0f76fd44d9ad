"""Which keys change something, so that a read-only session does not offer them (issue 32: "the viewer
shows what it can do").

A key changes something when its binding id is a registered action that is not ``safe`` (the binding
ids of the panes are the action ids where the key runs one action), or when it is one of
``LEADS_TO_CHANGES``: keys that open a flow ending in one of several registered actions. In a read-only
session the key line and the command palette leave these keys out, and the help lists them as off,
with why. Pressed anyway, each still says at once why nothing is done (``cockpit.ui.acting``).

``tests/e2e/test_read_only_session.py`` presses every key in a viewer and checks that the keys that
refused are exactly these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cockpit.ui.host import host_of

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.widget import Widget

    from cockpit.backend import Backend

LEADS_TO_CHANGES = frozenset(
    {
        "checklist.run",  # x: a step's command, a workflow's start, the RC tag, a tracker issue (several actions)
        "branch.revert_prs",  # P: opens PRs through the revert_prs action after a preview
        "overview.publish",  # the status comment, after its preview screen
        "triage.breaks_core",  # the three answers of the triage form: triage.answer
        "triage.regression",
        "triage.no_workaround",
        "triage.add",  # triage.add_to_milestone
        "triage.drop",  # triage.drop_label
    }
)
"""Binding ids whose key leads to a change through an action of another id."""


def changing_ids(backend: Backend) -> frozenset[str]:
    """The binding ids of every key that changes something (see the module's docstring)."""
    registered = {action.id for action in backend.actions.all() if str(action.danger) != "safe"}
    return frozenset(registered) | LEADS_TO_CHANGES


def off_in_viewer(backend: Backend, bindings: Iterable[Binding]) -> set[str]:
    """The ids among ``bindings`` that this session does not offer: those that change something, in a
    read-only session; none otherwise."""
    if not backend.read_only:
        return set()
    changing = changing_ids(backend)
    return {b.id for b in bindings if b.id and b.id in changing}


def off_here(widget: Widget, bindings: Iterable[Binding]) -> dict[str, str]:
    """``off_in_viewer`` for the session ``widget`` runs in (none outside the cockpit's app): each id that is
    off, with why (the session's read-only reason)."""
    host = host_of(widget)
    if host is None or not (off := off_in_viewer(host.backend, bindings)):
        return {}
    return dict.fromkeys(off, host.backend.actions.read_only_reason)
