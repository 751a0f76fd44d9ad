"""What a checklist step says about itself: its mark, its state, its evidence, what to do next.

Shared by the checklist pane, its detail view and the walkthrough, so the three agree.
"""

from __future__ import annotations

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.panes import pane_facts
from cockpit.domain.reports import StepView
from cockpit.gates import registry
from cockpit.services.checklist import lapsed_override
from cockpit.ui.widgets import STATUS_WORD

GATE_PANES = {
    spec.name: (pane_facts(spec.pane).key, pane_facts(spec.pane).title + (f" ({spec.section})" if spec.section else ""))
    for spec in registry().values()
    if spec.core and spec.pane != "checklist"  # the checklist's own gates are fixed where they are read
}
"""Where the release manager goes to fix what a gate reports: (key, pane)."""


BUILT_IN = {
    "rc_tag": "tag the release branch head as the next RC and push it",
    "validation_issue": "open the release's validation issue from the milestone and the accepted picks",
    "validation_comments": "post the validation comment on every closed milestone issue lacking one",
}
"""What each built-in step action does, in the detail view."""

BLOCKED_MARK = "⊘"
"""A step the runbook's order holds back: an earlier step's gate is not green yet."""

OVERRIDE_MARK = "⚑"
"""A step signed by hand over a gate that is not green: done, but not green."""


def step_mark(view: StepView) -> tuple[str, GateStatus]:
    """✔ done, ⚑ done by override (amber, never green), ✘ red gate, ⚠ irreversible and not done, ○ open;
    with the colour to draw it in."""
    if view.override:
        return OVERRIDE_MARK, GateStatus.AMBER
    if view.done:
        return ("🔒" if view.locked else "✔"), GateStatus.GREEN
    if view.gate is not None and view.gate.status is GateStatus.RED:
        return "✘", GateStatus.RED
    if view.blocked:
        return BLOCKED_MARK, GateStatus.UNKNOWN
    if view.step.irreversible:
        return "⚠", GateStatus.AMBER
    return "○", GateStatus.UNKNOWN


def step_state(view: StepView) -> str:
    """Who signed and when for manual steps; the gate for automatic ones; why a locked step is done."""
    if view.locked:
        return view.locked
    if view.blocked and not view.done:
        return view.blocked
    if view.step.kind.judged:
        gate = view.gate
        if gate is None:
            return "not judged yet"
        if view.override:
            return f"OVERRIDE, gate {STATUS_WORD[gate.status]}: {view.override}"
        return f"{STATUS_WORD[gate.status]} · {gate.summary}"  # beside the step's title: no id, no title again
    if view.signoff and view.signoff.done:
        return f"signed by {view.signoff.who} at {view.signoff.when}"
    return "open" + (" (required)" if view.step.required else " (optional)")


def gate_line(gate: Gate) -> str:
    """A gate in words, for the detail view: its title, state and summary (its id is for the config)."""
    return f"{gate.title}: {STATUS_WORD[gate.status]} · {gate.summary}"


def step_evidence(view: StepView) -> list[str]:
    """The live evidence: the gate and its details for automatic steps, the sign-off for manual ones."""
    plain = view.step.kind.judged and view.gate is not None and not (view.locked or view.blocked or view.override)
    lines = [gate_line(view.gate) if plain and view.gate is not None else step_state(view)]
    if view.blocked and not view.done and view.gate is not None:
        lines.append(gate_line(view.gate))
    if view.step.kind.judged and view.gate is not None:
        if view.override:
            lines.append(
                f"Signed by hand over the gate: it was {view.signoff.gate_status if view.signoff else '?'} "
                f"then ({view.signoff.gate_summary if view.signoff else ''}); it is "
                f"{STATUS_WORD[view.gate.status]} now: {view.gate.summary}"
            )
        lines += [f"  · {detail}" for detail in view.gate.details]
        lapsed = lapsed_override(view)
        if lapsed:
            lines.append(lapsed)
    elif view.signoff is not None and view.signoff.done and view.signoff.note:
        lines.append(f"note: {view.signoff.note}")
    if view.related_gate is not None and not view.locked:
        gate = view.related_gate
        lines.append(f"{gate.title}: {STATUS_WORD[gate.status]} · {gate.summary}")
    if view.signoff is not None and not view.signoff.done and view.signoff.note:
        lines.append(f"note: {view.signoff.note}")
    if view.signoff is not None and view.signoff.problem:
        lines.append(view.signoff.problem)
    return lines


def step_commands(view: StepView) -> list[str]:
    """The step's command lines as the template writes them (the exact ones show before running)."""
    step = view.step
    lines = []
    if step.action in BUILT_IN:
        lines.append(f"Built in: {BUILT_IN[step.action]} (x)")
    if step.command:
        lines.append(f"Command: {step.command}")
    if step.dry_run:
        lines.append(f"Dry run: {step.dry_run}")
    if step.workflow is not None:
        wf = step.workflow
        inputs = ", ".join(f"{k}={'|'.join(v)}" for k, v in wf.inputs)
        lines.append(
            f"Workflow: {wf.repository} {wf.path} on {wf.ref} ({wf.event}){f'; inputs {inputs}' if inputs else ''}"
        )
        if wf.real_run is not None:
            lines.append(
                f"A real run has {wf.real_run[0]}={wf.real_run[1]}; anything else is a dry run (run it first)."
            )
        if wf.source:
            lines.append(f"Source: {wf.source}")
    if step.runbook is not None:
        lines.append(f"Runbook step {step.runbook} ({step.kind.value}).")
    if step.irreversible:
        lines.append("This step cannot be undone: running it asks for the version typed back.")
    return lines


def next_to_do(view: StepView) -> str:
    """One sentence: what the release manager does about this step now."""
    step = view.step
    if view.locked:
        return "Nothing: this step is done for good and cannot be unticked or run again."
    if view.blocked and not view.done:
        return f"Wait: this step is {view.blocked}."
    if step.kind.judged:
        if view.override:
            return "Signed over its gate by hand (see the override). Press space to withdraw the override."
        if view.done:
            return "Nothing: the gate is green. Press ] for the next step."
        key, pane = GATE_PANES.get(step.gate or "", ("", ""))
        where = f" in the {pane} pane (press esc, then {key})" if key else ""
        return f"Fix what the gate reports{where}; this step turns done by itself when the gate is green."
    if view.done:
        return "Done. Press space to reopen it, or ] for the next step."
    run = " Press x to run it (dry run first)." if (step.command or step.action) else ""
    return f"Do it, then press space to sign it off.{run}"
