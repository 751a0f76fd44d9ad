"""A checklist step's command as the programs to run: split as a shell would read the words, filled
from the config, and never handed to a shell.

``git tag -a {rc_tag} {remote}/{branch} && git push {remote} {rc_tag}`` becomes two argument lists.
Placeholders are filled after splitting, so a value can never add words or operators; anything
else a shell would interpret (pipes, redirections, ``;``, ``$VAR``, backquotes) is refused.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from cockpit.errors import ConfigError
from cockpit.services.checklist import fill_placeholders

AND = "&&"
_OPERATOR_CHARS = set("();<>|&")

Program = tuple[str, ...]


def step_programs(text: str, values: Mapping[str, str], *, where: str = "the step's command") -> tuple[Program, ...]:
    """The programs of ``text`` (joined by ``&&``), each an argument list with placeholders filled.

    Raises ConfigError naming ``where`` when the text is empty, badly quoted, or uses a shell feature.
    """
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError as exc:
        raise ConfigError(f"{where}: cannot split {text!r}: {exc}") from None
    programs: list[Program] = []
    current: list[str] = []
    for token in tokens:
        if token == AND:
            if not current:
                raise ConfigError(f"{where}: '&&' needs a program on each side in {text!r}")
            programs.append(tuple(current))
            current = []
            continue
        if set(token) <= _OPERATOR_CHARS or token.startswith("$") or "`" in token:
            raise ConfigError(
                f"{where}: {token!r} is shell syntax; commands run without a shell, so write plain "
                "programs joined by '&&'"
            )
        current.append(fill_placeholders(token, values))
    if not current:
        raise ConfigError(f"{where}: expected a program to run, got {text!r}")
    programs.append(tuple(current))
    return tuple(programs)


def shown(programs: tuple[Program, ...]) -> str:
    """The exact programs as one line a person can read and paste: ``git tag ... && git push ...``."""
    return f" {AND} ".join(shlex.join(program) for program in programs)
