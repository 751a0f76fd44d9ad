"""The ``cockpit.toml`` that ``cockpit init`` writes: every key explained, every found value sourced.

Written as text rather than with tomli_w so that its comments survive. The words above each key, and
every value not found or given, come from the config's schema (``cockpit.config``), the same declaration
the cockpit reads the file with and the README's reference is written from, so the three never drift.
After the explanation stands where the value came from: ``# found: ...`` (discovered), ``# given: ...``
(a flag), or ``# TODO: ...`` with the key commented out when nothing was found.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from cockpit.cli.init_discover import Discovery, Found
from cockpit.config.evidence import EvidenceConfig
from cockpit.config.pytorch import BINARY_BUILD_WORKFLOWS
from cockpit.config.reference import toml_text
from cockpit.config.release import CITable, GitConfig, GitHubConfig, ReleaseTable, StateTable, UITable, release_branch
from cockpit.config.storage import StorageConfig
from cockpit.config.tables import SchemaKey, Table, resolve, schema_keys
from cockpit.domain.text import inert

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (quotes, backslashes and control characters escaped)."""
    return toml_text(text)


def _key(schema: type, name: str) -> SchemaKey:
    return next(k for k in schema_keys(schema) if k.name == name)


def explained(schema: type, name: str, value: str | None = None) -> str:
    """The key's meaning as comment lines, then ``name = value`` (its default when no value is given)."""
    k = _key(schema, name)
    words = textwrap.wrap(" ".join(k.key.doc.split()), 98)
    return "\n".join(
        [*("# " + line for line in words), f"{name} = {value if value is not None else toml_text(k.default)}"]
    )


def note(found: Found) -> str:
    """The comment line saying where a value came from (one line, whatever the titles hold)."""
    return "# " + inert(found.note) if found.note else ""


def with_note(schema: type, name: str, found: Found, value: str) -> str:
    """The key's meaning, where its value came from, then the key."""
    meaning, line = explained(schema, name, value).rsplit("\n", 1)
    return "\n".join(filter(None, (meaning, note(found), line)))


def found_key(schema: type, name: str, found: Found, unset: str) -> str:
    """As ``with_note``; when nothing was found, ``# key = unset`` for the manager to fill."""
    value = found.value
    text = str(value) if isinstance(value, int) else toml_string(str(value or ""))
    written = with_note(schema, name, found, text)
    return written if value is not None else written.rsplit("\n", 1)[0] + f"\n# {name} = {unset}"


def binary_workflows(found: Found) -> str:
    """``[[ci]] binary_workflows``: those found (``[]`` when GitHub was read and none was), else, not looked
    up (``--offline``), commented out: the default, PyTorch's binary builds, applies."""
    value = "[" + ", ".join(toml_string(name) for name in found.value) + "]"
    if found.note:
        return with_note(CITable, "binary_workflows", found, value)
    usual = "[" + ", ".join(toml_string(name) for name in BINARY_BUILD_WORKFLOWS) + "]"
    return explained(CITable, "binary_workflows").rsplit("\n", 1)[0] + f"\n# binary_workflows = {usual}"


def _shown(value: Any) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # pairs: a table's lines
        return "\n".join(f"{n if _BARE_KEY.match(n) else toml_string(n)} = {toml_text(v)}" for n, v in value)
    return toml_text(value)


def commented(
    schema: type, header: str, keys: tuple[str, ...] = (), about: str = "", found: dict[str, Found] | None = None
) -> str:
    """``[header]`` with ``keys`` (else each key with a value to show), all commented out: the example's
    values, else the defaults, else what ``found`` holds with its note; sub-tables last. Uncommented, each
    line is as the cockpit reads it."""
    lines, tables = [f"[{header}]", *("# " + line for line in textwrap.wrap(about, 96))], []
    for k in schema_keys(schema):
        value = k.key.example if k.key.example is not None else k.default
        if found and k.name in found:
            value = found[k.name].value
        if (keys and k.name not in keys) or (not keys and (value in ("", (), None) or isinstance(k.key.kind, Table))):
            continue
        words = ["# " + line for line in textwrap.wrap(" ".join(k.key.doc.split()), 96)]
        if found and k.name in found:
            words.append(note(found[k.name]))
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):
            tables += [*words, f"[{header}.{k.name}]", _shown(value)]
        else:
            lines += [*words, f"{k.name} = {_shown(value)}"]
    return "\n".join("# " + line for line in "\n".join(lines + tables).splitlines())


