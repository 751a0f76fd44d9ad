"""What reading ``cockpit.toml`` costs the first screen, with our schema walker and with the libraries
issue 26 named (msgspec, pydantic, attrs + cattrs), and what each says about a wrong value.

    .venv/bin/python tests/benchmarks/bench_config.py [--runs 15] [--python PATH_WITH_THE_LIBRARIES]

Each candidate runs in fresh processes: import the library, declare the same five tables
(``[release]``, ``[github]``, ``[git]``, ``[[ci]]``, ``[storage]`` with its variants: 37 keys), and
read one realistic document into them. The cockpit's own row imports ``cockpit.config``, which declares
every table of the real schema (24 tables, 94 keys), and reads the same document through ``parse_config``
with every check and inert text; the row before it imports only the domain modules any config reader
needs, so the difference is the cost of the config package itself. Printed: the median and minimum CPU
time of a run (wall time swings with the load of a shared machine), against importing ``textual.app``
(what an empty Textual app costs before it draws), then each candidate's message for
``github.timeout = "5"`` and ``ci[0].required = "pull"``. A library missing from ``--python`` is
skipped with one line. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DATA = textwrap.dedent("""
    DATA = {
        "release": {"version": "2.5.0", "repository": "acme/torchlet", "milestone": 12, "tracker_issue": 4000},
        "github": {"api_url": "https://api.github.com", "timeout": 15, "retries": 3, "auth": "auto"},
        "git": {"clone": "torchlet", "remote": "origin"},
        "ci": [{"repository": "acme/torchlet", "required": ["pull", "trunk", "lint"], "binary_workflow": "b"}],
        "storage": {
            "index_url": "https://download.example.org", "pypi_url": "https://pypi.org",
            "packages": ["torchlet"], "platforms": ["manylinux_2_28_x86_64", "win_amd64"],
            "size_limit_mb": 1000, "variants": {"cpu": ["manylinux_2_28_x86_64"], "cu126": ["win_amd64"]},
        },
    }
    import copy
    BAD = [copy.deepcopy(DATA), copy.deepcopy(DATA)]
    BAD[0]["github"]["timeout"] = "5"
    BAD[1]["ci"][0]["required"] = "pull"
""")

FIELDS = """
    version: str
    repository: str
    branch: Optional[str] = None
    main: str = "main"
    milestone: Union[int, str, None] = None
    tracker_issue: Optional[int] = None
"""

SCHEMAS = {
    "msgspec": """
import msgspec
from typing import Optional, Union, Literal
class Release(msgspec.Struct, frozen=True):
    {fields}
class GitHub(msgspec.Struct, frozen=True):
    api_url: str = "https://api.github.com"; timeout: float = 15.0; max_rate_limit_wait: float = 30.0
    retries: int = 3; refresh_interval: float = 120.0; auth: Literal["auto", "none"] = "auto"
class Git(msgspec.Struct, frozen=True):
    clone: str; remote: str = "origin"; cut: str = ""; release_only_patterns: list[str] = []
class CI(msgspec.Struct, frozen=True):
    repository: str; branch: Optional[str] = None
    required: list[str] = msgspec.field(default_factory=lambda: ["pull", "trunk", "lint"])
    binary_workflow: str = ""; unstable_jobs: list[str] = []
class Storage(msgspec.Struct, frozen=True):
    index_url: str = ""; pypi_url: str = ""; packages: list[str] = []; platforms: list[str] = []
    python_tags: list[str] = []; free_threaded: bool = False; size_limit_mb: float = 1000.0
    size_warn_mb: float = 850.0; release_date: str = ""; variants: dict[str, list[str]] = {{}}
    staging_channel: str = ""; staging_platforms: list[str] = []
class Doc(msgspec.Struct, frozen=True):
    release: Release; git: Git; github: GitHub = GitHub(); ci: list[CI] = []; storage: Storage = Storage()
def load(d): return msgspec.convert(d, Doc)
""",
    "pydantic": """
