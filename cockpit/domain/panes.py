"""The panes as the release manager knows them: id, title and the key that jumps to each.

Declared once here so that the tabs, the overview's ``[1]`` hints, the checklist's "go to pane 4"
and the headless report agree. Pure data: the UI reads it, so do ``cockpit report`` and ``check``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PaneFacts:
    """One pane: ``id`` (``branch``), ``title`` (``Branch diff``), ``key`` (``4``) and ``report``, the
    name of the report it loads (``branch_diff``: ``Backend.load_branch_diff`` and the field of
    ``ReleasePicture``). ``judges_gates``: its report is computed from every other gate (the checklist),
    so it loads last. ``patch_only``: only a patch release has it."""

    id: str
    title: str
    key: str
    report: str
    judges_gates: bool = False
    patch_only: bool = False

    @property
    def tab_title(self) -> str:
        """ "4 Branch diff": the tab, with the key that jumps to it."""
        return f"{self.key} {self.title}"


PANES = (
    PaneFacts("milestone", "Milestone", "1", "milestone"),
    PaneFacts("branch", "Branch diff", "4", "branch_diff"),
    PaneFacts("picks", "Cherry-picks", "2", "picks"),
    PaneFacts("ci", "CI", "3", "ci"),
    PaneFacts("overview", "Overview", "0", "storage"),
    PaneFacts("checklist", "Checklist", "5", "checklist", judges_gates=True),
    PaneFacts("triage", "Triage", "6", "triage", patch_only=True),
)
"""Every pane, in the order the headless picture loads their reports: the branch diff feeds the pick
analysis, and the checklist reads every gate. The tabs go by key (``in_key_order``)."""


def pane_facts(pane_id: str) -> PaneFacts:
    """The facts of pane ``pane_id``; KeyError names an unknown one."""
    for facts in PANES:
        if facts.id == pane_id:
            return facts
    raise KeyError(f"no pane {pane_id!r}; the panes are {', '.join(p.id for p in PANES)}")


def in_key_order(*, patch: bool = False) -> tuple[PaneFacts, ...]:
    """The panes as the tabs show them (``0`` to ``6``); the patch-only ones only for a patch release."""
    return tuple(sorted((p for p in PANES if patch or not p.patch_only), key=lambda p: p.key))


def load_rank(pane_id: str) -> int:
    """Where pane ``pane_id`` comes in ``PANES`` (the headless load order)."""
    return next(i for i, facts in enumerate(PANES) if facts.id == pane_id)
