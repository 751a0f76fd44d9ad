"""The configuration a release manager copies from the README is one the cockpit accepts."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from cockpit.config import parse_config

README = Path(__file__).parents[2] / "README.md"


def test_the_readmes_example_config_is_accepted_as_written():
    block = re.search(r"```toml\n(.*?)```", README.read_text(), re.S)
    assert block, "the README shows a cockpit.toml"
    config = parse_config(Path("/releases/cockpit.toml"), tomllib.loads(block.group(1)))
    assert config.release.version == "2.5.0" and config.release.branch == "release/2.5"
    assert config.warnings == (), "every key the README shows is one the cockpit reads"
    assert {name for name, _platforms in config.storage.variants} == {"cpu", "cu126", "rocm6.3"}
