"""Pi's theme files load in Tau as they are."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tau_coding.tui.theme.user_themes import ThemeError, load_user_themes, parse_theme

PI_THEME = Path(__file__).resolve().parents[2] / "data" / "pi" / "theme-harbour-night.json"


def test_a_pi_theme_file_loads_with_its_vars_and_256_colour_numbers(tmp_path: Path) -> None:
    shutil.copy(PI_THEME, tmp_path / "harbour.json")
    themes, problems = load_user_themes(tmp_path)
    assert problems == []
    [theme] = themes
    assert theme.name == "tau-harbour-night"
    assert theme.primary == "#2a7f9e"  # accent: "sea" from vars
    assert theme.accent == "#5fd7ff"  # borderAccent, a literal
    assert (theme.success, theme.error, theme.warning) == ("#4f8a3c", "#b5523b", "#c9a227")
    assert theme.surface == "#1d2330" and theme.dark is True  # a dark message background
    assert theme.panel == "#303030"  # toolPendingBg: 256-colour number 236
    assert theme.foreground is None  # "": the terminal's own text colour


def test_a_light_message_background_makes_a_light_theme() -> None:
    data = json.loads(PI_THEME.read_text())
    data["vars"]["night"] = "#eeeeee"
    assert parse_theme(data, "light.json").dark is False


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"accent": "nowhere", "border": "nowhere"}, "not a colour or a vars name: 'nowhere'"),
        ({"dim": 300}, "a 256-colour number is 0-255, not 300"),
    ],
)
def test_a_bad_pi_theme_is_one_line(change: dict[str, object], message: str) -> None:
    data = json.loads(PI_THEME.read_text())
    data["colors"].update(change)
    with pytest.raises(ThemeError) as info:
        parse_theme(data, "bad.json")
    assert message in str(info.value) and "\n" not in str(info.value)
