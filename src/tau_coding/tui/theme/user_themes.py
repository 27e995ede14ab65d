"""User themes: one JSON file per theme in ``TAU_HOME/themes/*.json``.

Schema (every colour is CSS-like: ``#rrggbb``, ``rgb(...)``, or a colour name)::

    {
      "name": "solarized",            // [a-z0-9-], not a built-in name; /theme solarized
      "dark": true,                   // optional, default true
      "colors": {                     // Textual's theme colours; "primary" is required
        "primary": "#268bd2", "secondary": "#6c71c4", "accent": "#b58900",
        "warning": "#b58900", "error": "#dc322f", "success": "#859900",
        "foreground": "#93a1a1", "background": "#002b36", "surface": "#073642",
        "panel": "#0b3c49", "boost": "#ffffff10"
      },
      "variables": {"footer-background": "#073642"}   // optional: any Textual CSS variable
    }

Each colour becomes the Textual CSS variable of the same name (``$primary``, ``$background``,
...) from which Textual derives its shades; ``variables`` override derived ones directly.
A bad file is reported in one line and skipped; the other themes still load. Pi's theme files
(``vars``, Pi's colour tokens) load as they are (pi_themes.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

from tau_coding.tui.theme.pi_themes import PiThemeError, is_pi_theme, tau_theme_data

COLOR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
BUILTIN_NAMES = ("dark", "light", "high-contrast")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


class ThemeError(ValueError):
    """The theme file is unusable; the message is one line."""


def parse_theme(data: object, source: str) -> Theme:
    """A Textual theme named ``tau-<name>`` from decoded JSON (ThemeError when invalid), in
    Tau's format or in Pi's (``pi_themes.py``)."""
    if not isinstance(data, Mapping):
        raise ThemeError(f"{source}: must hold a JSON object")
    if is_pi_theme(data):
        try:
            data = tau_theme_data(data, source)
        except PiThemeError as exc:
            raise ThemeError(str(exc)) from exc
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ThemeError(f'{source}: "name" must be lower-case letters, digits and dashes')
    if name in BUILTIN_NAMES:
        raise ThemeError(f"{source}: {name!r} is a built-in theme name")
    colors = data.get("colors")
    if not isinstance(colors, Mapping) or "primary" not in colors:
        raise ThemeError(f'{source}: "colors" must be an object with at least "primary"')
    unknown = sorted(set(colors) - set(COLOR_KEYS))
    if unknown:
        raise ThemeError(f"{source}: unknown colour {unknown[0]!r} (known: {', '.join(COLOR_KEYS)})")
    checked = {key: _color(value, f"{source}: colors.{key}") for key, value in colors.items()}
    variables = data.get("variables", {})
    if not isinstance(variables, Mapping) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeError(f'{source}: "variables" must map variable names to strings')
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(f'{source}: "dark" must be true or false')
    return Theme(
        name=f"tau-{name}",
        primary=checked["primary"],
        secondary=checked.get("secondary"),
        accent=checked.get("accent"),
        warning=checked.get("warning"),
        error=checked.get("error"),
        success=checked.get("success"),
        foreground=checked.get("foreground"),
        background=checked.get("background"),
        surface=checked.get("surface"),
        panel=checked.get("panel"),
        boost=checked.get("boost"),
        dark=dark,
        variables={str(k): str(v) for k, v in variables.items()},
    )


def _color(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ThemeError(f"{where}: must be a colour string")
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ThemeError(f"{where}: not a colour: {value!r}") from exc
    return value


def load_user_themes(directory: Path) -> tuple[list[Theme], list[str]]:
    """Every valid ``*.json`` theme in ``directory`` (sorted by file name), and the problems.
    ``directory`` may also be one theme file (``--theme path.json``)."""
    try:
        files = [directory] if directory.is_file() else sorted(directory.glob("*.json"))
    except OSError:
        return [], []
    themes: list[Theme] = []
    problems: list[str] = []
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            themes.append(parse_theme(data, str(path)))
        except json.JSONDecodeError as exc:
            problems.append(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}")
        except RecursionError:
            problems.append(f"{path}: invalid JSON: nested too deeply")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: cannot read: {exc}")
        except ThemeError as exc:
            problems.append(str(exc))
    return themes, problems