import pydantic
from typing import Optional, Union, Literal
class Model(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(strict=True)
class Release(Model):
    {fields}
class GitHub(Model):
    api_url: str = "https://api.github.com"; timeout: float = 15.0; max_rate_limit_wait: float = 30.0
    retries: int = 3; refresh_interval: float = 120.0; auth: Literal["auto", "none"] = "auto"
class Git(Model):
    clone: str; remote: str = "origin"; cut: str = ""; release_only_patterns: list[str] = []
class CI(Model):
    repository: str; branch: Optional[str] = None; required: list[str] = ["pull", "trunk", "lint"]
    binary_workflow: str = ""; unstable_jobs: list[str] = []
class Storage(Model):
    index_url: str = ""; pypi_url: str = ""; packages: list[str] = []; platforms: list[str] = []
    python_tags: list[str] = []; free_threaded: bool = False; size_limit_mb: float = 1000.0
    size_warn_mb: float = 850.0; release_date: str = ""; variants: dict[str, list[str]] = {{}}
    staging_channel: str = ""; staging_platforms: list[str] = []
class Doc(Model):
    release: Release; git: Git; github: GitHub = GitHub(); ci: list[CI] = []; storage: Storage = Storage()
def load(d): return Doc.model_validate(d)
""",
    "attrs+cattrs": """
import attrs, cattrs
from typing import Optional, Union, Literal
@attrs.frozen
class Release:
    {fields}
@attrs.frozen
class GitHub:
    api_url: str = "https://api.github.com"; timeout: float = 15.0; max_rate_limit_wait: float = 30.0
    retries: int = 3; refresh_interval: float = 120.0; auth: Literal["auto", "none"] = "auto"
@attrs.frozen
class Git:
    clone: str; remote: str = "origin"; cut: str = ""; release_only_patterns: list[str] = attrs.Factory(list)
@attrs.frozen
class CI:
    repository: str; branch: Optional[str] = None; required: list[str] = attrs.Factory(lambda: ["pull"])
    binary_workflow: str = ""; unstable_jobs: list[str] = attrs.Factory(list)
@attrs.frozen
class Storage:
    index_url: str = ""; pypi_url: str = ""; packages: list[str] = attrs.Factory(list)
    platforms: list[str] = attrs.Factory(list); python_tags: list[str] = attrs.Factory(list)
    free_threaded: bool = False; size_limit_mb: float = 1000.0; size_warn_mb: float = 850.0
    release_date: str = ""; variants: dict[str, list[str]] = attrs.Factory(dict)
    staging_channel: str = ""; staging_platforms: list[str] = attrs.Factory(list)
@attrs.frozen
class Doc:
    release: Release; git: Git; github: GitHub = GitHub(); ci: list[CI] = attrs.Factory(list)
    storage: Storage = Storage()
conv = cattrs.Converter(forbid_extra_keys=False)
conv.register_structure_hook(Union[int, str, None], lambda value, _type: value)  # cattrs needs a hook for it
def load(d):
    try:
        return conv.structure(d, Doc)
    except Exception as exc:
        raise ValueError("; ".join(cattrs.transform_error(exc))) from None
""",
    "the domain modules any config reads (baseline for ours)": """
import cockpit.domain.text, cockpit.domain.release, cockpit.domain.validation, cockpit.errors, tomllib
def load(d): return d
""",
    "cockpit (ours)": """
from pathlib import Path
from cockpit.config import parse_config
def load(d): return parse_config(Path("/releases/cockpit.toml"), d)
""",
}

RUN = """
import time
t0 = time.process_time()
{schema}
{data}
load(DATA)
t1 = time.process_time()
print(t1 - t0)
"""

ERRORS = """
{schema}
{data}
for bad in BAD:
    try:
        load(bad)
        print("accepted")
    except Exception as exc:
        print(" ".join(str(exc).split()))
"""


def runs(python: str, code: str, n: int) -> list[float] | None:
    out = []
    for _ in range(n):
        done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            print(f"  skipped: {done.stderr.strip().splitlines()[-1]}")
            return None
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


TEXTUAL = "import time\nt0 = time.process_time()\nimport textual.app\nprint(time.process_time() - t0)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--python", default=sys.executable, help="an interpreter with the candidate libraries")
    args = parser.parse_args()
    textual = statistics.median(runs(sys.executable, TEXTUAL, args.runs) or [float("nan")])
    print(f"import textual.app: {textual * 1000:.1f} ms of CPU (median of {args.runs} fresh processes)")
    print("import + declare the schema + read one config, CPU time in a fresh process (median, min):")
    for name, schema in SCHEMAS.items():
        python = sys.executable if "cockpit" in name or "domain" in name else args.python
        code = RUN.format(schema=textwrap.dedent(schema).format(fields=FIELDS.strip()), data=DATA)
        print(f"{name}:")
        times = runs(python, code, args.runs)
        if times:
            median = statistics.median(times)
            share = median / textual
            print(f"  {median * 1000:.1f} ms (min {min(times) * 1000:.1f}); {share:.0%} of textual.app's import")
            errors = ERRORS.format(schema=textwrap.dedent(schema).format(fields=FIELDS.strip()), data=DATA)
            said = subprocess.run([python, "-c", errors], capture_output=True, text=True, cwd=ROOT).stdout
            for line in said.splitlines():
                print(f"  error: {line[:300]}")


if __name__ == "__main__":
    main()
