"""Themes as data: TOML files in the packaged ``themes`` folder and the user's theme folder,
validated into Textual ``Theme``s carrying the cockpit's semantic colours.

A theme file holds Textual's base palette (``primary`` ... ``error``, ``dark``), an optional
``[semantic]`` table (``pass``, ``fail``, ``pending``, ``missing``, ``stale``) exposed to CSS as
``$cockpit-pass`` ... ``$cockpit-stale``, and an optional ``[variables]`` table of any other Textual
variables. Semantic colours a theme leaves out are taken from its base palette, so every theme,
Textual's own included, can be used with the cockpit's CSS.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from cockpit.errors import ConfigError

if TYPE_CHECKING:
    from textual.app import App

DEFAULT_THEME = "cockpit-dark"
SEMANTIC = ("pass", "fail", "pending", "missing", "stale")
"""What a row or gate can be; a theme's ``[semantic]`` colours, ``$cockpit-<name>`` in CSS."""
SEMANTIC_VARIABLES = tuple(f"cockpit-{name}" for name in SEMANTIC)
_PALETTE = (
    "primary",
    "secondary",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
    "success",
    "warning",
    "error",
)
_NUMBERS = ("luminosity_spread", "text_alpha")
_KEYS = {"name", "dark", "semantic", "variables", *_PALETTE, *_NUMBERS}
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def user_config_dir() -> Path:
    """The user's cockpit folder: ``$XDG_CONFIG_HOME/release-cockpit``, else ``~/.config/release-cockpit``."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base).expanduser() / "release-cockpit"


def packaged_theme_dir() -> Path:
    """The themes shipped with the cockpit: ``cockpit/themes`` in a wheel, ``<repo>/themes`` in a checkout."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "themes"
    checkout = package.parent / "themes"
    if not installed.is_dir() and checkout.is_dir() and (package.parent / "pyproject.toml").is_file():
        return checkout
    return installed


def theme_dirs(config_dir: Path | None = None) -> list[Path]:
    """Where themes are read from, in order: the packaged folder, then ``<config_dir>/themes``
    (default: the user's config folder). A later theme with the same name replaces an earlier one."""
    return [packaged_theme_dir(), (config_dir or user_config_dir()) / "themes"]


class _BadTheme(Exception):
    """One problem with one theme file (internal: load_themes turns it into a message)."""


