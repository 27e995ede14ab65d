"""What a new user saw in ``tau``'s transcript, in tmux: tool rows (counts, expansion, a write's
content, a read highlighted), an answer's single line breaks, keyboard scrolling. Skips
without tmux."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.test_tmux_keys_and_paste import tau
from tests.coding.tui.tmux_session import API

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _replies(*replies: ScriptedReply) -> list[Scripted]:
    return [Scripted(body=sse_body(API, r)) for r in replies]


def test_a_long_read_counts_its_hidden_lines_and_expands_in_full(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "big.py").write_text("".join(f"value_{i} = {i}\n" for i in range(1, 201)))
    replies = _replies(
        ScriptedReply(calls=[ScriptedCall("call_000000001", "read", {"path": "big.py"})]),
        ScriptedReply(text="Read it."),
    )
    # Full-screen: inline, a finished row is in the terminal's scrollback, past expanding.
    with tau(tmp_path, replies, "--fullscreen") as rig:
        rig.type("read big.py")
        rig.wait_editor("read big.py")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("Read it.")
        assert "… 192 more lines" in screen
        rig.tmux("resize-window", "-t", "tau", "-y", "260")
        rig.keys("C-o")
        deadline = time.monotonic() + 30
        while not all(f"value_{n} = {n}" in (screen := rig.tmux.screen()) for n in (41, 120, 200)):
            assert time.monotonic() < deadline, screen  # the whole file, past the old 40-row cut
            time.sleep(0.1)
        assert "more lines" not in screen


def test_a_read_is_highlighted_by_the_files_extension(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "app.py").write_text("def main():\n    return 42\n")
    replies = _replies(
        ScriptedReply(calls=[ScriptedCall("call_000000001", "read", {"path": "app.py"})]),
        ScriptedReply(text="Read it."),
    )
    with tau(tmp_path, replies) as rig:
        rig.type("read app.py")
        rig.wait_editor("read app.py")
        rig.keys("Enter")
        rig.tmux.wait_for("Read it.")
        colored = rig.tmux("capture-pane", "-p", "-e", "-t", "tau")
        row = next(line for line in colored.splitlines() if "main" in line and "def" in line)
        # "def" (a keyword) and "main" (a function name) are drawn in different colours.
        between = row[row.index("def") : row.index("main")]
        assert re.search(r"\x1b\[[0-9;]*m", between), repr(row)


def test_a_write_shows_what_was_written(tmp_path: Path) -> None:
    content = "".join(f"line {i}\n" for i in range(1, 13))
    replies = _replies(
        ScriptedReply(
            calls=[ScriptedCall("call_000000001", "write", {"path": "notes.txt", "content": content})]
        ),
        ScriptedReply(text="Written."),
    )
    with tau(tmp_path, replies, "--permission-mode", "yolo") as rig:  # the write runs unasked
        rig.type("write notes")
        rig.wait_editor("write notes")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("Written.")
        assert "line 1" in screen and "line 8" in screen and "… 4 more lines" in screen
        assert (tmp_path / "project" / "notes.txt").read_text() == content


def test_single_line_breaks_in_an_answer_are_kept(tmp_path: Path) -> None:
    with tau(tmp_path, _replies(ScriptedReply(text="Roses are red,\nviolets are blue.\n\nThe end."))) as rig:
        rig.type("a poem")
        rig.wait_editor("a poem")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("The end.")
        rows = [row.strip() for row in screen.splitlines()]
        assert "Roses are red," in rows and "violets are blue." in rows


def _visible(rig_screen: str, marker: str) -> list[int]:
    return [int(n) for n in re.findall(rf"{marker} (\d+)\b", rig_screen)]


def test_the_conversation_scrolls_with_page_keys_and_ctrl_home_end(tmp_path: Path) -> None:
    answer = "\n\n".join(f"para {i}" for i in range(1, 121))
    # Full-screen: inline, the conversation is the terminal's scrollback, scrolled by the terminal.
    with tau(tmp_path, _replies(ScriptedReply(text=answer)), "--fullscreen") as rig:
        rig.type("long one")
        rig.wait_editor("long one")
        rig.keys("Enter")
        rig.tmux.wait_for("para 120")
        bottom = _visible(rig.tmux.screen(), "para")
        for key in ("PPage", "S-PPage", "C-Home"):
            rig.keys("C-End")
            rig.tmux.wait_for("para 120")
            rig.keys(key)
            deadline = time.monotonic() + 10
            while max(_visible(rig.tmux.screen(), "para"), default=0) >= max(bottom):
                assert time.monotonic() < deadline, (key, rig.tmux.screen())
                time.sleep(0.05)
        assert 1 in _visible(rig.tmux.screen(), "para")  # Ctrl+Home: the top
        rig.keys("NPage")
        rig.keys("C-End")
        rig.tmux.wait_for("para 120")
        rig.type("still typing")
        rig.wait_editor("still typing")  # the editor kept the focus
