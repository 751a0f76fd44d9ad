"""Pane 6 (patch releases only): the items labelled for triage review that are not in the patch
milestone yet, each with the patch-release criteria answered by the release manager; add one to
the milestone or drop its label."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cockpit.domain.gates import GateStatus
from cockpit.domain.github import ItemKind
from cockpit.domain.triage import QUESTIONS, TriageAnswer, TriageCandidate, TriageReport
from cockpit.ui.acting import perform
from cockpit.ui.detail import DetailScreen
from cockpit.ui.panes.table_pane import TablePane
from cockpit.ui.table_parts import RowSelected
from cockpit.ui.table_sort import Column, TableRow, by_text
from cockpit.ui.widgets import clip, status_text

_ANSWER_WORD = {True: "yes", False: "no", None: "?"}
_ANSWER_ORDER = {True: 0, None: 1, False: 2}
_VERDICT_STATUS = {"fits": GateStatus.GREEN, "open": GateStatus.AMBER, "does not fit": GateStatus.RED}
_VERDICT_ORDER = {"fits": 0, "open": 1, "does not fit": 2}
_SHORT = {"breaks_core": "Breaks core?", "regression": "Regression?", "no_workaround": "No workaround?"}


def _answer_column(key: str) -> Column[TriageCandidate]:
    return Column(key, _SHORT[key], lambda c: _ANSWER_ORDER[c.answers.get(key)])


COLUMNS: tuple[Column[TriageCandidate], ...] = (
    Column("number", "#", lambda c: c.number),
    Column("kind", "Kind", by_text(lambda c: "PR" if c.item.kind is ItemKind.PULL else "issue")),
    Column("title", "Title", by_text(lambda c: c.item.title), width=56),
    *(_answer_column(key) for key, _question in QUESTIONS),
    Column("verdict", "Criteria", lambda c: _VERDICT_ORDER[c.answers.verdict]),
)


class TriagePane(TablePane):
    """Triage candidates; ``1``/``2``/``3`` cycle the answer to each criterion (yes, no, unanswered)."""

    PANE = "triage"
    SUMMARY_CLASSES = "pane-filter"
    COLUMNS = COLUMNS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "b",
            "answer('breaks_core')",
            "Breaks core?",
            id="triage.breaks_core",
            tooltip="Answer: does it break core or first-party domain-library functionality? (yes, no, unset)",
        ),
        Binding(
            "e",
            "answer('regression')",
            "Regression?",
            id="triage.regression",
            tooltip="Answer: is it a regression from the previous release? (yes, no, unset)",
        ),
        Binding(
            "w",
            "answer('no_workaround')",
            "No workaround?",
            id="triage.no_workaround",
            tooltip="Answer: is there no viable workaround? (yes, no, unset)",
        ),
        Binding(
            "m",
            "add_to_milestone",
            "Add to milestone",
            id="triage.add",
            tooltip="Add the selected item to the patch milestone",
        ),
        Binding(
            "x", "drop_label", "Drop label", id="triage.drop", tooltip="Remove the triage label from the selected item"
        ),
        Binding("o", "open", "Open", id="triage.open", tooltip="Open the selected item in the browser"),
        Binding("enter", "detail", "Detail", show=False, id="triage.detail", tooltip="Show the selected item in full"),
    ]

    _wanted: dict[tuple[int, str], bool | None]
    """Answers asked for and not yet written, by (item number, question), in the order asked."""
    _written: dict[tuple[int, str], bool | None]
    """Answers written since the last reload."""
    _writing = False

    def __init__(self, backend: Any, **kwargs: Any) -> None:
        super().__init__(backend, **kwargs)
        self._wanted, self._written = {}, {}

    def fetch(self) -> TriageReport:
        return self.backend.load_triage()

    def show(self, report: TriageReport) -> None:
        self.draw_rows(self._row(c) for c in report.candidates)
        fits = sum(1 for c in report.candidates if c.answers.verdict == "fits")
        line = (
            f"{len(report.candidates)} labelled {report.label!r}, not in milestone {report.milestone_title} · "
            f"{fits} meet every criterion · b/e/w answer, m add to the milestone, x drop the label"
        )
        self.query_one(".pane-filter", Static).update(Text(line))

    def _row(self, c: TriageCandidate) -> TableRow[TriageCandidate]:
        verdict = c.answers.verdict
        cells = (
            Text(f"#{c.number}"),
            Text("PR" if c.item.kind is ItemKind.PULL else "issue"),
            clip(c.item.title, 56),
            *(Text(_ANSWER_WORD[c.answers.get(key)]) for key, _q in QUESTIONS),
            status_text(self, _VERDICT_STATUS[verdict], verdict),
        )
        return TableRow(str(c.number), c, cells)

    def selected_candidate(self) -> TriageCandidate | None:
        key = self.selected_key()
        report: TriageReport | None = self.report
        found = next((c for c in report.candidates if str(c.number) == key), None) if report and key else None
        if found is None:
            self.notify("No item selected.", severity="warning")
        return found

    def selected_link(self) -> str | None:
        c = self.selected_candidate()
        return c.html_url if c is not None else None

    def action_answer(self, question: str) -> None:
        """Cycle the answer (yes, no, unset) from the last one asked for, not the last one read: two quick
        presses are two steps (issue 32). Answers are written one at a time, in the order asked."""
        c = self.selected_candidate()
        if c is None:
            return
        target = TriageAnswer(c, question, None)
        refusal = self.backend.actions.refusal("triage.answer", target)
        if refusal:  # said before anything is kept as asked for
            self.notify(refusal, title="Not done", severity="warning", markup=False)
            return
        key = (c.number, question)
        current = self._wanted.get(key, c.answers.get(question))
        self._wanted[key] = {None: True, True: False, False: None}[current]
        self._write_next()

    def _write_next(self) -> None:
        """Write the first answer asked for that is not written yet; reload once none is left."""
        if self._writing or self.report is None:
            return
        for (number, question), value in list(self._wanted.items()):
            c = next((c for c in self.report.candidates if c.number == number), None)
            if c is None or self._written.get((number, question), c.answers.get(question)) == value:
                del self._wanted[(number, question)]
                continue
            self._writing = True

            def done(ok: bool, key: tuple[int, str] = (number, question), value: bool | None = value) -> None:
                self._writing = False
                if ok:
                    self._written[key] = value
                else:
                    self._wanted.pop(key, None)  # said in the notice; not asked again
                self._write_next()

            perform(self, self.PANE, "triage.answer", TriageAnswer(c, question, value), confirm=False, on_done=done)
            return
        if self._written:
            self._written.clear()
            self.reload()

    def _reload_if_done(self, ok: bool) -> None:
        if ok:
            self.reload()

    def _act(self, action_id: str) -> None:
        c = self.selected_candidate()
        if c is not None:
            perform(self, self.PANE, action_id, c, on_done=self._reload_if_done)

    def action_add_to_milestone(self) -> None:
        self._act("triage.add_to_milestone")

    def action_drop_label(self) -> None:
        self._act("triage.drop_label")

    def action_open(self) -> None:
        c = self.selected_candidate()
        if c is not None:
            perform(self, self.PANE, "triage.open", c)

    def on_rows_table_row_selected(self, event: RowSelected) -> None:
        event.stop()
        self.action_detail()

    def action_detail(self) -> None:
        c = self.selected_candidate()
        if c is None:
            return
        lines = (
            f"{'Pull request' if c.item.kind is ItemKind.PULL else 'Issue'}"
            + (f" · by {c.item.author}" if c.item.author else ""),
            "Labels: " + (", ".join(c.item.labels) or "none"),
            *(f"{question} {_ANSWER_WORD[c.answers.get(key)]}" for key, question in QUESTIONS),
            f"Patch-release criteria: {c.answers.verdict}",
            c.item.html_url,
        )
        self.app.push_screen(DetailScreen(f"#{c.number} {c.item.title}", lines=lines, markdown=c.item.body or None))


__all__ = ["TriagePane"]
