"""The command line as Unix tools behave: each subcommand shows the options it uses, each with help,
and a mistake is said with the subcommand's own usage."""

from __future__ import annotations

import argparse

import pytest

from cockpit.cli.main import parse_command_line, parsers


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    return parsers()[1]


def _options(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """Each option and positional of ``parser`` with its help, read from its own help text's source:
    the actions ``format_help`` walks (``-h`` left out)."""
    seen = []
    for group in parser._action_groups:  # argparse (stdlib) builds its help from these
        for action in group._group_actions:
            if "-h" not in action.option_strings:
                seen.append(("/".join(action.option_strings) or action.dest, action.help))
    return seen


def test_an_unknown_option_is_said_with_the_subcommands_usage(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        parse_command_line(["check", "--frobnicate"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: cockpit check")
    assert "unrecognized arguments: --frobnicate" in err


def test_every_option_of_every_subcommand_has_help_text() -> None:
    for name, sub in _subcommands().items():
        for option, text in _options(sub):
            assert text and text != argparse.SUPPRESS, f"cockpit {name} {option} has no help text"


@pytest.mark.parametrize(
    ("command", "absent"),
    [
        ("locate", ("--read-only", "--take-over", "--debug")),
        ("init", ("--take-over",)),
        ("sandbox", ("--config", "--read-only", "--take-over")),
        ("demo", ("--config",)),
        ("report", ("--read-only", "--take-over")),
    ],
)
def test_a_subcommand_shows_only_the_global_options_it_uses(command: str, absent: tuple[str, ...]) -> None:
    shown = _subcommands()[command].format_help()
    for option in absent:
        assert option not in shown


def test_the_global_options_still_work_before_the_subcommand() -> None:
    args = parse_command_line(["--read-only", "--config", "x.toml", "locate"])
    assert args.read_only is True and str(args.config) == "x.toml" and args.command == "locate"
