"""Inline mode in tmux when what is already in the scrollback must change: a resize (the terminal
rewraps its lines), Ctrl+O and /theme. Tau clears the screen and the scrollback and writes the
conversation again (docs/tui.md); afterwards the pane's history holds each item once and no
stale copy of the live region. Skips without tmux."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.test_tmux_inline import _history, _in_order, _prompt, _reply
from tests.coding.tui.test_tmux_keys_and_paste import Rig, tau
from tests.coding.tui.tmux_session import API

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

EDITOR = "Ask anything"  # the editor's placeholder: on screen only in the live region


def _slow(words: int, delay: float = 0.1) -> Scripted:
    body = sse_body(API, ScriptedReply(chunks=tuple(f"word{i} " for i in range(words))))
    return Scripted(body=body, chunk_size=max(1, len(body) // words), delay=delay)


def _settled(rig: Rig, text: str, timeout: float = 10.0) -> str:
    """The pane's history once ``text`` is in it and it has stopped changing."""
    deadline = time.monotonic() + timeout
    last = ""
    while time.monotonic() < deadline:
        history = _history(rig)
        if text in history and history == last:
            return history
        last = history
        time.sleep(0.3)
    raise AssertionError(f"{text!r} never settled in the history:\n{_history(rig)}")


def _once_each(history: str, parts: list[str]) -> None:
    _in_order(history, parts)
    for part in parts:
        assert history.count(part) == 1, f"{part!r} {history.count(part)} times:\n{history}"


def test_narrowing_and_resizing_leave_each_item_once_and_no_copy_of_the_live_region(tmp_path: Path) -> None:
    replies = [_reply(ScriptedReply(text=f"Answer number {i}.")) for i in range(3)]
    replies.append(_slow(40))
    with tau(tmp_path, replies) as rig:
        for i in range(3):
            _prompt(rig, f"Question number {i}")
            rig.tmux.wait_for(f"Answer number {i}.")
        rig.tmux("resize-window", "-t", "tau", "-x", "70", "-y", "32")
        history = _settled(rig, EDITOR)
        _once_each(history, [*(f"Answer number {i}." for i in range(3)), EDITOR])
        rig.tmux("resize-window", "-t", "tau", "-x", "70", "-y", "12")  # fewer rows only
        time.sleep(0.3)
        rig.tmux("resize-window", "-t", "tau", "-x", "70", "-y", "30")
        history = _settled(rig, EDITOR)
        _once_each(history, [*(f"Answer number {i}." for i in range(3)), EDITOR])
        _prompt(rig, "Stream slowly")
        rig.tmux.wait_for("word5")
        rig.tmux("resize-window", "-t", "tau", "-x", "50", "-y", "24")  # narrower while it streams
        time.sleep(0.3)
        rig.tmux("resize-window", "-t", "tau", "-x", "64", "-y", "20")
        rig.tmux.wait_for("word39")
        history = _settled(rig, "word39")
        _once_each(history, [*(f"Answer number {i}." for i in range(3)), "Stream slowly", EDITOR])
        rig.keys("C-d")
        rig.tmux.wait_for("TAU-EXITED-0")
        history = _history(rig)
    _once_each(history, [*(f"Question number {i}" for i in range(3)), "Stream slowly", "word39"])
    assert EDITOR not in history


def _styled_line(rig: Rig, text: str) -> str:
    """The pane's history line holding ``text``, with its colours (``capture-pane -e``)."""
    styled = rig.tmux("capture-pane", "-p", "-e", "-t", "tau", "-S", "-")
    return next(line for line in styled.splitlines() if text in line)


def test_ctrl_o_and_theme_write_the_scrollback_again_as_it_now_looks(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "big.txt").write_text("".join(f"row {i:02d}\n" for i in range(60)))
    replies = [
        _reply(ScriptedReply(calls=[ScriptedCall("call_000000001", "read", {"path": "big.txt"})])),
        _reply(ScriptedReply(text="Read it.")),
    ]
    parts = ["▌ Which file?", "✓ read big.txt", "row 00", "Read it.", EDITOR]
    with tau(tmp_path, replies) as rig:
        _prompt(rig, "Which file?")
        rig.tmux.wait_for("Read it.")
        history = _settled(rig, "Read it.")
        assert "row 59" not in history  # collapsed
        rig.keys("C-o")
        history = _settled(rig, "row 59")
        _once_each(history, [*parts[:3], "row 59", *parts[3:]])
        rig.keys("C-o")
        history = _settled(rig, EDITOR)
        assert "row 59" not in history
        _once_each(history, parts)
        dark = _styled_line(rig, "Which file?")
        _prompt(rig, "/theme light")
        deadline = time.monotonic() + 10
        while _styled_line(rig, "Which file?") == dark and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _styled_line(rig, "Which file?") != dark  # the prompt's colours are the light theme's
        _once_each(_settled(rig, "Theme: light"), parts)
