"""Triage for a patch release: which labelled items still wait for a decision, with their answers."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from cockpit.domain.github import Milestone, MilestoneItem
from cockpit.domain.triage import QUESTION_KEYS, TriageAnswers, TriageCandidate, TriageReport


def answers_key(repository: str, number: int) -> str:
    """Where an item's answers live in the state file: ``owner/name#N``."""
    return f"{repository}#{number}"


def answers_from(raw: Mapping[str, object]) -> TriageAnswers:
    """The answers of one item as the state file holds them; anything but a known key with a bool is ignored."""
    return TriageAnswers(tuple((k, v) for k in QUESTION_KEYS if isinstance(v := raw.get(k), bool)))


def triage_report(
    labelled: Iterable[MilestoneItem],
    *,
    milestone: Milestone,
    in_milestone: Collection[int],
    answers: Mapping[str, Mapping[str, object]],
    repository: str,
    label: str,
) -> TriageReport:
    """The labelled items not yet in the patch milestone, oldest number first, each with its answers."""
    candidates = tuple(
        TriageCandidate(item, answers_from(answers.get(answers_key(repository, item.number), {})), repository)
        for item in sorted(labelled, key=lambda i: i.number)
        if item.number not in in_milestone and label.casefold() in {x.casefold() for x in item.labels}
    )
    return TriageReport(candidates, label, milestone.title, milestone.number)
