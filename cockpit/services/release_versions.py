"""Read ``release/release_versions.sh`` as data, and judge it against the release: the ``release_versions`` gate.

The reader understands the assignments the real file is made of (pytorch/test-infra HEAD 61a77570f454,
``release/release_versions.sh``, and its 60-odd earlier revisions):

- ``NAME=${NAME:-2.12.1}``: a default the environment may override;
- ``NAME=${OTHER}`` (or ``$OTHER``): a copy of another variable (``TORCH_TENSORRT_RTX_VERSION``);
- ``NAME=value``, quoted or not, and ``export NAME=...``;
- blank lines, comments and the shebang.

Values are resolved as bash would with nothing set in the environment: ``${X:-v}`` is X's value when
an earlier line assigned X, else ``v``; ``${X}`` is X's value, and a line whose X no earlier line
assigns is named as unread. Nothing is executed. Any other line (a command, ``$(...)``, an ``if``, a
``${X:=v}``) is returned as an ``UnreadLine`` with the reason, never skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.domain.release_versions import (
    RELEASE_VERSIONS_PATH,
    ExpectedVersion,
    ReleaseVersions,
    UnreadLine,
    VersionAssignment,
)

GATE_NAME = "release_versions"
GATE_TITLE = "Release versions"

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_ASSIGN = re.compile(rf"^(?:export\s+)?({_NAME})=(.*)$")
_VALUE = r"[A-Za-z0-9._+~-]+"
_DEFAULTED = re.compile(rf"^\$\{{({_NAME}):-({_VALUE})\}}$")
_REFERENCE = re.compile(rf"^\$(?:\{{({_NAME})\}}|({_NAME}))$")
_PLAIN = re.compile(rf"^{_VALUE}$")
_TRAILING_COMMENT = re.compile(r"\s+#.*$")
_MAX_SHOWN = 80


def _unquote(text: str) -> str | None:
    """The text inside one pair of matching quotes (or the text itself); None for an unmatched quote."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        return None if any(q in inner for q in "'\"") else inner
    return None if any(q in text for q in "'\"") else text


def _read_line(number: int, raw: str, seen: dict[str, str]) -> VersionAssignment | UnreadLine | None:
    line = raw.strip()
    if not line or line.startswith("#"):
        return None
    shown = line if len(line) <= _MAX_SHOWN else line[: _MAX_SHOWN - 1] + "…"
    match = _ASSIGN.match(line)
    if not match:
        return UnreadLine(number, shown, "not an assignment NAME=value: a command the reader does not run")
    name, rest = match.groups()
    written = _TRAILING_COMMENT.sub("", rest).strip()
    inner = _unquote(written)
    if inner is None:
        return UnreadLine(number, shown, "unmatched quotes in the value")
    if defaulted := _DEFAULTED.match(inner):
        other, default = defaulted.groups()
        value = seen.get(other, default)
        refers = None if other == name else other
        return VersionAssignment(name, number, value, written, refers_to=refers, overridable=other == name)
    if reference := _REFERENCE.match(inner):
        other = reference.group(1) or reference.group(2)
        if other not in seen:
            return UnreadLine(number, shown, f"copies {other}, which no earlier line assigns")
        return VersionAssignment(name, number, seen[other], written, refers_to=other)
    if _PLAIN.match(inner):
        return VersionAssignment(name, number, inner, written)
    if not inner:
        return UnreadLine(number, shown, "assigns an empty value")
    return UnreadLine(
        number, shown, "the value is neither a version, ${NAME:-version} nor ${OTHER}: the reader does not evaluate it"
    )


def parse_release_versions(text: str) -> ReleaseVersions:
    """Every assignment of ``text`` (the file's contents) in order, and every line it could not read."""
    assignments: list[VersionAssignment] = []
    unread: list[UnreadLine] = []
    seen: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        found = _read_line(number, raw, seen)
        if isinstance(found, VersionAssignment):
            assignments.append(found)
            seen[found.name] = found.value
        elif isinstance(found, UnreadLine):
            unread.append(found)
    return ReleaseVersions(tuple(assignments), tuple(unread))


def variable_for(package: str) -> str:
    """The variable of ``release_versions.sh`` that holds ``package``'s version.

    The workflows look it up as ``${PACKAGE^^}_VERSION`` (``release-stage-pypi.yml``,
    ``release-pypi.yml``, ``release-download-pytorch-org.yml``: ``torchvision`` -> ``TORCHVISION_VERSION``,
    ``fbgemm_gpu`` -> ``FBGEMM_GPU_VERSION``); torch's is ``PYTORCH_VERSION``
    (``release-post-promotion.yml``: ``recompute torch "${PYTORCH_VERSION}"``).
    """
    normal = re.sub(r"[-_.]+", "_", package.strip()).upper()
    return "PYTORCH_VERSION" if normal == "TORCH" else f"{normal}_VERSION"


