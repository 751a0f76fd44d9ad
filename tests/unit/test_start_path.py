"""Opening the cockpit pays only for what its first screen needs: the command line is read without
the subcommands' parsers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cockpit.cli import main as cli

SAME_AS_THE_FULL_PARSER = [
    [],
    ["--config", "release.toml"],
    ["--read-only", "--config=release.toml", "--debug"],
    ["--take-over", "--con", "release.toml"],  # an abbreviation, as argparse allows
    ["--config", "demo"],  # a config file named like a subcommand is still a config file
    ["demo", "--seed", "3"],
    ["--config", "release.toml", "view", "--state", "other.toml"],
    ["check"],
]


@pytest.mark.parametrize("argv", SAME_AS_THE_FULL_PARSER)
def test_the_command_line_means_what_the_full_parser_says(argv):
    assert cli.parse_command_line(argv) == cli.build_parser().parse_args(argv)


def test_opening_the_cockpit_builds_no_subcommand_parser(monkeypatch):
    def refuse():
        raise AssertionError("the subcommands' parsers were built")

    monkeypatch.setattr(cli, "build_parser", refuse)
    args = cli.parse_command_line(["--config", "release.toml", "--read-only"])
    assert args.config == Path("release.toml") and args.read_only
    assert args.handler == "cockpit.cli.commands:run_app"


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--config"], "argument --config: expected one argument"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--help"], "COMMAND"),  # the full help, with the subcommands
        (["no-such-command"], "invalid choice: 'no-such-command'"),
    ],
)
def test_help_and_mistakes_are_answered_by_the_full_parser(argv, said, capsys):
    with pytest.raises(SystemExit):
        cli.parse_command_line(argv)
    out = capsys.readouterr()
    assert said in out.out + out.err
