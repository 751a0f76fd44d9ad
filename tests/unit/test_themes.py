"""Themes: the shipped dark, light and high-contrast themes, the user's own, and bad files skipped."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from cockpit.errors import ConfigError
from cockpit.ui import themes
from cockpit.ui.themes import (
    SEMANTIC_VARIABLES,
    complete_themes,
    install_themes,
    load_themes,
    packaged_theme_dir,
    resolve_theme_name,
    theme_dirs,
    unusable_reason,
)

SHIPPED = {"cockpit-dark": True, "cockpit-light": False, "cockpit-high-contrast": True}


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_themes_load_without_a_problem_each_with_every_semantic_colour():
    loaded, problems = load_themes([packaged_theme_dir()])
    assert problems == []
    by_name = {theme.name: theme for theme in loaded}
    assert set(SHIPPED) <= set(by_name)
    for name, dark in SHIPPED.items():
        theme = by_name[name]
        assert theme.dark is dark
        assert all(theme.variables[v].startswith("#") for v in SEMANTIC_VARIABLES), name
        assert theme.background and theme.foreground and theme.panel and theme.surface
    # Pass and fail must never look alike, in any shipped theme.
    assert all(t.variables["cockpit-pass"] != t.variables["cockpit-fail"] for t in by_name.values())


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    from textual.color import Color

    def luminance(text: str) -> float:
        c = Color.parse(text)
        channels = [v / 255 for v in (c.r, c.g, c.b)]
        r, g, b = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


READ_ON = (
    *((variable, "background") for variable in (*SEMANTIC_VARIABLES, "foreground")),
    ("footer-key-foreground", "footer-background"),  # the keys of the key line
    ("footer-foreground", "footer-background"),
    ("foreground", "panel"),
    ("foreground", "error-muted"),  # the NO-GO verdict's words on its background (panes.tcss)
    ("foreground", "success-muted"),  # the GO verdict's
)
"""(text, background) pairs of theme variables that the cockpit draws text with (issue 32's contrast rule)."""


def in_256_colours(colour: str) -> str:
    """The colour a 256-colour terminal shows for ``colour``: Rich's own downgrade, as Textual draws it there."""
    from rich.color import Color as RichColor
    from rich.color import ColorSystem
    from textual.color import Color

    c = Color.parse(colour)
    shown = RichColor.from_rgb(c.r, c.g, c.b).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
    return Color(shown.red, shown.green, shown.blue).hex


def drawn(theme) -> dict[str, str]:
    """Every variable of ``theme`` as Textual generates it (footer, muted backgrounds) plus the cockpit's own,
    each an opaque colour (a translucent one laid over the background, as it is drawn)."""
    from textual.color import Color

    variables = {**theme.to_color_system().generate(), **theme.variables}
    background = Color.parse(variables["background"])
    return {name: (background + Color.parse(value)).hex for name, value in variables.items() if value.startswith("#")}


@pytest.mark.parametrize("colours", ["truecolor", "256 colours"])
def test_every_text_and_key_colour_of_a_shipped_theme_is_readable_on_what_it_is_drawn_on(colours):
    """WCAG AA (4.5:1) for every pair the cockpit draws text in, in a truecolor terminal and in a
    256-colour one (where each colour becomes the nearest of the palette)."""
    shown = (lambda c: c) if colours == "truecolor" else in_256_colours
    too_faint = []
    for theme in load_themes([packaged_theme_dir()])[0]:
        variables = drawn(theme)
        for text, background in READ_ON:
            ratio = contrast(shown(variables[text]), shown(variables[background]))
            if ratio < 4.5:
                too_faint.append(f"{theme.name}: {text} on {background} is {ratio:.2f}:1")
    assert too_faint == []


def test_a_theme_without_semantic_colours_takes_them_from_its_palette(tmp_path):
    write(
        tmp_path,
        "plain.toml",
        'primary = "#112233"\nsuccess = "#00AA00"\nerror = "#AA0000"\n'
        'warning = "#AAAA00"\naccent = "#AA00AA"\nforeground = "#EEEEEE"\n'
        '[semantic]\nstale = "#777777"\n',
    )
    (theme,), problems = load_themes([tmp_path])
    assert problems == []
    assert theme.name == "plain"  # the file's name when the file names no theme
    assert theme.variables == {
        "cockpit-pass": "#00AA00",
        "cockpit-fail": "#AA0000",
        "cockpit-pending": "#AAAA00",
        "cockpit-missing": "#AA00AA",
        "cockpit-stale": "#777777",
    }


@pytest.mark.parametrize(
    "text, named",
    [
        ('primary = "#112233"\nbackground = "not-a-colour"\n', "key 'background': expected a colour"),
        ('primary = "#112233"\ndark = "yes"\n', "key 'dark': expected true or false"),
        ('primary = "#112233"\nbackgroud = "#000000"\n', "key 'backgroud': not a theme key"),
        ("dark = true\n", "missing key 'primary'"),
        ('primary = "#112233"\n[semantic]\npassed = "#00FF00"\n', "key 'semantic.passed': not a semantic colour"),
        ('primary = "#112233"\n[semantic]\nfail = 3\n', "key 'semantic.fail': expected a colour"),
        ('primary = "#112233"\nsemantic = "red"\n', "key 'semantic': expected a table"),
        ('name = "My Theme"\nprimary = "#112233"\n', "key 'name': expected a lower-case name"),
        ('primary = "#112233"\ntext_alpha = 3\n', "key 'text_alpha': expected a number from 0 to 1"),
        ('primary = "#112233\n', "not valid TOML"),
    ],
)
def test_a_bad_theme_file_is_skipped_with_a_line_naming_the_file_key_and_expectation(tmp_path, text, named):
    write(tmp_path, "good.toml", 'primary = "#112233"\n')
    bad = write(tmp_path, "bad.toml", text)
    loaded, (problem,) = load_themes([tmp_path])
    assert [t.name for t in loaded] == ["good"]
    assert problem.startswith(f"{bad}: ") and named in problem and problem.endswith("(theme skipped)")
    assert "\n" not in problem


def test_unreadable_bytes_and_a_duplicate_name_are_problems_not_crashes(tmp_path):
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00")
    write(tmp_path, "a.toml", 'name = "twin"\nprimary = "#112233"\n')
    write(tmp_path, "b.toml", 'name = "twin"\nprimary = "#445566"\n')
    loaded, problems = load_themes([tmp_path, tmp_path / "no-such-folder"])
    assert [(t.name, t.primary) for t in loaded] == [("twin", "#112233")]
    assert any("binary.toml: not UTF-8 text" in p for p in problems)
    assert any("b.toml: key 'name': theme 'twin' is already defined by" in p for p in problems)


def test_the_users_theme_replaces_a_shipped_one_of_the_same_name(tmp_path):
    user = tmp_path / "release-cockpit" / "themes"
    write(user, "mine.toml", 'name = "cockpit-dark"\nprimary = "#FF0000"\n')
    loaded, problems = load_themes(theme_dirs(tmp_path / "release-cockpit"))
    assert problems == []
    dark = {t.name: t for t in loaded}["cockpit-dark"]
    assert dark.primary == "#FF0000"


def test_theme_folders_are_the_packaged_one_then_the_users(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert theme_dirs() == [packaged_theme_dir(), tmp_path / "xdg" / "release-cockpit" / "themes"]
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert theme_dirs()[1] == tmp_path / "home" / ".config" / "release-cockpit" / "themes"
    assert theme_dirs(tmp_path / "cfg")[1] == tmp_path / "cfg" / "themes"


def test_the_packaged_folder_is_found_in_a_checkout_and_in_an_installed_wheel(tmp_path):
    assert (packaged_theme_dir() / "cockpit-dark.toml").is_file()  # this checkout: <repo>/themes
    site = tmp_path / "site-packages"
    write(site / "cockpit" / "themes", "cockpit-dark.toml", 'primary = "#112233"\n')
    (site / "cockpit" / "ui").mkdir(parents=True)
    shutil.copy(themes.__file__, site / "cockpit" / "ui" / "themes.py")
    spec = importlib.util.spec_from_file_location("installed_themes", site / "cockpit" / "ui" / "themes.py")
    installed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(installed)
    assert installed.packaged_theme_dir() == site / "cockpit" / "themes"


def test_an_unknown_theme_name_lists_the_valid_ones():
    assert resolve_theme_name("cockpit-light", ["cockpit-dark", "cockpit-light"]) == "cockpit-light"
    with pytest.raises(ConfigError) as err:
        resolve_theme_name("solarised", ["cockpit-dark", "cockpit-light", "cockpit-high-contrast"])
    assert err.value.message == (
        "unknown theme 'solarised': choose one of cockpit-dark, cockpit-light, cockpit-high-contrast"
    )


class Gate(Static):
    DEFAULT_CSS = "Gate { color: $cockpit-pass; background: $cockpit-fail; }"


class BareApp(App[None]):
    """A bare app installing the themes as the cockpit must: before its CSS is read."""

    def __init__(
        self, theme_folders: list[Path], *, requested: str | None = None, remembered: str | None = None
    ) -> None:
        super().__init__()
        self.problems = install_themes(self, requested=requested, remembered=remembered, dirs=theme_folders)

    def compose(self) -> ComposeResult:
        yield Gate("green")


@pytest.mark.anyio
async def test_a_bare_app_gets_the_themes_switches_between_them_and_refuses_an_unknown_one(tmp_path):
    no_user_themes = [packaged_theme_dir(), tmp_path / "none"]
    app = BareApp(no_user_themes)
    async with app.run_test() as pilot:
        assert app.problems == []
        assert app.theme == "cockpit-dark"
        assert set(SHIPPED) <= set(app.available_themes)
        gate = app.query_one(Gate)
        await pilot.pause()
        assert gate.styles.color.hex == app.available_themes["cockpit-dark"].variables["cockpit-pass"]

        app.theme = "cockpit-light"
        await pilot.pause()
        assert gate.styles.color.hex == "#1A7F37"
        # Textual's own themes stay usable with the cockpit's CSS: semantic colours filled in.
        app.theme = "nord"
        await pilot.pause()
        assert gate.styles.color.hex == app.available_themes["nord"].success

        with pytest.raises(ConfigError, match="unknown theme 'neon': choose one of cockpit-dark, "):
            install_themes(app, requested="neon", remembered=None, dirs=no_user_themes)
        assert app.theme == "nord"


@pytest.mark.anyio
async def test_the_requested_theme_wins_and_a_vanished_remembered_one_falls_back_with_a_notice(tmp_path):
    dirs = [packaged_theme_dir(), tmp_path / "none"]
    app = BareApp(dirs, requested="cockpit-high-contrast", remembered="cockpit-light")
    async with app.run_test():
        assert app.problems == []
        assert app.theme == "cockpit-high-contrast"
        assert install_themes(app, requested=None, remembered="cockpit-light", dirs=dirs) == []
        assert app.theme == "cockpit-light"
        problems = install_themes(app, requested=None, remembered="my-old-theme", dirs=dirs)
        assert problems == ["the theme 'my-old-theme' chosen last time is no longer available; using cockpit-dark"]
        assert app.theme == "cockpit-dark"


def test_an_unknown_requested_theme_stops_the_app_before_it_starts(tmp_path):
    with pytest.raises(ConfigError, match="unknown theme 'neon': choose one of cockpit-dark, "):
        BareApp([packaged_theme_dir()], requested="neon")


@pytest.mark.anyio
async def test_a_broken_user_theme_is_reported_and_the_cockpit_still_starts(tmp_path):
    user = tmp_path / "themes"
    bad = write(user, "broken.toml", 'primary = "#112233"\nerror = "blood"\n')
    app = BareApp([packaged_theme_dir(), user])
    async with app.run_test():
        assert app.problems == [f"{bad}: key 'error': expected a colour such as '#3FB950', got 'blood' (theme skipped)"]
        assert app.theme == "cockpit-dark"


@pytest.mark.anyio
@pytest.mark.parametrize("remembered", ["textual-dark", "textual-light", "ansi-dark", "nord"])
async def test_a_textual_theme_chosen_last_time_starts_with_the_cockpits_colours(tmp_path, remembered):
    """textual-dark is also Textual's own starting theme: choosing it again must still bring the colours."""
    app = BareApp([packaged_theme_dir(), tmp_path / "none"], remembered=remembered)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.problems == [] and app.theme == remembered
        expected = app.available_themes[remembered].variables["cockpit-pass"]
        assert app.query_one(Gate).styles.color.hex == expected


@pytest.mark.anyio
async def test_a_remembered_user_theme_whose_status_colour_is_not_a_colour_falls_back_with_a_notice(tmp_path):
    user = write(tmp_path / "themes", "muddy.toml", 'primary = "#112233"\n[variables]\ncockpit-fail = "$error"\n')
    app = BareApp([packaged_theme_dir(), tmp_path / "themes"], remembered="muddy")
    async with app.run_test():
        assert app.theme == "cockpit-dark"
        assert app.problems == [
            f"{user}: key 'variables.cockpit-fail': expected a colour such as '#3FB950', got '$error' (theme skipped)",
            "the theme 'muddy' chosen last time is no longer available; using cockpit-dark",
        ]


class AppWithAnOddTheme(BareApp):
    """Something registered a theme before the cockpit's themes were installed, with a status colour CSS cannot use."""

    def __init__(self, theme_folders: list[Path], *, remembered: str) -> None:
        App.__init__(self)
        from textual.theme import Theme

        self.register_theme(Theme("odd", primary="#123456", variables={"cockpit-fail": "blood"}))
        self.problems = install_themes(self, requested=None, remembered=remembered, dirs=theme_folders)


@pytest.mark.anyio
async def test_a_remembered_theme_the_cockpit_cannot_colour_is_not_offered_and_falls_back_with_a_notice(tmp_path):
    app = AppWithAnOddTheme([packaged_theme_dir(), tmp_path / "none"], remembered="odd")
    async with app.run_test():
        assert app.theme == "cockpit-dark" and "odd" not in app.available_themes
        assert app.problems == [
            "the theme 'odd' cannot be used: its 'cockpit-fail' is 'blood', not a colour (theme skipped)",
            "the theme 'odd' chosen last time is no longer available; using cockpit-dark",
        ]


class LaterApp(BareApp):
    """Installs only the theme it starts in, as the cockpit does before its first paint."""

    def __init__(self, theme_folders: list[Path], *, remembered: str | None = None, odd: bool = False) -> None:
        App.__init__(self)
        if odd:
            from textual.theme import Theme

            self.register_theme(Theme("odd", primary="#123456", variables={"cockpit-fail": "blood"}))
        self.problems = install_themes(
            self, requested=None, remembered=remembered, dirs=theme_folders, others_later=True
        )


def incomplete(app: App) -> set[str]:
    return {name for name, theme in app.available_themes.items() if unusable_reason(theme)}


@pytest.mark.anyio
async def test_the_theme_chosen_last_time_is_complete_at_once_and_the_others_when_completed(tmp_path):
    app = LaterApp([packaged_theme_dir(), tmp_path / "none"], remembered="nord", odd=True)
    assert app.theme == "nord" and app.problems == []
    assert "nord" not in incomplete(app) and "textual-dark" not in incomplete(app)
    assert {"gruvbox", "odd"} <= incomplete(app)  # Textual's other themes wait, and so does a broken one
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.query_one(Gate).styles.color.hex == app.available_themes["nord"].variables["cockpit-pass"]
        assert complete_themes(app) == [
            "the theme 'odd' cannot be used: its 'cockpit-fail' is 'blood', not a colour (theme skipped)"
        ]
        assert incomplete(app) == set() and "odd" not in app.available_themes
        app.theme = "gruvbox"
        await pilot.pause()
        assert app.query_one(Gate).styles.color.hex == app.available_themes["gruvbox"].variables["cockpit-pass"]


def test_a_remembered_broken_theme_is_judged_before_it_is_used_even_when_the_others_wait(tmp_path):
    app = LaterApp([packaged_theme_dir(), tmp_path / "none"], remembered="odd", odd=True)
    assert app.theme == "cockpit-dark"
    assert app.problems == [
        "the theme 'odd' cannot be used: its 'cockpit-fail' is 'blood', not a colour (theme skipped)",
        "the theme 'odd' chosen last time is no longer available; using cockpit-dark",
    ]
