"""Version coherence of a domain library: the core version its release branch pins, and the
versions its packages carry in the RC index, against the versions the release is made of."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from cockpit.domain.gates import Gate, GateStatus, worst
from cockpit.gates import gate_title

GATE_NAME = "versions_coherent"
GATE_TITLE = gate_title(GATE_NAME)  # a library's gate only: the core's overview does not list it
_VERSION = r"[0-9][0-9A-Za-z.+!-]*"
_BARE = re.compile(rf"^\s*v?({_VERSION})\s*$")


def pinned_version(text: str, package: str) -> str | None:
    """The version ``text`` pins ``package`` to (``torch==2.5.0``, ``torch ~= 2.5.0``; a version
    file holding only ``2.5.0``), or None when it pins none (a range such as ``>=2.5`` is no pin)."""
    name = re.escape(package).replace(r"\-", "[-_.]").replace("_", "[-_.]")
    pin = re.compile(rf"^\s*{name}\s*(?:\[[^\]]*\])?\s*(?:===|==|~=)\s*({_VERSION})", re.IGNORECASE | re.MULTILINE)
    if found := pin.search(text):
        return found.group(1).rstrip(".,;")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(lines) == 1 and (bare := _BARE.match(lines[0])):
        return bare.group(1)
    return None


def public_version(version: str) -> str:
    """``2.5.0`` of ``2.5.0+cu126``: the version without its local (accelerator) part."""
    return version.split("+", 1)[0]


def wheel_versions(filenames: Iterable[str]) -> dict[str, set[str]]:
    """Each distribution's public versions among wheel ``filenames`` (``torchlet_vision`` -> {``0.20.0``})."""
    found: dict[str, set[str]] = {}
    for filename in filenames:
        parts = filename.split("-")
        if filename.endswith(".whl") and len(parts) >= 5:
            found.setdefault(parts[0].lower().replace("_", "-"), set()).add(public_version(parts[1]))
    return found


def coherence_gate(
    *,
    library: str,
    core_package: str,
    core_version: str,
    pins: Sequence[tuple[str, str | None]],
    version: str,
    index_versions: Mapping[str, set[str]],
    unread: Sequence[str] = (),
) -> Gate:
    """``versions_coherent``: RED when a pin names another core version or the RC index holds the
    library's packages at another version (both versions named); UNKNOWN when a pin file is missing,
    pins nothing, or could not be read; GREEN otherwise. ``pins``: (file, its text or None)."""
    findings: list[tuple[GateStatus, str]] = [(GateStatus.UNKNOWN, why) for why in unread]
    for path, text in pins:
        if text is None:
            findings.append((GateStatus.UNKNOWN, f"{path} is not on the release branch: the core pin is not known"))
            continue
        pinned = pinned_version(text, core_package)
        if pinned is None:
            findings.append((GateStatus.UNKNOWN, f"{path} pins no {core_package} version"))
        elif public_version(pinned) != core_version:
            findings.append((GateStatus.RED, f"{path} pins {core_package} {pinned}, the core is {core_version}"))
        else:
            findings.append((GateStatus.GREEN, f"{path} pins {core_package} {pinned}"))
    for package, versions in sorted(index_versions.items()):
        other = sorted(v for v in versions if v != version)
        if other:
            findings.append((GateStatus.RED, f"RC index holds {package} {', '.join(other)}, the release is {version}"))
        else:
            findings.append((GateStatus.GREEN, f"RC index holds {package} {version}"))
    title = f"{GATE_TITLE} [{library}]"
    name = f"{GATE_NAME}[{library}]"
    if not findings:
        return Gate(name, title, GateStatus.UNKNOWN, "nothing to compare: no core_pins and no packages configured")
    status = worst([s for s, _ in findings])
    details = tuple(text for _, text in findings)
    if status is GateStatus.GREEN:
        return Gate(name, title, status, f"built against {core_package} {core_version}; " + details[-1], details)
    return Gate(name, title, status, "; ".join(t for s, t in findings if s is status), details)
