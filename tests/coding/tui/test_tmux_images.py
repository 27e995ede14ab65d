"""Images as a user attaches them in ``tau`` under tmux: Ctrl+V with an image on the clipboard
(an ``xclip`` stand-in script on PATH, a real subprocess), an image file's path dropped on the
terminal (pasted, quoted), and Ctrl+V where no clipboard tool exists. The request the local
model server receives must carry the image. Skips without tmux."""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.coding.tui.test_tmux_keys_and_paste import _answers
from tests.coding.tui.test_tmux_titles_and_changelog import tau as tau_with

SEEING = [{"id": "m", "input": ["text", "image"]}]
QUIET = {"quietStartup": True, "autoTitle": False}

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(out, format="PNG")
    return out.getvalue()


def _fake_xclip(folder: Path, image: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "clip.png").write_bytes(image)
    script = folder / "xclip"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$*" in *TARGETS*) printf "TARGETS\\nimage/png\\n" ;; *) cat {folder / "clip.png"} ;; esac\n'
    )
    script.chmod(0o755)
    return folder


def _sent_images(body: dict[str, object]) -> list[bytes]:
    messages = body["messages"]
    assert isinstance(messages, list)
    urls = [
        part["image_url"]["url"]
        for m in messages
        if m["role"] == "user" and isinstance(m["content"], list)
        for part in m["content"]
        if part.get("type") == "image_url"
    ]
    assert all(url.startswith("data:image/png;base64,") for url in urls), urls
    return [base64.b64decode(url.split(",", 1)[1]) for url in urls]


def test_ctrl_v_pastes_the_clipboard_image_and_the_model_receives_it(tmp_path: Path) -> None:
    image = _png(30, 20)
    tools = _fake_xclip(tmp_path / "bin", image)
    env = {"PATH": f"{tools}:{os.environ.get('PATH', '')}", "DISPLAY": ":42"}
    with tau_with(tmp_path, _answers("A blue rectangle."), QUIET, SEEING, env) as rig:
        rig.type("what is this? ")
        rig.wait_editor("what is this?")
        rig.keys("C-v")
        rig.wait_editor("[image #1]")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("A blue rectangle.")
        assert "[image: png 30×20" in screen  # the transcript's placeholder (tmux: no graphics)
        assert _sent_images(rig.server.requests[-1].json()) == [image]
        assert "what is this? [image #1]" in rig.sent()


def test_a_dropped_image_path_attaches_the_file(tmp_path: Path) -> None:
    shots = tmp_path / "my shots"
    shots.mkdir()
    image = _png(3000, 10)  # larger than providers take: images.autoResize shrinks it
    (shots / "wide.png").write_bytes(image)
    with tau_with(tmp_path, _answers("A thin strip."), QUIET, SEEING) as rig:
        rig.paste(f"'{shots / 'wide.png'}' ", bracketed=True)  # what a terminal types for a drop
        rig.type("describe it")
        rig.wait_editor("describe it")
        rig.keys("Enter")
        rig.tmux.wait_for("A thin strip.")
        [sent] = _sent_images(rig.server.requests[-1].json())
        assert Image.open(io.BytesIO(sent)).size == (2000, 7)
        assert "wide.png" in json.dumps(rig.server.requests[-1].json()["messages"][-1])


@pytest.mark.skipif(shutil.which("xclip", path="/usr/bin:/bin") is not None, reason="xclip is installed")
def test_ctrl_v_without_a_clipboard_tool_says_so_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    env = {"PATH": f"{empty}:/usr/bin:/bin", "DISPLAY": ":42"}  # X11, but no xclip installed
    with tau_with(tmp_path, _answers("unused"), QUIET, SEEING, env) as rig:
        rig.type("keep me")
        rig.wait_editor("keep me")
        rig.keys("C-v")
        screen = rig.tmux.wait_for("Pasting an image needs a clipboard tool")
        assert "keep me" in rig.editor_lines()[0]  # nothing lost
        assert "Traceback" not in screen


def test_a_model_without_images_says_they_were_not_sent(tmp_path: Path) -> None:
    (tmp_path / "shot.png").write_bytes(_png(5, 5))
    with tau_with(tmp_path, _answers("Text only."), QUIET, [{"id": "m"}]) as rig:
        rig.type(f"look at {tmp_path / 'shot.png'}")
        rig.wait_editor("shot.png")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("Text only.")
        assert "local/m takes no images: 1 image not sent" in screen
        assert _sent_images(rig.server.requests[-1].json()) == []
