"""The packaged checklist against the release-day runbook of pytorch/test-infra (branch
atalman/release-day-checklist-skill, commit 4dd9d5cdc): its 27 numbered steps, their sections, their marks."""

from __future__ import annotations

import re

from cockpit.domain.checklist import StepKind
from cockpit.services.checklist import load_template, steps_for_release

# The runbook's numbering, its five sections and how it marks each step (manual->auto and manual->scriptable are
# marked by what the cockpit judges: the promotion workflow, the Colab issue it finds).
RUNBOOK = {
    "Build and validate the final RC": {1: "automatic", 2: "gate", 3: "automatic", 4: "manual", 5: "gate"},
    "PyPI staging to production": {6: "automatic", 7: "gate", 8: "automatic", 9: "automatic", 10: "gate"},
    "Docker images": {11: "gate", 12: "automatic", 13: "gate"},
    "Website, install matrix and docs": {
        14: "automatic",
        15: "manual",
        16: "manual",
        17: "automatic",
        18: "manual",
        19: "manual",
        20: "manual",
    },
    "Tags, release notes and announcements": {
        21: "manual",
        22: "manual",
        23: "manual",
        24: "manual",
        25: "automatic",
        26: "manual",
        27: "manual",
    },
}


def test_every_runbook_step_is_there_in_order_in_its_section_with_its_mark():
    steps = load_template()
    numbered = [s for s in steps if s.runbook is not None]
    # the first step of each number is the runbook's; the ones after it with the same number are checks of it
    first = {}
    for step in numbered:
        first.setdefault(step.runbook, step)
    assert list(first) == list(range(1, 28))
    assert [s.runbook for s in numbered] == sorted(s.runbook for s in numbered)
    for section, marks in RUNBOOK.items():
        for number, kind in marks.items():
            assert first[number].section == section, number
            assert first[number].kind is StepKind(kind), (number, first[number].id)


def test_the_readiness_checks_come_first_and_the_runbook_sections_follow_in_its_order():
    sections = list(dict.fromkeys(s.section for s in load_template()))
    assert sections[0].startswith("Readiness before go-live")
    assert sections[1:6] == list(RUNBOOK)
    assert all(s.runbook is None for s in load_template() if s.section == sections[0])


def test_stage_inspect_promote_validate_and_the_promotion_waits_for_the_inspection():
    by_id = {s.id: s for s in load_template()}
    order = [s.id for s in load_template()]
    stage, inspect, promote, validate = "stage_pypi_run", "stage_pypi", "promote_pypi_run", "validate_pypi"
    assert order.index(stage) < order.index(inspect) < order.index(promote) < order.index(validate)
    assert by_id[promote].needs == inspect and by_id["promote_pypi"].needs == inspect
    assert by_id[inspect].gate == "pypi_staged" and by_id[inspect].kind is StepKind.GATE
    assert by_id[promote].irreversible and by_id[promote].workflow.real_run == ("dryrun", "disabled")


def test_a_patch_release_skips_the_compatibility_matrix_and_a_minor_one_keeps_it():
    steps = load_template()
    assert "compatibility_matrix" in [s.id for s in steps_for_release(steps, patch=False)]
    assert "compatibility_matrix" not in [s.id for s in steps_for_release(steps, patch=True)]
    assert [s.id for s in steps if s.minor_only] == ["compatibility_matrix"]


def test_each_workflow_step_names_its_file_inputs_and_source_commit_and_conda_is_gone():
    steps = load_template()
    workflows = {s.id: s.workflow for s in steps if s.workflow is not None}
    assert {s: w.file_name for s, w in workflows.items()} == {
        "rc_smoke_tests": "validate-binaries.yml",
        "stage_pypi_run": "release-stage-pypi.yml",
        "promote_pypi_run": "release-pypi.yml",
        "prod_checksums": "release-post-promotion.yml",
        "validate_pypi": "validate-binaries.yml",
        "validate_docker": "validate-docker-images.yml",
        "docker_release": "release-docker.yml",
        "create_release_run": "create_release.yml",
    }
    for step_id, wf in workflows.items():
        assert re.search(r"@[0-9a-f]{8}", wf.source), step_id  # repository and file at a commit
        assert wf.path in wf.source or wf.file_name in wf.source, step_id
    assert dict(workflows["docker_release"].inputs)["pytorch_version"] == ("{version}",)
    assert workflows["docker_release"].real_run == ("dry_run", "false")
    assert workflows["create_release_run"].ref == "v{version}" and workflows["create_release_run"].event == "release"
    text = " ".join(f"{s.title} {s.help}" for s in steps).lower()
    assert "conda" not in text and "anaconda" not in text
