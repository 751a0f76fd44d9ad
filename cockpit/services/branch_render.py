"""The branch diff in words: rows ordered by what needs action, short evidence, JSON/Markdown/text.

Pane 4 and ``cockpit missing-in-branch`` both read the report through ``attention_rows``, so the
screen and the script list the same rows in the same order with the same evidence words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cockpit.domain.commits import (
    BranchDiffReport,
    CommitRecord,
    Evidence,
    EvidenceKind,
    ItemDiff,
    PickPrediction,
    RevertOwed,
    Verdict,
)
from cockpit.services.markdown import SENTENCE_LIMIT, cap_comment, md_text
from cockpit.services.pick_words import pick_json, pick_lines, pick_word

# Sections in the order a release manager acts on them; a row's rank is its section's index.
SECTIONS = (
    "missing",
    "revert owed",
    "landed modified",
    "needs review",
    "only on branch",
    "not merged",
    "open issue",
    "landed",
    "landed before cut",
    "skipped",
    "rc delta",
)
_LABEL = {
    EvidenceKind.PR_NUMBER: "#{n}",
    EvidenceKind.PR_URL: "pull/{n}",
    EvidenceKind.CHERRY_PICK_TRAILER: "trailer",
    EvidenceKind.BULK_PICK: "bulk #{n}",
    EvidenceKind.PATCH_ID: "same patch",
    EvidenceKind.BEFORE_CUT: "before cut",
}
_WHY = {
    Verdict.LANDED_MODIFIED: (
        "picked by reference, but no pick has the trunk commit's patch (edited while resolving conflicts?)"
    ),
    Verdict.LANDED: "the release branch carries the change (evidence below)",
}
_NUMBER = re.compile(r"#(\d+)|pull/(\d+)")


@dataclass(frozen=True)
class DiffRow:
    """One line of the branch diff, whatever section it comes from.

    ``shas`` are the commits a pick would take, oldest first; ``target`` is what the registry's
    branch actions act on (an ItemDiff or a RevertOwed; None for rows nothing is picked from).
    """

    section: str
    ref: str
    title: str
    evidence: str
    shas: tuple[str, ...] = ()
    target: ItemDiff | RevertOwed | None = None
    detail: tuple[str, ...] = ()
    repo: str = ""  # the short name of the repository it belongs to, in a release of several
    prediction: PickPrediction | None = None  # what its cherry-pick would do, when predicted

    @property
    def pick(self) -> str:
        """The prediction in words: applies, conflicts in N files, after #N (empty: not predicted)."""
        return pick_word(self.prediction)

    @property
    def rank(self) -> int:
        return SECTIONS.index(self.section)

    @property
    def pick_command(self) -> str:
        return " && ".join(f"git cherry-pick -x {sha}" for sha in self.shas)


def evidence_label(e: Evidence) -> str:
    """``trailer``, ``#95354``, ``pull/95354``, ``bulk #95354``, ``same patch``, ``before cut``."""
    template = _LABEL.get(e.kind, str(e.kind))
    if "{n}" not in template:
        return template
    match = _NUMBER.search(e.detail)
    return template.format(n=(match.group(1) or match.group(2))) if match else str(e.kind).replace("_", " ")


def evidence_summary(evidence: Iterable[Evidence]) -> str:
    """Evidence grouped by the commit carrying it: ``trailer 4ec8fb71, #95354; same patch 1a2b3c4d``."""
    by_commit: dict[str, list[str]] = {}
    for e in evidence:
        labels = by_commit.setdefault(e.commit, [])
        label = evidence_label(e)
        if label not in labels:
            labels.append(label)
    return "; ".join(
        f"{labels[0]} {sha[:8]}" + "".join(f", {x}" for x in labels[1:]) for sha, labels in by_commit.items()
    )


