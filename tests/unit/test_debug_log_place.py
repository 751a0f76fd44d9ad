"""Where ``--debug`` writes before a config names the state folder: the cockpit's own cache folder,
found without loading the sandbox (a release manager's cockpit never needs the fictional release)."""

import json
import os
import subprocess
import sys


def test_an_error_before_the_config_is_read_is_logged_in_the_cache_folder_without_loading_the_sandbox(tmp_path):
    code = (
        "import json, sys; from cockpit import logging_setup; "
        "print(json.dumps([str(logging_setup.planned_log()), sorted(sys.modules)]))"
    )
    env = {**os.environ, "COCKPIT_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    planned, loaded = json.loads(out)
    assert planned == str(tmp_path / "cache" / "cockpit-debug.log")
    assert not [m for m in loaded if m.startswith("cockpit.sandbox")]
