"""Opening the cockpit pays only for what its first screen needs: the command line is read without
the subcommands' parsers, and the garbage collector waits until the first screen is painted."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from cockpit import collector
from cockpit.cli import commands
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


@pytest.fixture
def collector_on():
    """Each test starts and ends with the collector on and nothing paused."""
    collector.resume()
    gc.enable()
    yield
    collector.resume()
    gc.enable()


def test_the_collector_is_paused_until_the_cockpit_is_on_screen_then_collects_again(monkeypatch, collector_on):
    seen = []

    def open_app(config, *, read_only, take_over=False):
        seen.append(gc.isenabled())
        collector.resume()  # what the app does after its first paint
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(commands, "load", lambda args: None)
    monkeypatch.setattr(commands, "open_app", open_app)
    assert cli.main(["--config", "release.toml"]) == 0
    assert seen == [False, True]
    assert gc.isenabled()


def test_a_command_that_opens_no_screen_runs_with_the_collector_on(monkeypatch, capsys, collector_on, tmp_path):
    seen = []
    monkeypatch.setattr(
        commands,
        "load_config",
        lambda path: seen.append(gc.isenabled()) or (_ for _ in ()).throw(commands.ConfigError("stop here")),
    )
    (tmp_path / "cockpit.toml").write_text("", encoding="utf-8")
    assert cli.main(["--config", str(tmp_path / "cockpit.toml"), "locate"]) == 2
    assert seen == [True] and gc.isenabled()


def test_the_collector_comes_back_when_the_cockpit_fails_before_its_first_screen(monkeypatch, capsys, collector_on):
    def open_app(config, *, read_only, take_over=False):
        assert not gc.isenabled()
        raise commands.ConfigError("the state file is not TOML")

    monkeypatch.setattr(commands, "load", lambda args: None)
    monkeypatch.setattr(commands, "open_app", open_app)
    assert cli.main(["--config", "release.toml"]) == 2
    assert gc.isenabled()


def test_a_collector_turned_off_by_someone_else_stays_off(collector_on):
    gc.disable()
    collector.pause()
    collector.resume()
    assert not gc.isenabled()