def evidence_lines(evidence: Iterable[Evidence]) -> list[str]:
    """One line per piece of evidence, with the full commit and its detail."""
    return [f"{evidence_label(e):<12} {e.commit}  {e.detail}".rstrip() for e in evidence]


def _item_row(item: ItemDiff, predicted: PickPrediction | None = None, branch: str = "") -> DiffRow:
    section = item.verdict.value.replace("_", " ")
    ev = evidence_summary(item.evidence)
    note = item.note or _WHY.get(item.verdict, "")
    detail = [
        f"Verdict: {section}",
        *([f"Why: {note}"] if note else []),
        *([f"URL: {item.html_url}"] if item.html_url else []),
        "Trunk commits:",
        *(f"  {sha}" for sha in item.commits or ("none found",)),
        "Evidence:",
        *(f"  {line}" for line in evidence_lines(item.evidence) or ("none",)),
    ]
    if item.verdict is Verdict.MISSING and item.commits:
        ev = f"not picked {item.commits[0][:8]}"
    detail += pick_lines(predicted, branch)
    shas = tuple(reversed(item.commits))
    return DiffRow(
        section, f"#{item.number}", item.title, ev or item.note, shas, item, tuple(detail), prediction=predicted
    )


def _revert_row(r: RevertOwed, predicted: PickPrediction | None = None, branch: str = "") -> DiffRow:
    pr = f" (#{r.reverted_pr})" if r.reverted_pr else ""
    how = evidence_summary(r.how)
    detail = (
        "Verdict: revert owed: main reverted a commit the release branch carries",
        f"Revert on main: {r.revert_sha}",
        f"Reverted commit: {r.reverted_sha}{pr}",
        "How the reverted commit got into the branch:",
        *(f"  {line}" for line in evidence_lines(r.how) or ("unknown",)),
        *pick_lines(predicted, branch),
        _revert_pr_line(predicted),
    )
    return DiffRow(
        "revert owed",
        r.revert_sha[:8],
        r.revert_subject,
        f"reverts {r.reverted_sha[:8]}{pr}; {how}",
        (r.revert_sha,),
        r,
        detail,
        prediction=predicted,
    )


def _revert_pr_line(p: PickPrediction | None) -> str:
    """What P (a PR from the fork for each revert owed) does with this one: a conflict means no PR."""
    if p is not None and not p.applies and not p.empty and not p.note:
        return f"Revert PR (P): none: needs a manual cherry-pick (conflicts in {', '.join(p.conflicts)})"
    if p is not None and p.empty:
        return "Revert PR (P): none: the branch already has this change"
    return "Revert PR (P): pushes cherry-pick-revert-<PR>-<X.Y> to your fork and opens it onto the release branch"


def _branch_only_row(c: CommitRecord, patterns: tuple[str, ...]) -> DiffRow:
    rule = ", ".join(patterns) or "none"
    detail = (
        "Verdict: only on the release branch: no pick of a trunk commit, not housekeeping",
        f"Commit: {c.sha}",
        *([f"Author: {c.author}"] if c.author else []),
        f"Housekeeping subjects set aside (git.release_only_patterns): {rule}",
        "Forward-port it to main, or add a pattern if it is release-only.",
    )
    return DiffRow("only on branch", c.sha[:8], c.subject, "no pick, no reference", (c.sha,), None, detail)


def _delta_rows(report: BranchDiffReport) -> list[DiffRow]:
    delta = report.rc_delta
    if delta is None:
        return []
    span = f"{delta.base}..{delta.head}"
    return [
        DiffRow("rc delta", c.sha[:8], c.subject, span, (c.sha,), None, (f"In {span}", f"Commit: {c.sha}"))
        for c in delta.commits
    ]


def attention_rows(report: BranchDiffReport) -> list[DiffRow]:
    """Every row of the report, what needs action first (stable within a section)."""
    found = {p.key: p for p in report.predictions}
    rows = [_item_row(i, found.get(f"#{i.number}"), report.branch) for i in report.items]
    rows += [_revert_row(r, found.get(r.revert_sha), report.branch) for r in report.reverts_to_propagate]
    rows += [_branch_only_row(c, report.release_only_patterns) for c in report.missing_in_main]
    rows += _delta_rows(report)
    return sorted(rows, key=lambda r: r.rank)


