"""The three headless outputs of a single-repository config, made comparable across runs.

``record`` runs ``cockpit report --format json``, ``--format markdown`` and ``check`` on a sandbox
config and replaces what differs between two runs of the same world (the emulators' ports, the
temporary folder, today's date) with fixed marks. The fixtures under ``single_repo/`` were recorded
with main's code before the release could span several repositories (first d3d6151; again at 97101ef, once the
checklist's evidence, promotion gates, chores and status comment had landed, which changed the single-repository
output on purpose; and once more when the sandbox took PyTorch's real names: ``Lint``, the binary-build
workflows on the RC tag, manylinux tags for ROCm and XPU, untitled validate-binaries runs, no conda; and when the
Python builds came to be read from the build matrix: the storage and staging gates name their source first; and
when the branch diff came with pick predictions and the sandbox planted two missing PRs whose picks conflict or need
another first, which moved three missing commits' SHAs; the branch diff and cherry-pick sections carry them;
and when a pick request came to carry the sentences a prose request was read from, ``"prose": []`` on every
request; and when the sandbox's second release manager signed the Triton step in her own sign-off comment on
the tracker, by her GitHub login, so the checklist counts 2 of 41 and that step shows signed by ktanaka):
``python -m tests.e2e.single_repo_outputs`` writes them again.
"""

from __future__ import annotations

import contextlib
import io
import re
from datetime import UTC, datetime
from pathlib import Path

from cockpit.cli.main import main

FIXTURES = Path(__file__).with_name("single_repo")
OUTPUTS = {"report.json": ["report", "--format", "json"], "report.md": ["report"], "check.txt": ["check"]}


def normalized(text: str, servers, config_path: Path) -> str:
    """``text`` with the run's own ports, folders and date replaced by marks."""
    text = text.replace(servers.github_url, "<github>").replace(servers.index_url, "<index>")
    text = text.replace(str(config_path.parent), "<dir>")
    text = re.sub(r'(age_days": )[0-9.e-]+', r"\1<age>", text)  # ages run with the wall clock
    text = text.replace(datetime.now(UTC).date().isoformat(), "<today>")
    # The trends run to today: their length in days and the charts drawn over it move with the clock.
    text = re.sub(r"to <today> \(\d+ days\)", "to <today> (<days>)", text)
    return re.sub(r"`[▁▂▃▄▅▆▇█─┬]+`", "`<chart>`", text)


def record(servers, config_path: Path) -> dict[str, str]:
    """Each output of ``OUTPUTS`` with its exit status on the first line, normalized."""
    outputs = {}
    for name, args in OUTPUTS.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(["--config", str(config_path), *args])
        outputs[name] = f"exit {status}\n" + normalized(out.getvalue(), servers, config_path)
    return outputs


if __name__ == "__main__":  # regenerate the fixtures (only from main's code, see the docstring)
    import os
    import tempfile

    os.environ["GIT_CONFIG_GLOBAL"] = os.devnull
    from cockpit.sandbox.demo import SandboxServers, prepare_world, write_config

    with tempfile.TemporaryDirectory() as tmp:
        world = prepare_world(7, trunk_commits=400, directory=Path(tmp) / "w")
        with SandboxServers(world) as servers:
            (Path(tmp) / "c").mkdir()
            path = write_config(world, Path(tmp) / "c", github_url=servers.github_url, index_url=servers.index_url)
            FIXTURES.mkdir(exist_ok=True)
            for fixture, text in record(servers, path).items():
                (FIXTURES / fixture).write_text(text, encoding="utf-8")
