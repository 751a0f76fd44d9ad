"""The gate registry: every gate the cockpit judges, each declared once, in its own module here.

A module of this package declares ``GATE = GateSpec(...)`` (``cockpit.domain.gates.GateSpec``: name,
title, pane, order, whether it blocks GO, how it is read from its pane's report, ...); a family made
by one rule (the patch phases) declares ``GATES``. Nothing lists the modules: the registry finds them,
so a new gate is its module and its test. The overview, the verdict, the headless report and
``cockpit check``, the status comment, the checklist's ``gate =`` and the domain libraries'
``gate[name]`` all read their gates from here.

Pure: these modules import only ``cockpit.domain`` (the layering test imports each alone), and a gate
judged from a pane's report reads it with plain code over the domain's dataclasses.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from cockpit.domain.gates import GateSpec
from cockpit.domain.panes import load_rank


@cache
def registry() -> dict[str, GateSpec]:
    """Every declared gate by name, in ``order``; a module without a declaration, or a name declared
    twice, is a mistake said at once."""
    found: dict[str, GateSpec] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "GATES", None) or (getattr(module, "GATE", None),)
        for spec in declared:
            if not isinstance(spec, GateSpec):
                raise TypeError(f"{module.__name__} declares no GATE = GateSpec(...) (nor GATES)")
            if spec.name in found:
                raise ValueError(f"gate {spec.name!r} is declared twice ({module.__name__} is the second)")
            found[spec.name] = spec
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def gate_spec(name: str) -> GateSpec:
    """The declaration of gate ``name`` (``milestone_empty``); KeyError for a name nobody declared."""
    return registry()[name]


def gate_title(name: str) -> str:
    """The title of gate ``name`` (``Milestone empty``)."""
    return registry()[name].title


def listed() -> tuple[GateSpec, ...]:
    """The panes' own gates, one line each on the overview, in its order."""
    return tuple(spec for spec in registry().values() if spec.listed)


def blocking() -> tuple[str, ...]:
    """The release's own gates that hold GO until green, in the overview's order."""
    return tuple(spec.name for spec in registry().values() if spec.blocks and spec.core)


def on_pane(pane: str) -> tuple[GateSpec, ...]:
    """The release's own gates read from pane ``pane``'s report (``overview``: RC artifacts, PyPI)."""
    return tuple(s for s in registry().values() if s.pane == pane and s.core and s.read is not None)


def names_on(pane: str) -> tuple[str, ...]:
    """The names of the gates pane ``pane`` reports (a pane's ``GATES``)."""
    return tuple(spec.name for spec in on_pane(pane))


def of_libraries() -> tuple[GateSpec, ...]:
    """The gates a domain library may answer, in the order its line lists them (its panes' load order)."""
    found = [spec for spec in registry().values() if spec.library is not None]
    return tuple(sorted(found, key=lambda spec: (load_rank(spec.pane), spec.order)))


def family(name: str) -> tuple[GateSpec, ...]:
    """The gates of one of the checklist's families (``evidence``, ``promotion``, ``phase``), in order."""
    return tuple(spec for spec in registry().values() if spec.family == name)


def known_gate(name: str) -> bool:
    """Whether ``name`` is a declared gate, a domain library's own (``branch_diff_clean[vision]``), or one
    step's answer of a per-step gate (``workflow_run[stage_pypi]``)."""
    if name in registry():
        return True
    base, bracket, library = name.partition("[")
    spec = registry().get(base)
    return bool(
        bracket and library.endswith("]") and library[:-1] and spec and (spec.library or spec.family == "workflow")
    )


def unknown_gate(name: str) -> str:
    """What is wrong with gate name ``name``, the nearest declared name first."""
    from difflib import get_close_matches

    near = get_close_matches(name, list(registry()), n=1)
    hint = f"did you mean '{near[0]}'? " if near else ""
    return f"no gate is named {name!r}; {hint}expected one of {', '.join(registry())}"
