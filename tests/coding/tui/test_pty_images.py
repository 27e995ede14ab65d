"""Images drawn by the real ``tau`` in a terminal that can draw them: ``tau`` runs on a pty
(pty_terminal.py) with the environment of kitty or iTerm2, against a local model server, and
the test reads the raw bytes it writes. A tool result's image (the read tool on a PNG) and an
image in the user's message (a typed path) must arrive as the terminal's graphics sequence, at
the size fitted to the window, carrying the file's bytes; with ``terminal.showImages: false``
only the placeholder must; print mode writes no graphics at all."""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body
from tests.coding.tui.tmux_session import Tmux

from .pty_terminal import PtyTerminal

API = "openai-completions"
KITTY = {"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}
ITERM2 = {"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}
READ_IT = [
    ScriptedReply(text="Let me look.", calls=[ScriptedCall("call_000000001", "read", {"path": "shot.png"})]),
    ScriptedReply(text="A blue box."),
]


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def _home(tmp_path: Path, url: str, settings: Mapping[str, object]) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".tau").mkdir(parents=True)
    (home / ".tau" / "settings.json").write_text(
        json.dumps({"quietStartup": True, "autoTitle": False, **settings})
    )
    provider = {
        "baseUrl": url,
        "api": API,
        "apiKey": "k",
        "models": [{"id": "m", "input": ["text", "image"]}],
    }
    (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
    return {"HOME": str(home), "TAU_HOME": str(home / ".tau"), "PATH": os.environ.get("PATH", "")}


@contextmanager
def _tau(
    tmp_path: Path,
    replies: list[ScriptedReply],
    terminal: Mapping[str, str],
    *args: str,
    settings: Mapping[str, object] | None = None,
    rows: int = 30,
) -> Iterator[PtyTerminal]:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in replies]) as server:
        env = {**_home(tmp_path, server.url, settings or {}), **terminal}
        argv = [sys.executable, "-m", "tau_coding", "--model", "local/m", *args]
        term = PtyTerminal(argv, env, project, columns=100, rows=rows)
        try:
            yield term
        finally:
            term.close()


def _kitty_images(output: bytes) -> list[tuple[dict[str, str], bytes]]:
    """Each image kitty was sent: the first command's keys and the whole payload, decoded."""
    images: list[tuple[dict[str, str], bytes]] = []
    for keys, payload in re.findall(rb"\x1b_G([^;]*);([^\x1b]*)\x1b\\", output):
        parsed = dict(pair.split("=") for pair in keys.decode().split(","))
        if "a" in parsed:
            images.append((parsed, b""))
        images[-1] = (images[-1][0], images[-1][1] + payload)
    return [(keys, base64.b64decode(payload)) for keys, payload in images]


