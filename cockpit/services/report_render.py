"""Render the release picture as Markdown (to paste into the tracker) or JSON (for scripts).

The Markdown is GitHub-flavoured and safe to paste: every outside string goes through the shared
escaper (``cockpit.services.markdown``): one line, capped, no link, image, emphasis or HTML from it,
logins and @mentions in code spans so pasting the report pings nobody; the whole report stays under
GitHub's comment limit with a visible "… (cut)" line.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime
from enum import Enum
from typing import Any

from cockpit.domain.commits import Verdict
from cockpit.domain.gates import GateStatus
from cockpit.domain.github import OMIT_WHEN_EMPTY
from cockpit.domain.reports import ReleasePicture, RepoReport
from cockpit.domain.stamps import utc_stamp
from cockpit.services.blame_words import blame_lines
from cockpit.services.markdown import SENTENCE_LIMIT, cap_comment, md_code, md_link, md_login, md_text
from cockpit.services.storage import problems_by_variant
from cockpit.services.trends_text import trends_markdown

_EVIDENCE_LINES = 8  # of a step's gate details under it in the checklist section
_MARK = {GateStatus.GREEN: "✅", GateStatus.AMBER: "🟡", GateStatus.RED: "❌", GateStatus.UNKNOWN: "❔"}


def to_jsonable(value: Any) -> Any:
    """Dataclasses, enums, dates and tuples as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get(OMIT_WHEN_EMPTY) and not getattr(value, f.name))
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime) and value.tzinfo is not None:  # one format everywhere: UTC with Z, as GitHub
        return utc_stamp(value)  # and the state file write it
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    return value


def render_json(picture: ReleasePicture) -> str:
    data = to_jsonable(picture)
    if not picture.repos:  # a single-repository release reads as it always did
        del data["repos"]
    return json.dumps(data, indent=2, ensure_ascii=False)


def _cell(text: Any) -> str:
    """A sentence of ours around outside text (a summary, an error, a reason), escaped and capped."""
    return md_text(text, limit=SENTENCE_LIMIT)


def render_markdown(picture: ReleasePicture, today: date | None = None) -> str:
    """The picture as GitHub Markdown; with ``today``, a "Trends" section draws the pictures up to that day."""
    v = picture.verdict
    lines = [
        f"## Release {md_text(picture.version)} ({md_text(picture.repository)}, {md_code(picture.branch)}): "
        f"{'GO' if v.go else 'NO-GO'}",
        "",
    ]
    lines += _patch_phase(picture)
    lines += ["| gate | status | summary |", "|---|---|---|"]
    for gate in picture.gates.values():
        lines.append(f"| {md_text(gate.title)} | {_MARK[gate.status]} {gate.status.value} | {_cell(gate.summary)} |")
    if v.reasons:
        lines += ["", "**Why not go:**", *(f"- {_cell(reason)}" for reason in v.reasons)]
    if v.overrides:
        lines += ["", "**Signed by hand over a gate that is not green (overrides):**"]
        lines += [f"- ⚑ {_cell(line)}" for line in v.overrides]
    for pane, error in picture.errors.items():
        lines += ["", f"**{pane}** could not be loaded: {_cell(error)}"]
    lines += _milestone(picture) + _branch(picture) + _picks(picture) + _ci(picture) + _storage(picture)
    for repo in picture.repos:  # each domain library of the release, after the core's own sections
        lines += _section(
            f"{md_text(repo.name)}: {md_text(repo.repository)} {md_text(repo.version)}, {md_code(repo.branch)}",
            _library(repo),
        )
    if today is not None:
        lines += _section("Trends", trends_markdown(picture, today))
    lines += _checklist(picture)
    return cap_comment("\n".join(lines) + "\n", whole="`cockpit report --format json`")


def _library(repo: RepoReport) -> list[str]:
    """A domain library: each gate that is not green, what its branch misses, what could not be loaded."""
    rows = [
        f"- {md_text(g.title)}: {_MARK[g.status]} {g.status.value}: {_cell(g.summary)}"
        for g in repo.gates
        if g.status is not GateStatus.GREEN
    ] or ["- every gate green"]
    if repo.branch_diff is not None:
        rows += [
            f"- #{i.number} {md_text(i.title)}: **{i.verdict.value}**"
            for i in repo.branch_diff.diff.items
            if i.verdict in (Verdict.MISSING, Verdict.LANDED_MODIFIED, Verdict.NEEDS_REVIEW)
        ]
    rows += [f"- {md_text(pane)} could not be loaded: {_cell(error)}" for pane, error in repo.errors.items()]
    return rows


def _patch_phase(p: ReleasePicture) -> list[str]:
    """A patch release's phase line and its phase gates, before the pane gates."""
    if not p.patch_phase:
        return []
    rows = [f"**{_cell(p.patch_phase)}**", "", "| phase | status | summary |", "|---|---|---|"]
    for gate in p.phase_gates.values():
        rows.append(f"| {md_text(gate.title)} | {_MARK[gate.status]} {gate.status.value} | {_cell(gate.summary)} |")
    return [*rows, ""]


