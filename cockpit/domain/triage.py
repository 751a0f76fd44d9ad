"""A patch release's triage: the candidates labelled for triage review, and the release manager's
answers to the patch-release criteria."""

from __future__ import annotations

from dataclasses import dataclass

from cockpit.domain.github import MilestoneItem

# The patch-release criteria of the process document, as questions; a "yes" to each argues for the patch.
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("breaks_core", "Breaks core or first-party domain-library functionality?"),
    ("regression", "Regression from the previous release?"),
    ("no_workaround", "No viable workaround?"),
)
QUESTION_KEYS = tuple(key for key, _ in QUESTIONS)


@dataclass(frozen=True)
class TriageAnswers:
    """The release manager's answers, by question key; a question not answered yet is absent."""

    answers: tuple[tuple[str, bool], ...] = ()

    def get(self, key: str) -> bool | None:
        return dict(self.answers).get(key)

    @property
    def verdict(self) -> str:
        """ "fits" when every criterion is met, "does not fit" when any is not, "open" while unanswered."""
        values = [self.get(key) for key in QUESTION_KEYS]
        if any(v is False for v in values):
            return "does not fit"
        return "fits" if all(v is True for v in values) else "open"


@dataclass(frozen=True)
class TriageCandidate:
    """An issue or PR labelled for triage review that is not in the patch milestone yet."""

    item: MilestoneItem
    answers: TriageAnswers = TriageAnswers()
    repository: str = ""

    @property
    def number(self) -> int:
        return self.item.number

    @property
    def html_url(self) -> str:
        return self.item.html_url


@dataclass(frozen=True)
class TriageAnswer:
    """One answer to record: ``value`` None clears it."""

    candidate: TriageCandidate
    question: str
    value: bool | None


@dataclass(frozen=True)
class TriageReport:
    """The triage pane's answer: the candidates, the label that makes one, and the patch milestone."""

    candidates: tuple[TriageCandidate, ...]
    label: str
    milestone_title: str
    milestone_number: int
