"""Dialogs in a small terminal (tmux), inline: a dialog takes the place of the editor and the
footer, full width at the bottom; its list scrolls so that its title and hint line stay on
screen however few rows there are. Skips without tmux."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.coding.tui.test_tmux_inline import _prompt, _reply
from tests.coding.tui.test_tmux_keys_and_paste import Rig, tau

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

EDITOR = "Ask anything"
DIALOGS = {  # what opens it: (its title, its hint line's start)
    "/model": ("Select a model", "type to search"),
    "/settings": ("Settings (saved", "Enter change"),
    "/tree": ("Session tree", "Enter go there"),
}


def _shows(rig: Rig, *texts: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = rig.tmux.screen()
        if all(text in screen for text in texts):
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{texts} not all on screen:\n{rig.tmux.screen()}")


def _gone(rig: Rig, text: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while text in rig.tmux.screen():
        assert time.monotonic() < deadline, rig.tmux.screen()
        time.sleep(0.1)


def _in_place_of_the_editor(screen: str, title: str) -> None:
    rows = [row for row in screen.splitlines() if row.strip()]
    assert EDITOR not in screen and "local/" not in rows[-1], screen  # no editor, no footer
    assert rows[-1].startswith("╰") and rows[-1].rstrip().endswith("╯"), screen  # the dialog at the bottom
    top = next(row for row in rows if row.startswith("╭"))
    assert len(top.rstrip()) == len(rows[-1].rstrip()), screen  # full width
    assert rows.index(top) < next(i for i, row in enumerate(rows) if title in row)


@pytest.mark.parametrize("size", [(80, 24), (60, 14)])
def test_dialogs_in_a_small_terminal_keep_title_and_hint_and_replace_editor_and_footer(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    replies = [
        _reply(ScriptedReply(text="First answer.")),
        _reply(ScriptedReply(calls=[ScriptedCall("call_000000001", "bash", {"command": "echo hi"})])),
        _reply(ScriptedReply(text="Done.")),
    ]
    with tau(tmp_path, replies) as rig:
        models = json.loads((rig.home / ".tau" / "models.json").read_text())
        models["providers"]["local"]["models"] += [{"id": f"model-{i:02d}"} for i in range(30)]
        (rig.home / ".tau" / "models.json").write_text(json.dumps(models))
        _prompt(rig, "First question")
        rig.tmux.wait_for("First answer.")
        rig.tmux("resize-window", "-t", "tau", "-x", str(size[0]), "-y", str(size[1]))
        rig.tmux.wait_for(EDITOR)
        for command, (title, hint) in DIALOGS.items():
            _prompt(rig, command)
            screen = _shows(rig, title, hint)
            _in_place_of_the_editor(screen, title)
            if command == "/model":  # the list scrolls: the last model is reached, title and hint stay
                for _ in range(30):
                    rig.keys("Down")
                screen = _shows(rig, "model-29", title, hint)
            rig.keys("Escape")
            rig.tmux.wait_for(EDITOR)
        _prompt(rig, "Run it")
        screen = _shows(rig, "Allow", "Yes, once", "Enter choose")  # the permission dialog
        rig.tmux.wait_for_question("Yes, once")
        _in_place_of_the_editor(screen, "Allow")
        rig.keys("Enter")
        rig.tmux.wait_for("Done.")
        _gone(rig, "Yes, once")
        rig.tmux.wait_for(EDITOR)
