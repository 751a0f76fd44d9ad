"""A release workflow's dispatch form read from its file: the inputs a release manager fills in.

The texts have the shape of pytorch/test-infra's release workflows (a ``dryrun`` choice defaulting
to ``enabled``, a ``package`` choice, a boolean ``dry_run``, protected environments), in our words.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cockpit.adapters.workflow_file import read_workflow_file
from cockpit.domain.workflows import WorkflowInput
from cockpit.errors import CockpitError

PROMOTE = """name: Promote a library to the stable index

on:
  workflow_dispatch:
    inputs:
      dryrun:
        required: true
        type: choice
        default: enabled
        options:
          - enabled
          - disabled
      package:
        description: "Which library to promote"   # the form shows this
        required: true
        type: choice
        default: vision
        options: [vision, audio, 'codec']

permissions:
  contents: read

jobs:
  promote:
    runs-on: ubuntu-latest
    environment: promote-env
    steps:
      - name: Promote
        run: |
          source ./release/release_versions.sh
          echo "on: not the trigger # nor a comment"
"""

DOCKER = """name: Publish images
on:
  pull_request:
    paths:
      - .github/workflows/publish-images.yml
  schedule:
    - cron: "0 3 * * *"
  workflow_dispatch:
    inputs:
      version:
        description: 'Version to publish (e.g. 2.14.0)'
        required: true
        type: string
        default: '2.14.0'
      dry_run:
        description:
          Skip the push; everything else
          runs as for real
        type: boolean
        default: True
      notes:
        description: >-
          Free text written
          into the log
jobs:
  push:
    environment: ${{ github.event_name == 'workflow_dispatch' && 'release-env' || '' }}
    runs-on: ubuntu-latest
"""


def test_the_promotion_form_has_its_dry_run_choice_defaulting_to_enabled():
    wf = read_workflow_file(PROMOTE, path=".github/workflows/promote.yml", ref="main", sha="abc")
    assert wf.name == "Promote a library to the stable index" and wf.dispatchable
    assert wf.dry_run_input == WorkflowInput("dryrun", "choice", "", True, "enabled", ("enabled", "disabled"))
    package = wf.input("package")
    assert package is not None and package.options == ("vision", "audio", "codec")
    assert package.description == "Which library to promote"
    assert wf.environments == ("promote-env",)


def test_boolean_and_folded_inputs_and_the_environment_an_expression_chooses():
    wf = read_workflow_file(DOCKER, path="publish-images.yml", ref="release/2.14")
    dry_run, notes = wf.input("dry_run"), wf.input("notes")
    assert dry_run is not None and (dry_run.type, dry_run.default, dry_run.required) == ("boolean", "true", False)
    assert dry_run.description == "Skip the push; everything else runs as for real"
    assert notes is not None and notes.description == "Free text written into the log" and notes.type == "string"
    version = wf.input("version")
    assert version is not None and version.default == "2.14.0" and version.required
    assert wf.environments == ("release-env",)


def test_a_workflow_without_dispatch_or_without_inputs():
    assert not read_workflow_file("on: [push, pull_request]\njobs: {}\n", path="ci.yml", ref="main").dispatchable
    wf = read_workflow_file("on:\n  schedule:\n    - cron: '0 3 * * *'\n  workflow_dispatch:\n", path="n.yml", ref="m")
    assert wf.dispatchable and wf.inputs == ()
    assert read_workflow_file("on: workflow_dispatch\n", path="x.yml", ref="m").dispatchable


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("jobs:\n  a: {}\n", "no top-level 'on:'"),
        ("on:\n  workflow_dispatch:\n    inputs:\n      x:\n        type: colour\n", "type 'colour'"),
        ("on:\n  workflow_dispatch:\n    inputs:\n      x:\n        type: choice\n", "choice with no options"),
        (
            "on:\n  workflow_dispatch:\n    inputs:\n      x:\n        type: choice\n        default: b\n"
            "        options: [a]\n",
            "not one of its options",
        ),
        ("on:\n  workflow_dispatch: &anchor\n    inputs: {}\n", "line 2"),
        ("on:\n  workflow_dispatch:\n    inputs:\n      x:\n\t  type: string\n", "tab"),
        ("on:\n  workflow_dispatch:\n    inputs:\n      x:\n        required: maybe\n", "true or false"),
    ],
)
def test_a_file_the_reader_cannot_take_is_refused_naming_what_was_wrong(text, said):
    with pytest.raises(CockpitError) as caught:
        read_workflow_file(text, path=".github/workflows/odd.yml", ref="main")
    assert said in str(caught.value) and ".github/workflows/odd.yml" in str(caught.value)


words = st.text(string.ascii_letters + string.digits + " .,()-", min_size=1, max_size=30).map(str.strip).filter(bool)
values = st.text(string.ascii_lowercase + string.digits + "._-", min_size=1, max_size=12).filter(
    lambda s: s not in ("null", "true", "false") and s[0] not in "-"
)


@st.composite
def inputs(draw):
    kind = draw(st.sampled_from(["string", "choice", "boolean", "number"]))
    options = tuple(draw(st.lists(values, min_size=1, max_size=5, unique=True))) if kind == "choice" else ()
    default = draw(st.none() | (st.sampled_from(options) if options else values))
    if kind == "boolean":
        default = draw(st.sampled_from([None, "true", "false"]))
    return WorkflowInput(
        name=draw(values),
        type=kind,
        description=draw(st.sampled_from([""]) | words),
        required=draw(st.booleans()),
        default=default,
        options=options,
    )


def _render(i: WorkflowInput, style: int) -> list[str]:
    out = [f"      {i.name}:"]
    if i.description:
        out.append(
            f"        description: {i.description!r}"
            if style % 2
            else f"        description: >\n          {i.description}"
        )
    out.append(f"        required: {str(i.required).lower()}")
    out.append(f"        type: {i.type}")
    if i.default is not None:
        out.append(f'        default: "{i.default}"' if style % 3 else f"        default: {i.default}")
    if i.options:
        out.append("        options: [" + ", ".join(i.options) + "]" if style % 2 else "        options:")
        if not style % 2:
            out.extend(f"        - {o}" for o in i.options)
    return out


@given(st.lists(inputs(), max_size=8, unique_by=lambda i: i.name), st.integers(0, 5))
def test_any_declared_inputs_read_back_as_declared(declared, style):
    lines = ["name: Any", "on:", "  push:", "  workflow_dispatch:", "    inputs:"]
    for i in declared:
        lines.extend(_render(i, style))
    lines.append("jobs:\n  x:\n    runs-on: ubuntu-latest")
    wf = read_workflow_file("\n".join(lines) + "\n", path="any.yml", ref="main")
    if not declared:
        assert wf.inputs == ()
        return
    expected = tuple(
        WorkflowInput(i.name, i.type, i.description.strip(), i.required, i.default, i.options) for i in declared
    )
    assert wf.inputs == expected


@given(st.text(alphabet=string.printable + "\u00e9\u202e", max_size=300))
def test_any_text_is_either_a_form_or_a_clear_refusal_never_a_crash(text):
    try:
        wf = read_workflow_file("on:\n  workflow_dispatch:\n    inputs:\n" + text, path="x.yml", ref="main")
    except CockpitError as exc:
        assert str(exc).startswith("Workflow file: x.yml")
    else:
        assert wf.dispatchable