def _section(title: str, rows: list[str]) -> list[str]:
    return ["", f"### {title}", "", *rows] if rows else []


def _milestone(p: ReleasePicture) -> list[str]:
    if not p.milestone:
        return []
    rows = [
        f"- {md_link(f'#{i.number}', i.html_url)} {md_text(i.title)} ({i.kind.value}, {i.state.value})"
        for i in p.milestone.items
        if i.state.is_open
    ]
    return _section(f"Open in milestone {md_text(p.milestone.milestone.title)}", rows)


def _branch(p: ReleasePicture) -> list[str]:
    if not p.branch_diff:
        return []
    d = p.branch_diff.diff
    rows = [
        f"- #{i.number} {md_text(i.title)}: **{i.verdict.value}**"
        + (f" ({', '.join(e.kind.value for e in i.evidence)})" if i.evidence else "")
        for i in d.items
        if i.verdict in (Verdict.MISSING, Verdict.LANDED_MODIFIED, Verdict.NEEDS_REVIEW)
    ]
    rows += [f"- revert owed: {md_code(r.revert_sha[:12])} {md_text(r.revert_subject)}" for r in d.reverts_to_propagate]
    rows += [f"- missing in main: {md_code(c.sha[:12])} {md_text(c.subject)}" for c in d.missing_in_main]
    return _section("Branch diff", rows)


def _picks(p: ReleasePicture) -> list[str]:
    if not p.picks:
        return []
    rows = []
    for row in p.picks.rows:
        if row.pending or row.flags:
            prs = ", ".join(md_text(r.label(p.repository)) for r in row.request.trunk_prs) or "-"
            flags = ", ".join(f.value for f in row.flags)
            mentioned = ", ".join(md_text(r.label(p.repository)) for r in row.request.mentioned_prs)
            rows.append(
                f"- {md_login(row.request.author)}: trunk {prs} · {row.status.value}"
                + (f" · {flags}" if flags else "")
                + (f" · mentions {mentioned}" if mentioned else "")
            )
    rows += [f"- merged without a request: #{pr.number} {md_text(pr.title)}" for pr in p.picks.unrequested]
    return _section("Cherry-picks needing attention", rows)


def _ci(p: ReleasePicture) -> list[str]:
    if not p.ci:
        return []
    rows = [
        f"- {md_text(v.repository)} {md_code(v.ref)}: {_MARK[v.status]} {_cell(v.reason)}"
        for v in (*p.ci.branches, *p.ci.rc_builds)
    ]
    for blame in p.ci.blames:  # which commits lie between green and red
        head, *commits = blame_lines(blame)
        rows.append(f"- {md_code(blame.ref)}: {_cell(head)}")
        rows += [f"  - {_cell(line.strip())}" for line in commits]
    return _section("CI", rows)


def _storage(p: ReleasePicture) -> list[str]:
    if not p.storage:
        return []
    report = p.storage.report
    rows = []
    for heading, problems in problems_by_variant(report):
        indent = ""
        if heading:  # accelerator sub-indexes: what is missing, variant by variant
            rows.append(f"- {md_text(heading)}")
            indent = "  "
        rows += [f"{indent}- {md_text(x.kind)}: {md_code(x.filename)} {_cell(x.detail)}" for x in problems]
    if report.published_on_pypi:
        rows.append(f"- {md_text(p.version)} is already on PyPI: the upload step is done and locked")
    return _section(f"Release candidate artifacts ({len(report.expected)} expected)", rows)


def _checklist(p: ReleasePicture) -> list[str]:
    required = [v for v in p.checklist.steps if v.step.required]
    rows = [f"{sum(v.done for v in required)} of {len(required)} required steps done."]
    section = None
    for view in p.checklist.steps:
        if view.step.section != section:
            section = view.step.section
            rows += ["", f"**{md_text(section)}**", ""]
        mark = "x" if view.done else " "
        if view.override:
            who = (
                f" — ⚑ **override** ({view.gate.status.value if view.gate else 'unknown'} gate): {_cell(view.override)}"
            )
        elif view.locked:
            who = f" — {_cell(view.locked)}"
        elif view.signoff and view.signoff.done and view.signoff.who:
            who = f" — signed by {md_text(view.signoff.who)}, {md_text(view.signoff.when)}"
        elif view.gate is not None:
            who = f" — {view.gate.status.value}: {_cell(view.gate.summary)}"
        else:
            who = ""
        note = f" ({_cell(view.signoff.note)})" if view.signoff and view.signoff.note else ""
        optional = "" if view.step.required else " _(optional)_"
        rows.append(f"- [{mark}] {md_text(view.step.title)}{optional}{who}{note}")
        if view.gate is not None and view.gate.status is not GateStatus.GREEN and view.step.kind.judged:
            rows += [f"  - {_cell(detail)}" for detail in view.gate.details[:_EVIDENCE_LINES]]
        if view.signoff is not None and view.signoff.problem:
            rows.append(f"  - {_cell(view.signoff.problem)}")
    return _section("Checklist", rows)
