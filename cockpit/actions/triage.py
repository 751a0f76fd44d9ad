"""Triage actions: answer a patch-release criterion (kept in the state file), add a candidate to the
patch milestone, or drop its triage label."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from cockpit.actions.intents import DONE, NOT_DONE, Finding, Intent
from cockpit.actions.registry import Action, ActionRegistry, Danger
from cockpit.domain.triage import QUESTIONS, TriageAnswer, TriageCandidate
from cockpit.services.triage import answers_key

if TYPE_CHECKING:
    from cockpit.ports import Ports

_QUESTION = dict(QUESTIONS)


def register(reg: ActionRegistry, backend: Ports) -> None:
    repo = backend.repository

    def label() -> str:
        from cockpit.loaders.triage import triage_label

        return triage_label(backend)

    def milestone_number() -> int:
        from cockpit.loaders.milestone import MILESTONE_REUSE_S, fetch_milestone

        return fetch_milestone(backend, reuse_within=MILESTONE_REUSE_S)[0].number

    def add(candidate: TriageCandidate) -> str:
        number = milestone_number()
        backend.github.set_milestone(repo, candidate.number, number)
        return f"#{candidate.number} added to the patch milestone ({number})"

    reg.register(
        Action(
            "triage.add_to_milestone",
            "Add to the patch milestone",
            Danger.MUTATING,
            "triage",
            run=add,
            describe=lambda c: f'PATCH /repos/{repo}/issues/{c.number} {{"milestone": {milestone_number()}}}',
        )
    )

    def drop(candidate: TriageCandidate) -> str:
        if label() not in backend.github.issue(repo, candidate.number).labels:  # removed by an attempt cut short
            return f"#{candidate.number} no longer has the label {label()!r}; nothing removed"
        backend.github.remove_label(repo, candidate.number, label())
        return f"label {label()!r} removed from #{candidate.number}"

    def dropped(intent: Intent) -> Finding:
        number = int(intent.what.lstrip("#"))
        if intent.key in backend.github.issue(intent.where, number).labels:
            return Finding(NOT_DONE, f"#{number} still has the label {intent.key!r}")
        return Finding(DONE, f"#{number} no longer has the label {intent.key!r} on GitHub")

    reg.register(
        Action(
            "triage.drop_label",
            "Drop the triage label",
            Danger.MUTATING,
            "triage",
            run=drop,
            describe=lambda c: f"DELETE /repos/{repo}/issues/{c.number}/labels/{quote(label(), safe='')}",
            intent=lambda c: Intent("label", repo, f"#{c.number}", label()),
            look=dropped,
        )
    )

    def answer(target: TriageAnswer) -> str:
        key = answers_key(repo, target.candidate.number)
        backend.state.set_triage_answer(key, target.question, target.value)
        said = {True: "yes", False: "no", None: "not answered"}[target.value]
        return f"#{target.candidate.number}: {_QUESTION.get(target.question, target.question)} {said}"

    def answer_applicable(target: TriageAnswer) -> str | None:
        return None if target.question in _QUESTION else f"no triage question {target.question!r}"

    reg.register(
        Action(
            "triage.answer",
            "Answer a patch-release criterion",
            Danger.MUTATING,
            "triage",
            run=answer,
            applicable=answer_applicable,
            describe=lambda t: (
                f"record in {backend.state.path}: #{t.candidate.number} {t.question} = "
                f"{'unanswered' if t.value is None else str(t.value).lower()}"
            ),
            label=lambda t: f"#{t.candidate.number} {t.question}",
            local=True,
        )
    )
