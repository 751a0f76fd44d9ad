"""The parsed-stylesheet cache (cockpit.ui.stylesheet_cache): what comes back is what Textual parses,
and a damaged, foreign, stale or hostile file is a miss, never a wrong style or a crash."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import logging
import os
import pickle
import pkgutil
from pathlib import Path

import pytest
import textual.widgets
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.widget import Widget

import cockpit.ui
from cockpit.ui import stylesheet_cache
from cockpit.ui.stylesheet_cache import CachedStylesheet, _signature, decode, encode
from cockpit.ui.themes import install_themes

UI = Path(cockpit.ui.__file__).parent


def cockpit_variables() -> dict[str, str]:
    """The variables of the cockpit's default theme (its .tcss files use its $cockpit-* colours)."""
    app = App()
    install_themes(app, requested=None, remembered=None)
    return app.get_css_variables()


VARIABLES = cockpit_variables()
CSS = "Screen { layout: vertical; } #gates > .row:focus { background: $primary 40%; padding: 1 2; width: 1fr; }"
WHERE = ("/somewhere/app.tcss", "")


def every_widget_class() -> list[type[Widget]]:
    """Every widget class Textual ships, and the cockpit's own (imported with its app)."""
    for module in pkgutil.iter_modules(textual.widgets.__path__):
        importlib.import_module(f"textual.widgets.{module.name}")
    importlib.import_module("cockpit.ui.app")
    found: list[type[Widget]] = []
    stack: list[type] = [Widget]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return [cls for cls in set(found) if cls.__dict__.get("DEFAULT_CSS")]


def every_stylesheet() -> list[tuple[str, tuple[str, str], bool]]:
    sources = [
        (cls.__dict__["DEFAULT_CSS"], (inspect.getfile(cls), f"{cls.__name__}.DEFAULT_CSS"), True)
        for cls in every_widget_class()
    ]
    sources += [(path.read_text(), (str(path), ""), False) for path in sorted(UI.glob("*.tcss"))]
    return sources


def parsed(css: str = CSS, where: tuple[str, str] = WHERE, default: bool = False) -> list:
    return Stylesheet(variables=VARIABLES)._parse_rules(css, where, default)


def test_every_textual_and_cockpit_stylesheet_comes_back_as_textual_parses_it():
    sources = every_stylesheet()
    assert len(sources) > 60  # Textual's widgets and the cockpit's own files
    for css, where, default in sources:
        rules = parsed(css, where, default)
        data = encode(rules)
        assert data is not None, where
        back = decode(data)
        assert back is not None, where
        assert [_signature(rule) for rule in back] == [_signature(rule) for rule in rules], where
        for was, now in zip(rules, back, strict=True):
            with contextlib.suppress(AttributeError):  # Textual's Styles.css fails on some of its own rules
                assert now.css == was.css, where
        # The selectors' match functions are rebuilt by their constructor, not read from the file
        selectors = [s for rule in back for selector_set in rule.selector_set for s in selector_set.selectors]
        originals = [s for rule in rules for selector_set in rule.selector_set for s in selector_set.selectors]
        assert [(s._check.func, s._check.args) for s in selectors] == [
            (s._check.func, s._check.args) for s in originals
        ], where


def folder_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("parsed-*.pickle"))


def test_a_second_stylesheet_finds_what_the_first_parsed_and_parses_nothing(tmp_path, monkeypatch):
    first = CachedStylesheet(tmp_path, variables=VARIABLES)
    rules = first._parse_rules(CSS, WHERE)
    first.save()
    assert len(folder_files(tmp_path)) == 1

    calls: list[str] = []
    real = Stylesheet._parse_rules
    monkeypatch.setattr(
        Stylesheet, "_parse_rules", lambda self, css, *a, **k: calls.append(css) or real(self, css, *a, **k)
    )
    second = CachedStylesheet(tmp_path, variables=dict(VARIABLES))
    back = second._parse_rules(CSS, WHERE)
    assert calls == []
    assert [rule.css for rule in back] == [rule.css for rule in rules]
    # Nothing new: nothing written
    before = folder_files(tmp_path)[0].stat().st_mtime_ns
    second.save()
    assert folder_files(tmp_path)[0].stat().st_mtime_ns == before


@pytest.mark.parametrize(
    "change",
    ["css", "location", "default", "variables"],
)
def test_anything_that_changes_the_parse_is_a_miss(tmp_path, monkeypatch, change):
    first = CachedStylesheet(tmp_path, variables=VARIABLES)
    first._parse_rules(CSS, WHERE)
    first.save()
    css, where, default, variables = CSS, WHERE, False, VARIABLES
    if change == "css":
        css = CSS.replace("40%", "50%")
    elif change == "location":
        where = ("/elsewhere/app.tcss", "")
    elif change == "default":
        default = True
    else:
        variables = dict(VARIABLES, primary="#ff0000")
    calls: list[str] = []
    real = Stylesheet._parse_rules
    monkeypatch.setattr(
        Stylesheet, "_parse_rules", lambda self, css, *a, **k: calls.append(css) or real(self, css, *a, **k)
    )
    second = CachedStylesheet(tmp_path, variables=variables)
    rules = second._parse_rules(css, where, default)
    assert calls == [css]
    assert [rule.css for rule in rules] == [
        rule.css for rule in Stylesheet(variables=variables)._parse_rules(css, where, default)
    ]


