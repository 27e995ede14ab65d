"""Pi's keybindings.json works in Tau unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

from tau_coding.tui.keymap import load_keybindings
from tau_coding.tui.pi_keybindings import textual_key

PI_KEYS = Path(__file__).resolve().parents[2] / "data" / "pi" / "keybindings.json"


def test_a_pi_keybindings_file_loads_without_a_warning(tmp_path: Path) -> None:
    shutil.copy(PI_KEYS, tmp_path / "keybindings.json")
    keymap, problems = load_keybindings(tmp_path / "keybindings.json")
    assert problems == []
    assert keymap == {
        "model_picker": "ctrl+k",
        "cycle_model": "ctrl+shift+n,f5",
        "toggle_tools": "alt+ctrl+o",
        "follow_up": "alt+enter",
        "newline": "shift+enter,ctrl+j",
        "cancel_run": "escape",
    }


def test_pi_key_spellings_become_textuals() -> None:
    assert textual_key("pageUp") == "pageup"
    assert textual_key("shift+ctrl+P") == "ctrl+shift+P"
    assert textual_key("esc") == "escape"
