"""Start the cockpit on the hand-made release: ``.venv/bin/python tests/ui/run_fake.py [--read-only]``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fake_backend import NOW, FakeBackend

from cockpit.ui.app import CockpitApp

if __name__ == "__main__":
    CockpitApp(FakeBackend(read_only="--read-only" in sys.argv), clock=lambda: NOW).run()
