"""The early frame in a real terminal (tmux): the editor drawn before Textual is imported echoes
keys typed at once, they end in the app's editor, the app's first frame lands on it (one box in
the pane's whole history), and an Enter typed then sends once. Skips without tmux."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServer, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _history(tmux: Tmux) -> str:
    return tmux("capture-pane", "-p", "-t", "tau", "-S", "-")


def _boxes(tmux: Tmux) -> int:
    """Editor boxes in the pane's scrollback and screen (each has one top-left corner)."""
    return sum(row.startswith(" ╭") for row in _history(tmux).splitlines())


def _wait(tmux: Tmux, check: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while check not in tmux.screen():
        assert time.monotonic() < deadline, f"{check!r} never showed:\n{tmux.screen()}"
        time.sleep(0.005)


def _cursor(tmux: Tmux) -> tuple[int, int, bool]:
    x, y, shown = tmux("display", "-p", "-t", "tau", "#{cursor_x} #{cursor_y} #{cursor_flag}").split()
    return int(x), int(y), shown == "1"


@contextmanager
def _started(tmp_path: Path, replies: list[str]) -> Iterator[tuple[Tmux, ReplayServer]]:
    """``tau`` just spawned in tmux (nothing waited for), against a server answering ``replies``."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    with ReplayServerThread([Scripted(body=sse_body(API, ScriptedReply(text=t))) for t in replies]) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            yield tmux, server
        finally:
            tmux.kill()


def test_keys_typed_into_the_early_frame_are_echoed_there_and_end_in_the_editor(tmp_path: Path) -> None:
    with _started(tmp_path, ["Heard you."]) as (tmux, server):
        _wait(tmux, "Ask anything")
        tmux("send-keys", "-t", "tau", "-l", "hello")
        _wait(tmux, "│ hello")
        # The terminal's own cursor, after the text: the early frame (the app hides it and draws its own).
        assert _cursor(tmux)[0::2] == (8, True), tmux.screen()
        tmux.wait_for("local/m")  # the app is up and the session open
        rows = tmux.screen().splitlines()
        assert rows[0].startswith(" ╭") and rows[1].startswith(" │ hello") and rows[2].startswith(" ╰")
        assert not _cursor(tmux)[2]  # the app's frame, drawn over the early one
        assert _boxes(tmux) == 1, _history(tmux)
        tmux("send-keys", "-t", "tau", "Enter")  # what was typed is the editor's: Enter sends it
        tmux.wait_for("Heard you.")
        assert len(server.requests) == 1 and "hello" in str(server.requests[0].json()["messages"][-1])


def test_enter_typed_into_the_early_frame_sends_once_the_session_is_open(tmp_path: Path) -> None:
    with _started(tmp_path, ["Port 9090.", "Unused."]) as (tmux, server):
        _wait(tmux, "Ask anything")
        tmux("send-keys", "-t", "tau", "-l", "Which port?")
        tmux("send-keys", "-t", "tau", "Enter")
        tmux("send-keys", "-t", "tau", "-l", "then")  # after the Enter: kept for the app, not echoed early
        tmux.wait_for("Port 9090.")
        tmux.wait_for("then")
        time.sleep(0.3)
        assert len(server.requests) == 1
        assert "Which port?" in str(server.requests[0].json()["messages"][-1])
        history = _history(tmux)
        assert history.count(" ▌ Which port?") == 1 and _boxes(tmux) == 1, history


def test_editing_keys_typed_before_the_app_is_ready_edit_as_they_would_later(tmp_path: Path) -> None:
    # A fast typist fixing a typo at once: before, the arrows and what followed them were lost
    # and "what is the wrod" went out as "what is the wrodr?".
    with _started(tmp_path, ["Heard you."]) as (tmux, server):
        _wait(tmux, "Ask anything")
        tmux("send-keys", "-t", "tau", "-l", "what is the wrod")
        tmux("send-keys", "-t", "tau", "Left", "Left", "BSpace", "Right", "r", "End", "?")
        tmux("send-keys", "-t", "tau", "C-a", "s", "o", "Space", "Enter")
        tmux.wait_for("Heard you.")
        assert len(server.requests) == 1
        assert "so what is the word?" in str(server.requests[0].json()["messages"][-1])
