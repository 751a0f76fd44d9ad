"""``python -m cockpit``: the same as the ``cockpit`` command."""

from cockpit.cli.main import main

raise SystemExit(main())
