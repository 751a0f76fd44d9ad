"""The release team's tracking issue, ``[v.X.Y.Z] Release Day Checklist``: its body from the checklist, and
the ticks kept in step with it. Pure.

Shape, from pytorch/test-infra ``.claude/skills/release-day-checklist/`` (SKILL.md step 2 and
checklist-template.md, commit 4dd9d5cdc): the title ``[v.{VERSION}] Release Day Checklist``, the label
``release tracker``, a legend line, one ``##`` heading per section, one ``- [ ]`` box per step marked
*auto*, *gate* or *manual*, and, as each step completes, its box ticked with the workflow run's URL
beside it ("Record the workflow-run URL next to each item as it completes").

Each box carries the step's id in an HTML comment (``<!-- cockpit:stage_pypi_run -->``, not shown on
GitHub), so a box is found again however its text was edited. Ticking changes only the lines of the
steps that turned done; every other line, another writer's ticks included, is kept as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from cockpit.domain.checklist import StepKind
from cockpit.domain.reports import StepView
from cockpit.domain.text import inert

TITLE_FORM = "[v.{version}] Release Day Checklist"
"""pytorch/test-infra .claude/skills/release-day-checklist/SKILL.md (4dd9d5cdc), step 2."""
LABEL = "release tracker"
"""The label the runbook puts on it (same skill, step 2)."""
KIND_WORD = {StepKind.AUTOMATIC: "auto", StepKind.GATE: "gate", StepKind.MANUAL: "manual"}
_MARK = re.compile(r"<!--\s*cockpit:([A-Za-z0-9_.-]+)\s*-->")
_BOX = re.compile(r"^(\s*[-*]\s+\[)([ xX])(\]\s+)")
_URL = re.compile(r"https://[^\s)>\]\"']+")


def title(version: str) -> str:
    return TITLE_FORM.format(version=version)


def render(version: str, steps: Sequence[StepView], links: Mapping[str, str]) -> str:
    """The body of a new tracking issue: every step of the checklist, ticked when done (with its link)."""
    lines = [
        f"# {title(version)}",
        "",
        f"Tracking issue for the {version} go-live, kept by the release cockpit. Legend: **auto** (a workflow "
        "does it) · **gate** (a validation must pass) · **manual** (a person acts). Each ticked item has its "
        "workflow run's URL beside it.",
    ]
    section = None
    for view in steps:
        step = view.step
        if step.section != section:
            section = step.section
            lines += ["", f"## {inert(section)}"]
        file = f" (`{step.workflow.file_name}`)" if step.workflow is not None else ""
        box = "x" if view.done else " "
        link = f" — {links[step.id]}" if view.done and links.get(step.id) else ""
        words = f"{inert(step.title)} — *{KIND_WORD.get(step.kind, step.kind.value)}*{file}"
        lines.append(f"- [{box}] {words}{link} <!-- cockpit:{step.id} -->")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Box:
    """One step's box in the issue as it stands: ticked or not, on which line."""

    step_id: str
    ticked: bool
    line: int


def boxes(body: str) -> dict[str, Box]:
    """The step boxes of ``body`` by step id (the first box of each id; boxes without a mark are not ours)."""
    found: dict[str, Box] = {}
    for number, line in enumerate(body.splitlines()):
        mark, box = _MARK.search(line), _BOX.match(line)
        if mark and box and mark.group(1) not in found:
            found[mark.group(1)] = Box(mark.group(1), box.group(2) in "xX", number)
    return found


def tick(body: str, done: Mapping[str, str]) -> tuple[str, list[str]]:
    """``body`` with the box of each step in ``done`` (id -> link, "" for none) ticked and its link added;
    the ids ticked now. Boxes already ticked, and every other line, are left exactly as they are."""
    lines = body.split("\n")
    ticked = []
    for step_id, box in boxes(body).items():
        if box.ticked or step_id not in done:
            continue
        line = lines[box.line]
        line = _BOX.sub(lambda m: f"{m.group(1)}x{m.group(3)}", line, count=1)
        link = done[step_id]
        if link and link not in line:
            mark = _MARK.search(line)
            assert mark is not None  # boxes() found it on this line
            line = f"{line[: mark.start()].rstrip()} — {link} {line[mark.start() :]}"
        lines[box.line] = line
        ticked.append(step_id)
    return "\n".join(lines), ticked


def ticked_by_hand(body: str, done_here: Iterable[str]) -> list[str]:
    """The steps whose box is ticked in the issue but that the cockpit does not count as done."""
    here = set(done_here)
    return [step_id for step_id, box in boxes(body).items() if box.ticked and step_id not in here]


def link_of(view: StepView) -> str:
    """The URL that shows a done step was done: the first https URL of its gate's summary or details."""
    if view.gate is None:
        return ""
    for text in (view.gate.summary, *view.gate.details):
        found = _URL.search(text)
        if found:
            return found.group(0).rstrip(".,;")
    return ""


def missing_ticks(body: str, steps: Sequence[StepView]) -> dict[str, str]:
    """Step id -> link for each step done in the cockpit whose box in ``body`` is not ticked yet."""
    have = boxes(body)
    return {v.step.id: link_of(v) for v in steps if v.done and v.step.id in have and not have[v.step.id].ticked}
