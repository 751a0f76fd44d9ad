"""An unexpected error (a bug, not the world) told in one line, with its traceback in the debug log."""

from __future__ import annotations

import logging
from typing import Any

from textual.app import App

from cockpit.ui.widgets import error_text

_log = logging.getLogger("cockpit.ui")


def report_unexpected(app: App[Any], error: BaseException, where: str = "") -> None:
    """Log ``error`` with its traceback and tell the user in one notification; the app carries on."""
    _log.error(
        "unexpected error%s", f" in {where}" if where else "", exc_info=(type(error), error, error.__traceback__)
    )
    from cockpit import logging_setup

    log = logging_setup.current_log()
    hint = f" (details in {log})" if log else " (run with --debug for details)"
    app.notify(
        logging_setup.scrub(error_text(error) + hint),
        title="Unexpected error",
        severity="error",
        markup=False,
        timeout=10,
    )