def evidence_example() -> str:
    """Every ``[evidence]`` table, commented out, with PyTorch's values: uncommenting one makes its step automatic."""
    steps = []
    for k in schema_keys(EvidenceConfig):
        kind = k.key.kind
        assert isinstance(kind, Table)
        steps.append(commented(resolve(kind.schema), f"evidence.{k.name}", about=k.key.doc))
    return "\n".join(steps)


_STORAGE = (
    "index_url",
    "pypi_url",
    "packages",
    "platforms",
    "python_tags",
    "size_limit_mb",
    "size_warn_mb",
    "staging_channel",
    "staging_platforms",
    "variants",
)


def render(*, version: str, repository: str, clone: Path, api_url: str, found: Discovery) -> str:
    """The commented ``cockpit.toml`` text."""
    branch = release_branch(version)
    s = toml_string
    required = "[" + ", ".join(s(name) for name in found.required.value) + "]"
    version_line = with_note(ReleaseTable, "version", found.rc_tags, s(version))
    unstable = explained(CITable, "unstable_jobs").rsplit("\n", 1)[0] + "\n# unstable_jobs = []"
    return f"""\
# cockpit.toml: the release this cockpit runs. Written by 'cockpit init'; edit freely.
# Each key is explained above it; '# found:' says where 'cockpit init' found a value, '# given:' that
# a flag gave it, and '# TODO:' marks what it could not find (that key is commented out or a guess).
# Paths are absolute or relative to this file.
# Secrets never go here: the token comes from GH_TOKEN / GITHUB_TOKEN, 'cockpit auth login' or gh.

[release]
{version_line}
{explained(ReleaseTable, "repository", s(repository))}
{explained(ReleaseTable, "branch", s(branch))}
{with_note(ReleaseTable, "main", found.main, s(found.main.value))}
{found_key(ReleaseTable, "milestone", found.milestone, s(version))}
{found_key(ReleaseTable, "tracker_issue", found.tracker, "1234")}

[github]
{explained(GitHubConfig, "api_url", s(api_url.rstrip("/")))}
{explained(GitHubConfig, "auth")}
{explained(GitHubConfig, "timeout")}
{explained(GitHubConfig, "max_rate_limit_wait")}

[git]
{explained(GitConfig, "clone", s(str(clone)))}
{with_note(GitConfig, "remote", found.remote, s(found.remote.value))}

# One [[ci]] table per repository whose release branch must be green.
[[ci]]
{explained(CITable, "repository", s(repository))}
{explained(CITable, "branch", s(branch))}
{with_note(CITable, "required", found.required, required)}
{binary_workflows(found.binary)}
{unstable}

# The release candidates' wheels: uncomment to check what is staged in the test channel.
{commented(StorageConfig, "storage", _STORAGE, found={"python_tags": found.python, "variants": found.variants})}

# Evidence that turns checklist steps automatic: uncomment a table and its step judges itself from
# what it reads (PyTorch's values shown; a key left out takes that value). A step without one stays a signature.
{evidence_example()}

[ui]
{explained(UITable, "stale_days")}
{explained(UITable, "theme")}

# Remap or unbind keys by binding id, e.g. "app.refresh" = "ctrl+r" ("" unbinds).
# [keymap]

# Where the session's state (checklist progress, sign-offs, notes, audit log) is kept.
{commented(StateTable, "state", ("path",))}
"""
