"""Where the cockpit logs: nowhere by default; with ``--debug``, one file beside the state file.

Without ``--debug`` every record (ours, httpx's, urllib3's, Python warnings) ends in a
``NullHandler``: nothing reaches the terminal, where it would draw over the TUI. With ``--debug``
records go to ``cockpit-debug.log`` in the state file's folder (in the cockpit's cache folder for
an error before any config was read), through a filter that scrubs the session's token and anything
shaped like a GitHub token. The log is never written to the terminal.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from cockpit.locations import cache_dir
from cockpit.state import redaction
from cockpit.state.redaction import redact

LOG_NAME = "cockpit-debug.log"
_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
_LIBRARIES = ("httpx", "urllib3", "py.warnings")

_lock = threading.Lock()
_secrets: set[str] = set()
_wanted = False
_handler: logging.FileHandler | None = None
_planned: Path | None = None


def debug_log_path(state_path: Path) -> Path:
    """The debug log of a session whose state file is ``state_path``."""
    return Path(state_path).with_name(LOG_NAME)


def scrub(text: str) -> str:
    """``text`` without the session's secrets or anything shaped like a GitHub token."""
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        text = text.replace(secret, "[redacted token]")
    return redact(text)


def add_secret(secret: str | None) -> None:
    """Remember a value that must never be logged (the token in use); nor written in the state file."""
    redaction.add_secret(secret)
    if secret and len(secret) >= 4:
        with _lock:
            _secrets.add(secret)


class RedactingFilter(logging.Filter):
    """Formats each record's message and traceback now, with secrets scrubbed."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string in a library must not lose the record
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = scrub(message), None
        if record.exc_info:
            record.exc_text = scrub(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


def quiet() -> None:
    """Nothing logged anywhere: a NullHandler on the root (no 'last resort' stderr output)."""
    logging.captureWarnings(True)
    root = logging.getLogger()
    if not any(isinstance(h, logging.NullHandler) for h in root.handlers):
        root.addHandler(logging.NullHandler())


def want_debug(enabled: bool) -> None:
    """Record the ``--debug`` flag; the file opens once the state folder is known."""
    global _wanted, _planned
    _wanted, _planned = enabled, None


def debug_enabled() -> bool:
    """True while a debug log is open: library loggers may then propagate to it."""
    return _handler is not None


def current_log() -> Path | None:
    """The debug log being written, or None."""
    return Path(_handler.baseFilename) if _handler is not None else None


def use_state_dir(state_path: Path) -> Path | None:
    """The session's state file is known: the debug log (if wanted) lives beside it."""
    global _planned
    _planned = debug_log_path(state_path)
    return start_debug_log(_planned)


def planned_log() -> Path:
    """Where ``--debug`` writes (or would write) its log for this run."""
    if _handler is not None:
        return Path(_handler.baseFilename)
    if _planned is not None:
        return _planned
    return cache_dir() / LOG_NAME  # no state file known yet: the cockpit's own cache folder


def internal_error(exc: BaseException) -> str:
    """Log an unexpected exception (traceback to the debug log only); the one line to show."""
    if _wanted and _handler is None:
        start_debug_log(planned_log())
    logging.getLogger("cockpit").error("internal error", exc_info=(type(exc), exc, exc.__traceback__))
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    hint = f"see {planned_log()}" if _handler is not None else f"run with --debug and see {planned_log()}"
    return scrub(f"{what}; {hint}")


def start_debug_log(path: Path) -> Path | None:
    """Log everything (DEBUG and up) to ``path`` when ``--debug`` was given; moves an open log.

    Returns the path, or None when debugging is off or the file cannot be opened.
    """
    global _handler
    if not _wanted:
        return None
    path = Path(path)
    if _handler is not None and Path(_handler.baseFilename) == path.resolve():
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.addFilter(RedactingFilter())
    handler.setLevel(logging.DEBUG)
    stop_debug_log()
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    for name in _LIBRARIES:
        logger = logging.getLogger(name)
        logger.propagate = True
        logger.setLevel(logging.DEBUG)
    _handler = handler
    logging.getLogger("cockpit").debug("debug log opened at %s", path)
    return path


def stop_debug_log() -> None:
    """Close the debug log (tests; or before moving it)."""
    global _handler
    if _handler is None:
        return
    logging.getLogger().removeHandler(_handler)
    _handler.close()
    _handler = None
