"""Triage pane: the items labelled for triage review (one paged list call) minus those already in
the patch milestone (the milestone's list, shared with the milestone pane), with the answers kept
in the state file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockpit.domain.schedule import DEFAULT_TRIAGE_LABEL
from cockpit.domain.triage import TriageReport

if TYPE_CHECKING:
    from cockpit.ports import Ports


def triage_label(backend: Ports) -> str:
    """The label that makes an item a triage candidate (``schedule.triage_label``)."""
    schedule = backend.config.schedule
    return schedule.triage_label if schedule is not None else DEFAULT_TRIAGE_LABEL


def load_triage(backend: Ports) -> TriageReport:
    from cockpit.loaders.milestone import fetch_milestone
    from cockpit.services.triage import triage_report

    label = triage_label(backend)
    # Read afresh (304s when unchanged): an item just added to the milestone must leave the list.
    milestone, items = fetch_milestone(backend)
    labelled = backend.github.issues(backend.repository, labels=label, state="open")
    return triage_report(
        labelled,
        milestone=milestone,
        in_milestone={i.number for i in items},
        answers=backend.state.triage_answers(),
        repository=backend.repository,
        label=label,
    )
