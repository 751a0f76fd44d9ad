"""The PyPI staging gate: is every wheel that goes to PyPI staged under the private S3 prefix?

Staged wheels have their local version stripped (``torch-2.5.1-cp312-cp312-manylinux_2_28_x86_64.whl``,
no ``+cu130``). The expected set is each PyPI-bound platform (a glob such as ``macosx_*_arm64``) times
each Python tag the release stages. The gate is green only after the prefix was read and holds them
all within PyPI's limit; a prefix that cannot be read is amber with the reason, never green.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from cockpit.domain.gates import Gate, GateStatus
from cockpit.domain.staging import StagingListing, StagingTrouble
from cockpit.gates import gate_title
from cockpit.services.wheel_names import normalise_name, parse_wheel_filename

NAME = "pypi_staged"  # the checklist's gate (cockpit/gates/pypi_staged.py), read from S3 when configured
TITLE = gate_title(NAME)
MB = 1_000_000


def staging_url(prefix_form: str, package: str, version: str) -> str:
    """The profile's ``s3://pytorch-backup/{package}-{version}-pypi-staging/`` filled in."""
    return prefix_form.replace("{package}", package).replace("{version}", version)


def unreadable_gate(trouble: StagingTrouble, message: str) -> Gate:
    """Amber, with the reason: staging that cannot be read is never taken as staged."""
    return Gate(NAME, TITLE, GateStatus.AMBER, message, (f"reason: {trouble.value}",))


def staging_gate(
    listing: StagingListing,
    *,
    package: str,
    version: str,
    python_tags: Sequence[str],
    platforms: Sequence[str],
    limit_mb: float,
) -> Gate:
    """Green when every (python tag, platform) wheel of ``package`` ``version`` is staged within the limit.

    Amber when the prefix holds nothing yet; red when some expected wheel is missing, carries a local
    version, names another version, or is over the limit.
    """
    wheels = []
    for staged in listing.files:
        wheel = parse_wheel_filename(staged.name)
        if wheel is not None and normalise_name(wheel.name) == normalise_name(package):
            wheels.append((staged, wheel))
    if not listing.files:
        return Gate(NAME, TITLE, GateStatus.AMBER, f"nothing staged at {listing.url} yet")
    problems: list[str] = []
    for tag in python_tags:
        for platform in platforms:
            hits = [
                w
                for _, w in wheels
                if w.python == tag.removesuffix("t") and w.abi == tag and fnmatchcase(w.platform, platform)
            ]
            if not hits:
                problems.append(f"missing: {package} {version} {tag} {platform}")
    for staged, wheel in wheels:
        if wheel.version != version:
            kind = "a local version" if "+" in wheel.version else f"version {wheel.version}"
            problems.append(f"{staged.name}: carries {kind}; PyPI takes {version}")
        if staged.size > limit_mb * MB:
            problems.append(f"{staged.name}: {staged.size / MB:.1f} MB, over PyPI's {limit_mb:.0f} MB limit")
    if problems:
        return Gate(NAME, TITLE, GateStatus.RED, f"{len(problems)} problem(s) at {listing.url}", tuple(problems))
    return Gate(NAME, TITLE, GateStatus.GREEN, f"{len(wheels)} wheel(s) of {package} {version} staged", ())


def staged_on_s3(gates: Sequence[Gate], *, published: bool, version: str) -> Gate:
    """One ``pypi_staged`` gate over each package's: the worst status, every reason; red once PyPI has the
    version (staged files can no longer be uploaded)."""
    if published:
        return Gate(
            NAME, TITLE, GateStatus.RED, f"{version} is already on PyPI: staged files can no longer be uploaded"
        )
    if len(gates) == 1:
        return gates[0]
    status = max((g.status for g in gates), key=lambda s: s.rank, default=GateStatus.UNKNOWN)
    summary = "; ".join(g.summary for g in gates if g.status is status)
    return Gate(NAME, TITLE, status, summary, tuple(d for g in gates for d in g.details))
