"""Golden files for the two user file formats the TUI reads (see golden/README.md).

Regenerate after an intended change, then review ``git diff tests/coding/tui/golden``:

    .venv/bin/python -m tests.coding.tui.goldens
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from tau_agent.content import ImageContent
from tau_coding.tui.image_drawing import drawn_images, placed, tmux_image
from tau_coding.tui.items import UserItem
from tau_coding.tui.keymap import load_keybindings
from tau_coding.tui.theme.user_themes import load_user_themes

GOLDEN = Path(__file__).parent / "golden"


def theme_variables() -> dict[str, Any]:
    """The Textual CSS variables the example theme produces (the whole derived palette)."""
    themes, problems = load_user_themes(GOLDEN / "themes")
    assert problems == [] and [t.name for t in themes] == ["tau-solarized"]
    return {"name": themes[0].name, "variables": dict(sorted(themes[0].to_color_system().generate().items()))}


def keymap() -> dict[str, Any]:
    mapping, problems = load_keybindings(GOLDEN / "keybindings.json")
    return {"keymap": mapping, "problems": problems}


def image_sequences() -> dict[str, Any]:
    """What the scrollback writes below a message with ``images/halves.png`` (12×8 pixels, two
    colours), in each protocol, for an 80-column terminal; and under tmux (image id 1)."""
    data = (GOLDEN / "images" / "halves.png").read_bytes()
    item = UserItem("[image]", (ImageContent(base64.b64encode(data).decode(), "image/png"),))
    drawn = {protocol: drawn_images(item, 80, placed(protocol)) for protocol in ("kitty", "iterm2", "sixel")}
    return drawn | {"tmux-kitty": drawn_images(item, 80, lambda data, c, r: tmux_image(data, c, r, 1))}


OUTPUTS = {
    "solarized.variables.out.json": theme_variables,
    "keybindings.keymap.out.json": keymap,
    "images.sequences.out.json": image_sequences,
}


def render(name: str) -> str:
    return json.dumps(OUTPUTS[name](), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    for name in OUTPUTS:
        (GOLDEN / name).write_text(render(name), encoding="utf-8")
        print(f"wrote {GOLDEN / name}")
