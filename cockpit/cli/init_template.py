"""The ``cockpit.toml`` that ``cockpit init`` writes: every key explained, every found value sourced.

Written from a template rather than with tomli_w so that its comments survive. Above each key
stands what it means and then where its value came from: ``# found: ...`` (discovered),
``# given: ...`` (a flag), or ``# TODO: ...`` with the key commented out when nothing was found.
"""

from __future__ import annotations

from pathlib import Path

from cockpit.cli.init_discover import Discovery, Found
from cockpit.domain.text import inert


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def release_branch(version: str) -> str:
    """``release/X.Y`` for version ``X.Y.Z``: PyTorch cuts one branch per minor release."""
    return "release/" + version.rsplit(".", 1)[0]


def _note(found: Found) -> str:
    """The comment line saying where a value came from (one line, whatever the titles hold)."""
    return "# " + inert(found.note) if found.note else ""


def _key(found: Found, key: str, value: str, unset: str) -> str:
    """The note, then ``key = value``; when nothing was found, ``# key = unset`` for the manager to fill."""
    line = f"# {key} = {unset}" if found.value is None else f"{key} = {value}"
    return "\n".join(filter(None, (_note(found), line)))


def _toml_value(value: int | str | None) -> str:
    return str(value) if isinstance(value, int) else toml_string(str(value or ""))


def _binary(found: Found) -> str:
    if found.value:
        return f"{_note(found)}\nbinary_workflow = {toml_string(found.value)}"
    return '# binary_workflow = "wheels"'


def _evidence() -> str:
    from cockpit.cli.init_evidence import evidence_example  # it reads this module's toml_string

    return evidence_example()


def render(*, version: str, repository: str, clone: Path, api_url: str, found: Discovery) -> str:
    """The commented ``cockpit.toml`` text."""
    branch = release_branch(version)
    s = toml_string
    required = "[" + ", ".join(s(name) for name in found.required.value) + "]"
    milestone = _key(found.milestone, "milestone", _toml_value(found.milestone.value), s(version))
    tracker = _key(found.tracker, "tracker_issue", _toml_value(found.tracker.value), "1234")
    return f"""\
# cockpit.toml: the release this cockpit runs. Written by 'cockpit init'; edit freely.
# Each key is explained above it; '# found:' says where 'cockpit init' found a value, '# given:' that
# a flag gave it, and '# TODO:' marks what it could not find (that key is commented out or a guess).
# Paths are absolute or relative to this file.
# Secrets never go here: the token comes from GH_TOKEN / GITHUB_TOKEN, 'cockpit auth login' or gh.

[release]
# The version being released, X.Y.Z. Release candidates are tagged v{version}-rc1, -rc2, ...
{_note(found.rc_tags)}
version = {s(version)}
# The GitHub repository the release is made from, OWNER/NAME.
repository = {s(repository)}
# The release branch, cut from main for this minor release (derived from the version).
branch = {s(branch)}
# The trunk: fixes land here first and are cherry-picked into the release branch.
{_note(found.main)}
main = {s(found.main.value)}
# The milestone gathering the fixes for this release: its number, or its title (open or closed).
{milestone}
# The issue whose comments are the cherry-pick requests.
{tracker}

[github]
# The REST API: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise.
api_url = {s(api_url.rstrip("/"))}
# Where the token comes from: "auto" tries GH_TOKEN, GITHUB_TOKEN, the keyring and gh's login;
# "none" sends no token (public data only, 60 requests an hour).
auth = "auto"
# Seconds one request may take before it counts as failed.
timeout = 15
# The longest the cockpit waits for a rate limit to reset, in seconds, before it says so instead.
max_rate_limit_wait = 30

[git]
# Your local clone. The cockpit reads it; it writes only when you act (a pick branch, an RC tag).
clone = {s(str(clone))}
# The remote holding {branch} and the RC tags.
{_note(found.remote)}
remote = {s(found.remote.value)}

# One [[ci]] table per repository whose release branch must be green.
[[ci]]
# The repository whose check runs are read.
repository = {s(repository)}
# Its release branch (the RC tags are checked too).
branch = {s(branch)}
# Workflows that must pass on the branch head, matched by name.
{_note(found.required)}
required = {required}
# The workflow building the wheels; it is judged on the RC tag, not the branch head.
{_binary(found.binary)}
# Jobs known to be flaky, set aside from the verdict (still shown).
# unstable_jobs = []

# The release candidates' wheels: uncomment to check what is staged in the test channel.
# [storage]
# # Base of the PEP 503 indexes: <index_url>/whl/test/<package>/ is the RC channel.
# index_url = "https://download.pytorch.org"
# # Base of the PyPI JSON API, to see whether the final version is published.
# pypi_url = "https://pypi.org"
# packages = ["torch"]
# # Platform tags every RC must have a wheel for in the plain index <index_url>/whl/test/<package>/.
# platforms = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "macosx_11_0_arm64", "win_amd64"]
# # Wheels over size_limit_mb fail, over size_warn_mb warn.
# size_limit_mb = 1000
# size_warn_mb = 850
# # The channel the wheels are staged in for PyPI (<index_url>/whl/<channel>/<package>/, no local
# # version) and the platforms PyPI gets; the checklist's staging step reads it.
# staging_channel = "staging"
# staging_platforms = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "macosx_11_0_arm64", "win_amd64"]
# # Accelerator variants, each in its sub-index <index_url>/whl/test/<variant>/<package>/, with the
# # platforms it publishes (quote names with a dot).
# [storage.variants]
# cpu = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64"]
# cu126 = ["manylinux_2_28_x86_64", "win_amd64"]
# cu128 = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64"]
# "rocm6.3" = ["linux_x86_64"]
# xpu = ["linux_x86_64", "win_amd64"]

# Evidence that turns checklist steps automatic: uncomment a table and its step judges itself from
# what it reads (PyTorch's values shown; a key left out takes that value). A step without one stays a signature.
{_evidence()}

[ui]
# Days after which a pane's data is shown as stale.
stale_days = 7
# The colour theme: cockpit-dark, cockpit-light, cockpit-high-contrast, or one of your own
# (see 'cockpit locate' for the themes folder). Empty: the last one chosen, else cockpit-dark.
theme = ""

# Remap or unbind keys by binding id, e.g. "app.refresh" = "ctrl+r" ("" unbinds).
# [keymap]

# Where the session's state (checklist progress, sign-offs, notes, audit log) is kept.
# Default: cockpit-state.toml beside this file.
# [state]
# path = "cockpit-state.toml"
"""