def test_kitty_draws_the_image_the_read_tool_returned_at_the_fitted_size(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(image := _png(300, 200))
    with _tau(tmp_path, READ_IT, KITTY, "read shot.png") as term:
        output = term.wait_for(b"A blue box.")
    [(keys, sent)] = _kitty_images(output)
    assert sent == image
    # 300×200 pixels in 9×18-pixel cells: 34 columns, 12 rows; the cursor stays (C=1), quietly (q=2)
    assert keys == {"a": "T", "f": "100", "c": "34", "r": "12", "C": "1", "q": "2", "m": "0"}
    before, after = output.split(b"\x1b_G", 1)
    assert b"[image: png 300\xc3\x97200" in before  # the placeholder line, then the image below it
    assert before.endswith(b"\x1b[12A\r\x1b[2C\x1b7")  # drawn over the 12 rows written first
    assert after.split(b"\x1b\\", 1)[1].startswith(b"\x1b8\x1b[12B")  # and the text goes on below


def test_show_images_off_keeps_the_placeholder_only(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(_png(300, 200))
    with _tau(
        tmp_path, READ_IT, KITTY, "read shot.png", settings={"terminal": {"showImages": False}}
    ) as term:
        output = term.wait_for(b"A blue box.")
    assert b"[image: png 300\xc3\x97200" in output
    assert b"\x1b_G" not in output and b"1337;File=" not in output


def test_iterm2_draws_a_pasted_path_in_the_users_message_capped_at_20_rows(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "tall.png").write_bytes(image := _png(600, 1200))
    with _tau(tmp_path, [ScriptedReply(text="A tall box.")], ITERM2, rows=40) as term:
        term.wait_for(b"Ask anything")
        term.write(b"what is tall.png")
        term.wait_for(b"what is tall.png")  # in the editor before Enter (docs: the tmux trap)
        term.write(b"\r")
        output = term.wait_for(b"A tall box.")
    [(keys, data)] = re.findall(rb"\x1b\]1337;File=([^:]*):([^\x07]*)\x07", output)
    # 600×1200 would be 60 columns by 60 rows; at most 20 rows, 20 columns keep its shape
    assert b";inline=1;width=20;height=20;preserveAspectRatio=1" in keys
    assert base64.b64decode(data) == image
    assert b"\x1b_G" not in output


def test_print_mode_writes_no_graphics(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(_png(300, 200))
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in READ_IT]) as server:
        env = {**_home(tmp_path, server.url, {}), **KITTY}
        done = subprocess.run(
            [sys.executable, "-m", "tau_coding", "--model", "local/m", "-p", "read shot.png"],
            env=env,
            cwd=tmp_path / "project",
            capture_output=True,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == b"A blue box."
    assert b"\x1b" not in done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_text_after_an_image_starts_below_the_rows_it_covers(tmp_path: Path) -> None:
    """What tau wrote, replayed in a terminal (tmux) of the same size with the image's sequence
    standing as a marker at its top-left corner: after the session, the rows the image covers
    are still empty in the scrollback and the answer comes below them."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(_png(300, 200))
    with _tau(tmp_path, READ_IT, KITTY, "read shot.png") as term:
        term.wait_for(b"A blue box.")
    replay = re.sub(rb"(\x1b_G[^\x1b]*\x1b\\)+", b"IMAGE-HERE", bytes(term.output))
    (tmp_path / "replay.bin").write_bytes(replay)
    tmux = Tmux(tmp_path / "tmux.sock")
    # Echo off: tmux answers the cursor-position queries in what tau wrote, and the answers
    # would otherwise show among the text.
    tmux(
        "new-session",
        "-d",
        "-s",
        "tau",
        "-x",
        "100",
        "-y",
        "30",
        f"stty -echo; cat {tmp_path / 'replay.bin'}; sleep 30",
    )
    try:
        tmux.wait_for("IMAGE-HERE")
        lines = tmux("capture-pane", "-p", "-S", "-", "-t", "tau").splitlines()
    finally:
        tmux.kill()
    top = next(i for i, line in enumerate(lines) if "IMAGE-HERE" in line)
    assert "[image: png 300×200" in lines[top - 1]  # right under the placeholder line
    assert lines[top].index("IMAGE-HERE") == 2  # past the item's left bar
    assert [line.strip() for line in lines[top + 1 : top + 12]] == [""] * 11  # the image's 12 rows
    assert "A blue box." in lines[top + 12]


def _kitty_terminfo(folder: Path) -> Path:
    """A terminfo entry named xterm-kitty (xterm-256color's), for a tmux client to attach as kitty."""
    source = subprocess.run(
        ["infocmp", "-x", "xterm-256color"], capture_output=True, text=True, check=True
    ).stdout
    renamed = re.sub(r"^xterm-256color\|[^,]*,", "xterm-kitty|kitty stand-in,", source, count=1, flags=re.M)
    (folder / "kitty.src").write_text(renamed)
    subprocess.run(["tic", "-x", "-o", str(folder / "terminfo"), str(folder / "kitty.src")], check=True)
    return folder / "terminfo"


@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("tmux", "infocmp", "tic")), reason="needs tmux, infocmp and tic"
)
def test_under_tmux_in_kitty_with_passthrough_the_image_is_placeholder_text(tmp_path: Path) -> None:
    """tau in tmux (allow-passthrough on) with a client attached as kitty: the image goes through
    tmux to the client, placed virtually, and tmux's own history holds the placeholder cells."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "shot.png").write_bytes(image := _png(300, 200))
    with ReplayServerThread([Scripted(body=sse_body(API, r)) for r in READ_IT]) as server:
        env = {**_home(tmp_path, server.url, {}), "TERM": "tmux-256color"}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        tau = f"{shlex.quote(sys.executable)} -m tau_coding --model local/m 'read shot.png'"
        go = tmp_path / "go"
        command = (
            f"while [ ! -e {go} ]; do sleep 0.1; done; cd {shlex.quote(str(project))} && "
            f'env -i {exports} TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" {tau}; sleep 30'
        )
        tmux = Tmux(tmp_path / "tmux.sock")
        tmux("new-session", "-d", "-s", "tau", "-x", "100", "-y", "30", command)
        try:
            tmux("set", "-g", "allow-passthrough", "on")
        except subprocess.CalledProcessError:
            tmux.kill()
            pytest.skip("this tmux has no allow-passthrough (before 3.3)")
        client_env = {"TERM": "xterm-kitty", "TERMINFO": str(_kitty_terminfo(tmp_path)), "PATH": env["PATH"]}
        client = PtyTerminal(
            ["tmux", "-S", tmux.socket, "attach", "-t", "tau"], client_env, tmp_path, 100, 30
        )
        try:
            client.wait_for(b"\x1b[")  # attached: tmux draws the pane for it
            go.touch()
            tmux.wait_for("A blue box.")
            lines = tmux("capture-pane", "-p", "-S", "-", "-t", "tau").splitlines()
            received = client.wait_match(rb"\x1b_Ga=T,U=1,[^\x1b]*\x1b\\")  # all of it
        finally:
            tmux.kill()
            client.close(b"")
    [(keys, sent)] = _kitty_images(received)
    assert keys == {"a": "T", "U": "1", "i": "1", "f": "100", "c": "34", "r": "12", "q": "2", "m": "0"}
    assert sent == image
    top = next(i for i, line in enumerate(lines) if "\U0010eeee" in line)
    assert "[image: png 300×200" in lines[top - 1]
    cells = [line.count("\U0010eeee") for line in lines[top : top + 13]]
    assert cells == [34] * 12 + [0]  # 12 rows of 34 cells, then the text goes on
    assert "A blue box." in "\n".join(lines[top + 12 :])