def needs_action(report: BranchDiffReport) -> bool:
    """Whether anything is missing or a revert is owed (``missing-in-branch`` exits 1)."""
    return bool(report.reverts_to_propagate) or any(i.verdict is Verdict.MISSING for i in report.items)


def _evidence_json(e: Evidence) -> dict[str, str]:
    return {"kind": e.kind.value, "commit": e.commit, "detail": e.detail}


def to_json(report: BranchDiffReport) -> dict[str, Any]:
    """``{"items": [...], "reverts_to_propagate": [...], "missing_in_main": [...]}``; with predictions,
    each missing item and revert owed also has ``"pick"`` (``pick_json``)."""
    picks = {p.key: pick_json(p) for p in report.predictions}
    return {
        "items": [
            {
                "number": i.number,
                "title": i.title,
                "verdict": i.verdict.value,
                "evidence": [_evidence_json(e) for e in i.evidence],
                "commits": list(i.commits),
                **({"pick": picks[f"#{i.number}"]} if f"#{i.number}" in picks else {}),
            }
            for i in report.items
        ],
        "reverts_to_propagate": [
            {
                "revert_sha": r.revert_sha,
                "revert_subject": r.revert_subject,
                "reverted_sha": r.reverted_sha,
                "reverted_pr": r.reverted_pr,
                "how": [_evidence_json(e) for e in r.how],
                **({"pick": picks[r.revert_sha]} if r.revert_sha in picks else {}),
            }
            for r in report.reverts_to_propagate
        ],
        "missing_in_main": [{"sha": c.sha, "subject": c.subject, "author": c.author} for c in report.missing_in_main],
    }


def _headline(report: BranchDiffReport, summary: str) -> str:
    return f"{report.branch or 'the release branch'} against {report.main or 'main'} (cut {report.cut[:12]}): {summary}"


def to_text(report: BranchDiffReport, summary: str) -> str:
    """One line per row, most urgent first, under a headline with the gate's summary."""
    lines = [_headline(report, summary)]
    for row in attention_rows(report):
        if row.section != "rc delta":
            pick = f"  pick: {row.pick}" if row.pick else ""
            lines.append(f"{row.section:<17} {row.ref:<9} {row.title}  [{row.evidence}]{pick}")
    return "\n".join(lines) + "\n"


_TABLE_HEAD = ("| Ref | Title | Evidence |", "| --- | --- | --- |")


def to_markdown(report: BranchDiffReport, summary: str) -> str:
    """A section per kind of row, each a table, most urgent first; outside text escaped and capped
    by the shared escaper (``cockpit.services.markdown``), the whole under GitHub's comment limit.
    With predictions, the sections of picks (missing, revert owed) have a Pick column."""
    out = [f"## Branch diff: {md_text(_headline(report, summary), limit=SENTENCE_LIMIT)}", ""]
    rows = [row for row in attention_rows(report) if row.section != "rc delta"]
    predicted = {row.section for row in rows if row.prediction is not None}
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            head = ("| Ref | Title | Evidence | Pick |", "| --- | --- | --- | --- |")
            out += ["", f"### {section.capitalize()}", "", *(head if section in predicted else _TABLE_HEAD)]
        pick = f" {md_text(row.pick)} |" if section in predicted else ""
        evidence = md_text(row.evidence, limit=SENTENCE_LIMIT)
        out.append(f"| {md_text(row.ref)} | {md_text(row.title)} | {evidence} |{pick}")
    document = "\n".join(out).replace("\n\n\n", "\n\n") + "\n"
    return cap_comment(document, whole="`cockpit missing-in-branch --format json`")