def test_an_upgrade_of_textual_is_a_miss(tmp_path, monkeypatch):
    first = CachedStylesheet(tmp_path, variables=VARIABLES)
    first._parse_rules(CSS, WHERE)
    first.save()
    monkeypatch.setattr(stylesheet_cache, "_textual_signature", lambda: ("another textual",))
    second = CachedStylesheet(tmp_path, variables=VARIABLES)
    second._parse_rules(CSS, WHERE)
    assert second._last is not None and second._last.stored == {}


def test_variables_that_share_a_file_name_never_get_each_others_rules(tmp_path, monkeypatch):
    monkeypatch.setattr(stylesheet_cache, "_file_name", lambda variables: "parsed-same.pickle")
    red = dict(VARIABLES, primary="#ff0000")
    first = CachedStylesheet(tmp_path, variables=VARIABLES)
    first._parse_rules(CSS, WHERE)
    first.save()
    second = CachedStylesheet(tmp_path, variables=red)
    rules = second._parse_rules(CSS, WHERE)
    assert [rule.css for rule in rules] == [rule.css for rule in Stylesheet(variables=red)._parse_rules(CSS, WHERE)]


def test_css_with_errors_or_without_a_location_is_not_stored(tmp_path):
    sheet = CachedStylesheet(tmp_path, variables=VARIABLES)
    sheet._parse_rules("Screen { colour: red; }", WHERE)  # no such property: Textual reports it
    sheet._parse_rules(CSS, ("", str(hash(CSS))))  # add_source without a location: a new key each process
    sheet.save()
    assert folder_files(tmp_path) == []


def write_over(folder: Path, data: bytes) -> Path:
    sheet = CachedStylesheet(folder, variables=VARIABLES)
    sheet._parse_rules(CSS, WHERE)
    sheet.save()
    (path,) = folder_files(folder)
    path.write_bytes(data)
    return path


class Planted:
    """An object whose unpickling would run a command: a hostile cache file carries one."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.mark.parametrize("kind", ["garbage", "truncated", "hostile file", "hostile entry", "wrong shapes"])
def test_a_damaged_or_hostile_file_is_a_miss_runs_nothing_and_is_replaced(tmp_path, kind):
    folder = tmp_path / "stylesheets"
    marker = tmp_path / "ran"
    good = CachedStylesheet(folder, variables=VARIABLES)
    good._parse_rules(CSS, WHERE)
    good.save()
    (path,) = folder_files(folder)
    content = pickle.loads(path.read_bytes())
    if kind == "garbage":
        data = b"\x00not a pickle at all"
    elif kind == "truncated":
        data = path.read_bytes()[:-40]
    elif kind == "hostile file":
        data = pickle.dumps(Planted(marker))
    elif kind == "hostile entry":
        content["entries"] = {key: pickle.dumps([Planted(marker)]) for key in content["entries"]}
        data = pickle.dumps(content)
    else:
        content["entries"] = {"not a key": b"", (CSS, WHERE, False, 0, ""): "not bytes", 7: 7}
        data = pickle.dumps(content)
    path.write_bytes(data)

    sheet = CachedStylesheet(folder, variables=VARIABLES)
    rules = sheet._parse_rules(CSS, WHERE)
    assert not marker.exists()
    assert [rule.css for rule in rules] == [rule.css for rule in parsed()]
    sheet.save()
    again = CachedStylesheet(folder, variables=VARIABLES)
    again._parse_rules(CSS, WHERE)
    assert again._last is not None and again._last.used  # found: the file was written again, whole


def test_a_folder_that_cannot_be_written_is_logged_not_raised(tmp_path, caplog):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be")
    sheet = CachedStylesheet(blocked / "stylesheets", variables=VARIABLES)
    sheet._parse_rules(CSS, WHERE)
    with caplog.at_level(logging.INFO, logger="cockpit.ui.stylesheet_cache"):
        sheet.save()
    assert "could not save the parsed stylesheets" in caplog.text


def test_the_file_keeps_what_other_starts_used_up_to_its_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(stylesheet_cache, "MAX_ENTRIES", 3)
    for n in range(5):
        sheet = CachedStylesheet(tmp_path, variables=VARIABLES)
        sheet._parse_rules(CSS, (f"/somewhere/{n}.tcss", ""))
        sheet.save()
    content = pickle.loads(folder_files(tmp_path)[0].read_bytes())
    kept = [key[1][0] for key in content["entries"]]
    assert len(kept) == 3
    assert kept[0] == "/somewhere/4.tcss"  # this start's own first
