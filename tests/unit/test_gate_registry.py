"""Every gate is declared once, in its module of ``cockpit.gates``; a gate name written anywhere else
(the checklist template, a service that judges it, a pane) is one the registry knows.

The tables the overview, the verdict, the report, the library lines and the checklist hints read are
derived from the declarations; these tests pin what they derive to what the release manager sees.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest

import cockpit
import cockpit.gates
from cockpit.domain.gates import Gate, GateSpec, GateStatus
from cockpit.domain.panes import PANES, in_key_order, pane_facts
from cockpit.errors import ConfigError
from cockpit.gates import blocking, family, known_gate, listed, names_on, of_libraries, registry

ROOT = Path(cockpit.__file__).parent
TEMPLATE = ROOT / "templates" / "checklist.toml"


def _template_gates() -> list[str]:
    data = tomllib.loads(TEMPLATE.read_text(encoding="utf-8"))
    return [step["gate"] for section in data["section"] for step in section["step"] if "gate" in step]


def test_every_gate_the_checklist_template_follows_is_declared():
    gates = _template_gates()
    assert len(gates) > 20
    assert [g for g in gates if g not in registry()] == []


def _literal_gate_names() -> list[tuple[str, str]]:
    """(where, name) of every gate name written as a literal in the package: the first argument (or
    ``name=``) of ``Gate(...)``, and the constants the services name their gates by."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if "sandbox" in path.parts:  # the fictional world plants gate colours by name; its tests compare them
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Gate":
                args = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "name")]
                found += [(where, a.value) for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(t == "GATE_NAME" or t.endswith("_GATE") or t in _PROMOTION for t in targets):
                    found.append((where, node.value.value))
    return found


_PROMOTION = {"RC_HEALTH", "FINAL_RC_TAGGED", "PYPI_STAGED", "STABLE_PROMOTED", "PYPI_PROMOTED"}


def test_every_gate_a_module_names_is_declared():
    names = _literal_gate_names()
    assert {"milestone_empty", "picks_clear", "ci_green", "checklist", "rc_artifacts"} <= {n for _w, n in names}
    assert [(where, name) for where, name in names if name not in registry()] == []


def test_every_module_of_the_package_is_registered():
    """A new gate is its module: nothing else lists it."""
    for info in pkgutil.iter_modules(cockpit.gates.__path__):
        module = importlib.import_module(f"cockpit.gates.{info.name}")
        declared = getattr(module, "GATES", None) or (module.GATE,)
        assert all(registry()[spec.name] is spec for spec in declared), info.name


def test_the_services_and_the_patch_phases_name_declared_gates():
    from cockpit.domain.evidence import EVIDENCE_GATES
    from cockpit.domain.schedule import PatchPhase
    from cockpit.services.phase_gates import PHASE_GATES
    from cockpit.services.promotion_gates import TITLES

    assert list(EVIDENCE_GATES) == [s.name for s in family("evidence")] and len(EVIDENCE_GATES) == 8
    assert list(TITLES) == [s.name for s in family("promotion")] and len(TITLES) == 5
    assert list(PHASE_GATES.values()) == [s.name for s in family("phase")]
    for phase in PatchPhase:
        assert registry()[PHASE_GATES[phase]].title == f"Phase: {phase.words}"


def test_every_declaration_is_whole():
    orders = [spec.order for spec in registry().values()]
    assert len(orders) == len(set(orders)), "two gates share a place in the overview's order"
    for spec in registry().values():
        assert isinstance(spec, GateSpec) and spec.name and spec.title
        assert pane_facts(spec.pane)  # a pane that exists
        assert (spec.library is None) == (not spec.short), f"{spec.name}: a library's gate needs its short label"
        assert not spec.listed or spec.read is not None, f"{spec.name}: an overview line needs its gate read"
        assert spec.core or spec.library, f"{spec.name} is nobody's gate"
        assert not spec.blocks or spec.core, f"{spec.name}: only the core's own gates block by declaration"
    shorts = [spec.short for spec in of_libraries()]
    assert len(shorts) == len(set(shorts))


def test_what_the_declarations_give_the_overview_the_verdict_and_the_libraries():
    """The order and keys the release manager knows, unchanged since the tables they replace."""
    from cockpit.domain.repos import REPO_GATES
    from cockpit.ui.panes.overview import GATE_ORDER
    from cockpit.ui.repo_gates import SHORT
    from cockpit.ui.step_text import GATE_PANES

    assert [s.name for s in listed()] == [
        *("milestone_empty", "picks_clear", "ci_green", "branch_diff_clean", "rc_artifacts"),
        *("pypi_not_published", "checklist"),
    ]
    assert blocking() == ("milestone_empty", "picks_clear", "ci_green", "branch_diff_clean", "rc_artifacts")
    assert [key for _n, _t, key in GATE_ORDER] == ["1", "2", "3", "4", "", "", "5"]
    assert list(REPO_GATES) == [
        *("milestone_empty", "branch_diff_clean", "picks_clear", "ci_green", "rc_artifacts"),
        "versions_coherent",
    ]
    assert list(SHORT.values()) == ["milestone", "branch", "picks", "ci", "rc", "versions"]
    assert GATE_PANES["rc_artifacts"] == ("0", "Overview (RC artifacts)")
    assert GATE_PANES["branch_diff_clean"] == ("4", "Branch diff")
    assert "checklist" not in GATE_PANES and "rc_health" not in GATE_PANES
    assert names_on("overview") == ("rc_artifacts", "pypi_not_published", "wheel_sizes")
    assert names_on("branch") == ("branch_diff_clean",) and names_on("triage") == ()


def test_the_panes_keys_are_declared_once_and_in_order():
    assert [p.tab_title for p in in_key_order(patch=True)] == [
        *("0 Overview", "1 Milestone", "2 Cherry-picks", "3 CI", "4 Branch diff", "5 Checklist"),
        "6 Triage",
    ]
    assert [p.id for p in in_key_order()][-1] == "checklist"
    keys = [p.key for p in PANES]
    assert len(keys) == len(set(keys))


def test_a_gate_is_read_from_its_panes_report_as_declared():
    class Storage:
        gate = Gate("rc_artifacts", "RC artifacts valid", GateStatus.RED, "2 wheels missing")
        pypi_gate = Gate("pypi_not_published", "Not yet on PyPI", GateStatus.GREEN, "not yet")
        sizes_gate = Gate("wheel_sizes", "Wheel sizes", GateStatus.AMBER, "1 wheel(s) grew against their variant")

    read = [spec.read(Storage()) for spec in cockpit.gates.on_pane("overview") if spec.read]
    assert read == [Storage.gate, Storage.pypi_gate, Storage.sizes_gate]


def test_a_library_gate_is_known_by_its_repository_name():
    assert known_gate("branch_diff_clean[vision]") and known_gate("versions_coherent[audio]")
    assert not known_gate("branch_diff_clen") and not known_gate("rc_health[vision]") and not known_gate("ci_green[]")


def test_a_checklist_step_following_an_unknown_gate_is_refused_with_the_nearest_name():
    from cockpit.services.checklist import parse_template

    data = {
        "schema": 1,
        "section": [{"title": "S", "step": [{"id": "a", "title": "A", "kind": "automatic", "gate": "ci_gren"}]}],
    }
    with pytest.raises(ConfigError, match=r"key 'gate': no gate is named 'ci_gren'; did you mean 'ci_green'\?"):
        parse_template("custom.toml", data)