def _colour(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _BadTheme(
            f"{path}: key '{key}': expected a colour such as '#3FB950', got {type(value).__name__} {value!r}"
        )
    try:
        Color.parse(value)
    except ColorParseError:
        raise _BadTheme(f"{path}: key '{key}': expected a colour such as '#3FB950', got {value!r}") from None
    return value


def _table(path: Path, data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _BadTheme(f"{path}: key '{key}': expected a table ([{key}]), got {type(value).__name__} {value!r}")
    return value


def semantic_defaults(theme: Theme) -> dict[str, str]:
    """The ``cockpit-*`` colours taken from ``theme``'s base palette, as Textual derives its own
    defaults (cheap: no full colour-system generation, which costs milliseconds per theme)."""
    system = theme.to_color_system()
    secondary = system.secondary or system.primary
    foreground = system.foreground
    if foreground is None or foreground.ansi is not None:  # an ANSI colour cannot be dimmed
        foreground = Color.parse("#E0E0E0" if theme.dark else "#1E1E1E")
    colours = {
        "pass": system.success or secondary,
        "fail": system.error or secondary,
        "pending": system.warning or system.primary,
        "missing": system.accent or system.primary,
        "stale": Color.parse("ansi_bright_black") if theme.ansi else foreground.with_alpha(0.6),
    }
    return {f"cockpit-{name}": colour.hex for name, colour in colours.items()}


def with_semantic_colours(theme: Theme) -> Theme:
    """``theme`` with every ``cockpit-*`` variable set, missing ones taken from its base palette."""
    if all(name in theme.variables for name in SEMANTIC_VARIABLES):
        return theme
    return replace(theme, variables={**semantic_defaults(theme), **theme.variables})


def unusable_reason(theme: Theme) -> str | None:
    """Why the cockpit's CSS cannot use ``theme`` (a ``cockpit-*`` colour missing or not a colour), or None."""
    for name in SEMANTIC_VARIABLES:
        value = theme.variables.get(name)
        if value is None:
            return f"it has no '{name}' colour"
        try:
            Color.parse(value)
        except ColorParseError:
            return f"its '{name}' is {value!r}, not a colour"
    return None


def parse_theme(path: Path, data: dict[str, Any]) -> Theme:
    """Validate one parsed theme file; raise ``_BadTheme`` naming the file, key and expectation."""
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _BadTheme(f"{path}: key '{unknown[0]}': not a theme key; expected one of {', '.join(sorted(_KEYS))}")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not _NAME.match(name):
        raise _BadTheme(f"{path}: key 'name': expected a lower-case name such as 'cockpit-dark', got {name!r}")
    if "primary" not in data:
        raise _BadTheme(f"{path}: missing key 'primary': expected a colour such as '#4C9AFF'")
    palette: dict[str, Any] = {key: _colour(path, key, data[key]) for key in _PALETTE if key in data}
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise _BadTheme(f"{path}: key 'dark': expected true or false, got {dark!r}")
    numbers: dict[str, Any] = {}  # Theme's keyword arguments, each checked above or here
    for key in _NUMBERS:
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise _BadTheme(f"{path}: key '{key}': expected a number from 0 to 1, got {value!r}")
            numbers[key] = float(value)
    variables: dict[str, str] = {}
    for key, value in _table(path, data, "variables").items():
        if not isinstance(value, str):
            raise _BadTheme(f"{path}: key 'variables.{key}': expected a string, got {type(value).__name__} {value!r}")
        # The cockpit's own colours reach table cells through Color.parse: nothing but a colour will do.
        variables[key] = _colour(path, f"variables.{key}", value) if key in SEMANTIC_VARIABLES else value
    for key, value in _table(path, data, "semantic").items():
        if key not in SEMANTIC:
            raise _BadTheme(
                f"{path}: key 'semantic.{key}': not a semantic colour; expected one of {', '.join(SEMANTIC)}"
            )
        variables[f"cockpit-{key}"] = _colour(path, f"semantic.{key}", value)
    return with_semantic_colours(Theme(name=name, dark=dark, variables=variables, **palette, **numbers))


def _read(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise _BadTheme(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _BadTheme(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise _BadTheme(f"{path}: not valid TOML: {exc}") from None
    return parse_theme(path, data)


def load_themes(dirs: Iterable[Path]) -> tuple[list[Theme], list[str]]:
    """Every ``*.toml`` theme in ``dirs`` (missing folders are skipped), and one line per file
    skipped. Never raises: a bad theme must not keep the cockpit from starting."""
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for directory in dirs:
        directory = Path(directory).expanduser()
        try:
            files = sorted(directory.glob("*.toml")) if directory.is_dir() else []
        except OSError as exc:
            problems.append(f"{directory}: cannot list themes: {exc.strerror or exc}")
            continue
        seen_here: dict[str, Path] = {}
        for path in files:
            try:
                theme = _read(path)
            except _BadTheme as exc:
                problems.append(f"{exc} (theme skipped)")
                continue
            except Exception as exc:  # a theme is never worth a crash
                problems.append(f"{path}: not a usable theme: {exc} (theme skipped)")
                continue
            if theme.name in seen_here:
                problems.append(
                    f"{path}: key 'name': theme '{theme.name}' is already defined by "
                    f"{seen_here[theme.name]} (theme skipped)"
                )
                continue
            seen_here[theme.name] = path
            themes[theme.name] = theme
    return list(themes.values()), problems


def resolve_theme_name(requested: str, available: Iterable[str]) -> str:
    """``requested`` when it is one of ``available``; else a ConfigError listing the valid names."""
    names = list(available)
    if requested in names:
        return requested
    raise ConfigError(f"unknown theme '{requested}': choose one of {', '.join(names)}")


def install_themes(
    app: App,
    *,
    requested: str | None,
    remembered: str | None,
    dirs: Iterable[Path] | None = None,
    others_later: bool = False,
) -> list[str]:
    """Register the cockpit's and the user's themes on ``app`` and switch to one; return the
    problems to show as notifications.

    ``requested`` (the config's ``ui.theme`` or a flag) must name a theme: an unknown one raises
    ConfigError listing the valid names. ``remembered`` (the state file's last choice) falls back
    to the default with a notice when it is gone or unusable. Textual's own themes stay selectable,
    with the semantic colours filled in from their palettes; a registered theme whose ``cockpit-*``
    colour is not a colour is taken off the list with a notice, so every theme offered can start.

    Call it from the app's ``__init__``: CSS that uses ``$cockpit-pass`` fails to parse when no
    theme defines it yet, and ``on_mount`` is too late for that. ``others_later``: only the themes
    that can be chosen now are completed (see ``complete_themes``); call ``complete_themes`` for the
    others before they are offered.
    """
    themes, problems = load_themes(theme_dirs() if dirs is None else dirs)
    for theme in themes:
        app.register_theme(theme)
    ours = [theme.name for theme in themes]
    candidates = [name for name in (requested, remembered, "textual-dark") if name]
    problems += complete_themes(app, candidates if others_later else None)
    names = ours + sorted(set(app.available_themes) - set(ours))
    names = [name for name in names if name in app.available_themes]
    fallback = DEFAULT_THEME if DEFAULT_THEME in names else "textual-dark"
    if requested:
        chosen = resolve_theme_name(requested, names)
    elif remembered and remembered in names:
        chosen = remembered
    else:
        if remembered:
            problems.append(f"the theme '{remembered}' chosen last time is no longer available; using {fallback}")
        if DEFAULT_THEME not in names:
            problems.append(f"the cockpit's themes are missing from {packaged_theme_dir()}; using {fallback}")
        chosen = fallback
    try:
        _use(app, chosen)
    except Exception as exc:  # a palette Textual cannot turn into CSS variables: never worth a failed start
        if chosen == fallback:
            raise
        problems.append(f"the theme '{chosen}' cannot be used: {exc}; using {fallback}")
        _use(app, fallback)
    return problems


def complete_themes(app: App, names: Iterable[str] | None = None) -> list[str]:
    """Give the registered themes ``names`` (default: all), Textual's own included, the semantic
    colours they lack, from their palettes; take off the list, with a notice each (returned), those
    whose ``cockpit-*`` colour is not a colour, so every theme offered can start."""
    registered = app.available_themes
    problems = []
    for name in registered if names is None else names:
        theme = registered.get(name)
        if theme is None:
            continue
        complete = with_semantic_colours(theme)
        if complete is not theme:
            app.register_theme(complete)
        why = unusable_reason(complete)
        if why and name != "textual-dark":  # Textual falls back to textual-dark: it always stays (and is filled)
            app.unregister_theme(name)
            problems.append(f"the theme '{name}' cannot be used: {why} (theme skipped)")
    return problems


def _use(app: App, name: str) -> None:
    """Switch ``app`` to theme ``name`` with its CSS variables in the stylesheet.

    Setting ``app.theme`` to the theme already set (``textual-dark`` right after ``App.__init__``)
    does not refresh the variables, and the stylesheet would keep Textual's own, without the
    ``cockpit-*`` colours: the CSS would then fail to parse at start. So they are set here too.
    """
    app.theme = name
    app.stylesheet.set_variables(app.get_css_variables())
