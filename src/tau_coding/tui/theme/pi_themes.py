"""Pi's theme files, read as they are: ``vars``, 51 colour tokens, 256-colour numbers.

A Pi theme names colours for Pi's own widgets (``accent``, ``border``, ``toolDiffAdded``,
``mdHeading``, ...) and leaves the background to the terminal. Tau's TUI is drawn from Textual's
eleven theme colours, so ``tau_colors`` maps Pi's tokens onto those (the closest role of each) and
works out whether the theme is dark from its message background. Tokens with no Tau role are
accepted and unused, so a Pi user's file loads without a word.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.color import Color as RichColor
from rich.color import ColorParseError as RichColorParseError

# Keys only a Pi theme has; ``colors.primary`` is Tau's own required key.
_PI_MARKERS = ("$schema", "vars")
_PI_TOKENS = ("text", "border", "borderAccent", "muted", "mdHeading", "toolDiffAdded", "userMessageBg")

# Tau (Textual) colour <- the Pi tokens that play its role, first one set wins.
_ROLES: dict[str, tuple[str, ...]] = {
    "primary": ("accent", "border", "mdHeading"),
    "secondary": ("border", "mdLink", "accent"),
    "accent": ("borderAccent", "accent"),
    "warning": ("warning",),
    "error": ("error", "toolDiffRemoved"),
    "success": ("success", "toolDiffAdded"),
    "foreground": ("text", "userMessageText"),
    "surface": ("userMessageBg", "selectedBg"),
    "panel": ("toolPendingBg", "selectedBg"),
}


class PiThemeError(ValueError):
    """A Pi theme that cannot be read (one line)."""


def is_pi_theme(data: Mapping[str, Any]) -> bool:
    """Whether decoded theme JSON is in Pi's format rather than Tau's."""
    colors = data.get("colors")
    if any(key in data for key in _PI_MARKERS):
        return True
    return isinstance(colors, Mapping) and "primary" not in colors and any(t in colors for t in _PI_TOKENS)


def tau_theme_data(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The Tau-format theme (``name``, ``dark``, ``colors``) a Pi theme amounts to."""
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise PiThemeError(f'{source}: "name" must be a non-empty string')
    colors = data.get("colors")
    if not isinstance(colors, Mapping):
        raise PiThemeError(f'{source}: "colors" must be an object')
    variables = data.get("vars", {})
    if not isinstance(variables, Mapping):
        raise PiThemeError(f'{source}: "vars" must be an object')
    resolved = {str(k): _resolve(v, variables, f"{source}: colors.{k}") for k, v in colors.items()}
    out: dict[str, str] = {}
    for role, tokens in _ROLES.items():
        value = next((resolved[t] for t in tokens if resolved.get(t)), None)
        if value is not None:
            out[role] = value
    if "primary" not in out:
        raise PiThemeError(f'{source}: needs an "accent" or "border" colour')
    background = resolved.get("userMessageBg") or resolved.get("selectedBg")
    return {"name": _tau_name(name), "dark": _is_dark(background), "colors": out}


def _resolve(value: object, variables: Mapping[str, Any], where: str, depth: int = 0) -> str | None:
    """``#rrggbb`` for a colour, a 256-colour number, or a ``vars`` name; None for ``""``
    (the terminal's own colour)."""
    if isinstance(value, bool):
        raise PiThemeError(f"{where}: not a colour: {value!r}")
    if isinstance(value, int):
        if not 0 <= value <= 255:
            raise PiThemeError(f"{where}: a 256-colour number is 0-255, not {value}")
        return RichColor.from_ansi(value).get_truecolor().hex
    if not isinstance(value, str):
        raise PiThemeError(f"{where}: must be a colour string or number")
    if value == "":
        return None
    if value in variables and depth < 8:
        return _resolve(variables[value], variables, where, depth + 1)
    try:
        return RichColor.parse(value).get_truecolor().hex
    except RichColorParseError as exc:
        raise PiThemeError(f"{where}: not a colour or a vars name: {value!r}") from exc


def _tau_name(name: str) -> str:
    slug = "".join(c if c.isalnum() else "-" for c in name.strip().lower()).strip("-")
    return slug or "pi-theme"


def _is_dark(background: str | None) -> bool:
    """Dark unless the theme's message background is light (Pi themes leave the rest to the terminal)."""
    if background is None:
        return True
    red, green, blue = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255 < 0.5