def own_packages(repository: str, packages: Sequence[str]) -> list[str]:
    """The packages of ``packages`` that carry the repository's own version: those whose variable is the
    repository's (``pytorch/pytorch`` and ``torch`` are both ``PYTORCH_VERSION``), else the first one.

    A single-repository config may list the libraries' packages in the core's index too; those number
    their own versions, so they are not expected at the core's."""
    own = variable_for(repository.rsplit("/", 1)[-1])
    matching = [p for p in packages if variable_for(p) == own]
    return matching or list(packages[:1])


def expected_versions(
    release_version: str,
    core_packages: Iterable[str],
    libraries: Iterable[tuple[str, str, Sequence[str]]],
    *,
    core_source: str = "the release (cockpit.toml [release] version)",
) -> tuple[tuple[ExpectedVersion, ...], tuple[str, ...]]:
    """What each variable should hold, from the release and each configured library.

    ``libraries``: (name, version, packages) of each ``[[repo]]``. A library numbers its own
    versions (vision's minor is torch's plus 15; a library in maintenance keeps an older one), so
    its expectation is its own configured version, never one derived from the core's. Returns the
    expectations and one note per library whose variable cannot be known (it lists no packages).
    """
    expected: list[ExpectedVersion] = []
    notes: list[str] = []
    packages = list(core_packages) or ["torch"]
    for variable in dict.fromkeys(variable_for(p) for p in packages):
        expected.append(ExpectedVersion(variable, release_version, core_source))
    for name, version, library_packages in libraries:
        if not library_packages:
            notes.append(f"{name} lists no packages in cockpit.toml: its variable in {_FILE} is not known")
            continue
        for variable in dict.fromkeys(variable_for(p) for p in library_packages):
            expected.append(ExpectedVersion(variable, version, f"{name} (cockpit.toml [[repo]] version)"))
    return tuple(expected), tuple(notes)


_FILE = RELEASE_VERSIONS_PATH.rsplit("/", 1)[-1]


def _same(found: str, wanted: str) -> bool:
    return found.removeprefix("v") == wanted.removeprefix("v")


def _judge(variable: str, wants: list[ExpectedVersion], versions: ReleaseVersions) -> tuple[GateStatus, str]:
    assignment = versions.assignment(variable)
    if assignment is None:
        said = "; ".join(f"{w.source} is {w.version}" for w in wants)
        return GateStatus.RED, f"{_FILE} assigns no {variable}: the workflows would find no version ({said})"
    found = assignment.value
    where = f"{variable}={found} (line {assignment.line})"
    if assignment.refers_to:
        where += f", copied from {assignment.refers_to}"
    agree = [w for w in wants if _same(found, w.version)]
    if len(agree) == len(wants):
        return GateStatus.GREEN, f"{where} agrees with {wants[0].source}"
    disagree = "; ".join(f"{w.source} is {w.version}" for w in wants if w not in agree)
    if not agree:
        return GateStatus.RED, f"{where} in {_FILE}, but {disagree}"
    return GateStatus.AMBER, f"{where} agrees with {agree[0].source}, but {disagree}"


def release_versions_gate(
    versions: ReleaseVersions | None,
    expected: Sequence[ExpectedVersion],
    *,
    ref: str = "",
    notes: Sequence[str] = (),
    unreadable: str = "",
) -> Gate:
    """``release_versions``: RED when a variable the release needs disagrees with what the release says
    (the variable, its value and each expected value with its source are named) or is missing;
    AMBER when a line could not be read, or the sources agree only in part; UNKNOWN when the file
    could not be read (``unreadable`` says why); GREEN otherwise. ``ref``: where the file was read.
    """
    on = f" on {ref}" if ref else ""
    if versions is None:
        why = unreadable or "it was not read"
        return Gate(GATE_NAME, GATE_TITLE, GateStatus.UNKNOWN, f"{_FILE}{on} could not be read: {why}")
    findings: list[tuple[GateStatus, str]] = []
    by_variable: dict[str, list[ExpectedVersion]] = {}
    for want in expected:
        by_variable.setdefault(want.variable, []).append(want)
    for variable, wants in by_variable.items():
        findings.append(_judge(variable, wants, versions))
    for line in versions.unread:
        findings.append((GateStatus.AMBER, f"{_FILE}{on}, {line}"))
    findings.extend((GateStatus.UNKNOWN, note) for note in notes)
    unchecked = [a for a in versions.assignments if a.name not in by_variable]
    details = tuple(text for _, text in findings)
    if unchecked:
        names = ", ".join(f"{a.name}={a.value}" for a in unchecked)
        details += (f"not checked (no configured repository releases them): {names}",)
    if not by_variable:
        return Gate(GATE_NAME, GATE_TITLE, GateStatus.UNKNOWN, "nothing to compare: no version expected", details)
    status = worst([s for s, _ in findings])
    if status is GateStatus.GREEN:
        summary = f"{_FILE}{on} agrees with the release: {len(by_variable)} variable(s) checked"
    elif status is GateStatus.UNKNOWN:
        summary = f"{_FILE}{on} agrees where it can be checked; " + "; ".join(t for s, t in findings if s is status)
    else:
        summary = "; ".join(t for s, t in findings if s is status)
    return Gate(GATE_NAME, GATE_TITLE, status, summary, details)
