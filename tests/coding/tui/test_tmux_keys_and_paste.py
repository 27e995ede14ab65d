"""What a new user typed into ``tau`` in tmux: pastes (bracketed or not), slash commands
completed and run with one Enter, Alt+Enter and Shift+Enter in every common encoding, and a
command typed and sent in one burst. Skips without tmux."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.tui.tmux_session import API, Tmux, launch, point_at

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@dataclass
class Rig:
    tmux: Tmux
    server: ReplayServerThread
    home: Path

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "tau", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "tau", "-l", text)

    def raw(self, text: str) -> None:
        """Bytes as a terminal would send them (escape sequences included)."""
        self.tmux("send-keys", "-t", "tau", "-H", *(f"{b:02x}" for b in text.encode()))

    def paste(self, text: str, *, bracketed: bool) -> None:
        self.tmux("set-buffer", "--", text)
        self.tmux("paste-buffer", "-t", "tau", *(["-p"] if bracketed else []))

    def editor_lines(self) -> list[str]:
        """The editor box's text lines, as on screen."""
        rows = self.tmux.screen().splitlines()
        # No box while a frame is being drawn (or a dialog covers the editor): empty, the caller polls.
        bottom = max((i for i, row in enumerate(rows) if row.lstrip().startswith("╰")), default=None)
        top = max((i for i, row in enumerate(rows[:bottom]) if row.lstrip().startswith("╭")), default=None)
        if bottom is None or top is None:
            return []
        return [row.strip().strip("│").strip() for row in rows[top + 1 : bottom]]

    def wait_editor(self, check: str, timeout: float = 10.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.editor_lines()
            if check in "\n".join(lines):
                return lines
            time.sleep(0.05)
        raise AssertionError(f"{check!r} never reached the editor:\n{self.tmux.screen()}")

    def sent(self, index: int = -1) -> str:
        return json.dumps(self.server.requests[index].json()["messages"][-1]["content"])

    def user_texts(self, index: int = -1) -> list[str]:
        messages = self.server.requests[index].json()["messages"]
        return [
            m["content"] if isinstance(m["content"], str) else json.dumps(m["content"])
            for m in messages
            if m["role"] == "user"
        ]


@contextmanager
def tau(
    tmp_path: Path, replies: list[Scripted], *args: str, env: dict[str, str] | None = None
) -> Iterator[Rig]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir(exist_ok=True)
    with ReplayServerThread(replies) as server:
        point_at(home, server.url)
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m", *args, env=env)
        try:
            tmux.wait_for_app()
            yield Rig(tmux, server, home)
        finally:
            tmux.kill()


def _answers(*texts: str) -> list[Scripted]:
    return [Scripted(body=sse_body(API, ScriptedReply(text=t))) for t in texts]


def test_a_small_bracketed_paste_is_inserted_once(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.paste("just one line", bracketed=True)
        lines = rig.wait_editor("just one line")
        time.sleep(0.3)
        assert rig.editor_lines()[0] == "just one line", lines


def test_a_small_unbracketed_paste_is_inserted_once(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.paste("just one line", bracketed=False)
        rig.wait_editor("just one line")
        time.sleep(0.3)
        assert rig.editor_lines()[0] == "just one line"


def test_a_multi_line_paste_keeps_its_newlines_on_screen_and_in_the_request(tmp_path: Path) -> None:
    """tmux (like xterm) sends the paste's line breaks as CR; the model must get LF."""
    small = "alpha\nbeta\ngamma"
    large = "\n".join(f"line {i}" for i in range(1, 400))
    with tau(tmp_path, _answers("first", "second")) as rig:
        rig.paste(small, bracketed=True)
        assert rig.wait_editor("gamma")[:3] == ["alpha", "beta", "gamma"]
        rig.keys("Enter")
        rig.tmux.wait_for("first")
        assert json.loads(rig.sent(0)) == small
        rig.paste(large, bracketed=True)
        rig.wait_editor("[paste #1 +399 lines]")
        rig.keys("Enter")
        rig.tmux.wait_for("second")
        got = json.loads(rig.sent(1))
        assert got == large and got.count("\n") == 398 and "\r" not in got


def test_slash_commands_with_arguments_run_on_one_enter(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("/theme light")
        rig.wait_editor("/theme light")
        rig.keys("Enter")
        rig.tmux.wait_for("Theme: light")
        rig.wait_editor(
            "Ask anything"
        )  # the placeholder: the editor was emptied (polled: a frame may be mid-draw)
        rig.type("/model local/m")
        rig.wait_editor("/model local/m")
        rig.keys("Enter")
        rig.tmux.wait_for("model: local/m")
        rig.wait_editor(
            "Ask anything"
        )  # the placeholder: the editor was emptied (polled: a frame may be mid-draw)


def test_a_command_typed_in_full_runs_on_the_first_enter(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("/export")
        rig.wait_editor("/export")
        rig.keys("Enter")
        rig.tmux.wait_for("Exported")
        rig.wait_editor(
            "Ask anything"
        )  # the placeholder: the editor was emptied (polled: a frame may be mid-draw)


def test_a_picked_argument_runs_the_command(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("/theme li")
        rig.tmux.wait_for("light")
        rig.keys("Enter")
        rig.tmux.wait_for("Theme: light")
        rig.wait_editor(
            "Ask anything"
        )  # the placeholder: the editor was emptied (polled: a frame may be mid-draw)


SHIFT_ENTER = ("\x1b[27;2;13~", "\x1b[13;2u")
ALT_ENTER = ("\x1b\r", "\x1b[13;3u", "\x1b[27;3;13~")


@pytest.mark.parametrize("encoding", SHIFT_ENTER, ids=["xterm-modifyOtherKeys", "kitty-csi-u"])
def test_shift_enter_inserts_a_new_line(tmp_path: Path, encoding: str) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("first")
        rig.wait_editor("first")
        rig.raw(encoding)
        rig.type("second")
        lines = rig.wait_editor("second")
        assert lines[:2] == ["first", "second"]
        assert not rig.server.requests


def _slow(text: str) -> Scripted:
    body = sse_body(API, ScriptedReply(chunks=tuple(f"{text} {i} " for i in range(30))))
    return Scripted(body=body, chunk_size=max(1, len(body) // 30), delay=0.1)


@pytest.mark.parametrize("encoding", ALT_ENTER, ids=["esc-cr", "kitty-csi-u", "xterm-modifyOtherKeys"])
def test_alt_enter_while_streaming_queues_a_follow_up(tmp_path: Path, encoding: str) -> None:
    with tau(tmp_path, [_slow("streaming"), *_answers("after the follow-up")]) as rig:
        rig.type("start")
        rig.wait_editor("start")
        rig.keys("Enter")
        rig.tmux.wait_for("streaming 1")
        rig.type("and then this")
        rig.wait_editor("and then this")
        rig.raw(encoding)
        rig.tmux.wait_for("» follow-up: and then this")
        rig.tmux.wait_for("after the follow-up", timeout=30)
        assert json.loads(rig.sent(1)) == "and then this"


def test_a_command_and_enter_sent_in_one_burst_run_as_typed(tmp_path: Path) -> None:
    """The keys and the Enter arrive in one read: Enter must act on "/hotkeys", not on a
    completion menu computed for "/" or "/h"."""
    with tau(tmp_path, _answers("ok")) as rig:
        for attempt in range(20):
            rig.keys("-l", "/hotkeys")
            rig.keys("Enter")
            rig.tmux.wait_for("queue a follow-up for when the run ends", timeout=10)
            rig.keys("Escape")
            deadline = time.monotonic() + 10
            while "queue a follow-up for when the run ends" in rig.tmux.screen():
                assert time.monotonic() < deadline, (attempt, rig.tmux.screen())
                time.sleep(0.05)
