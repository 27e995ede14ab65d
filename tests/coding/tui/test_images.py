"""Images in the TUI, the pure and local parts: which graphics protocol a terminal speaks, the
sequences and placeholders, the clipboard tools (real subprocesses standing in for xclip), image
paths in the prompt, and what the settings do to attached images."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from tau_agent.content import ImageContent
from tau_coding.modes.interactive.prompt_images import images_to_send
from tau_coding.tui.attachments import ImageAttachments, image_paths, sniff_mime
from tau_coding.tui.clipboard_image import (
    NO_IMAGE,
    NO_TOOL,
    XCLIP,
    ClipboardError,
    ClipboardTool,
    clipboard_tools,
    pick_type,
    read_clipboard_image,
)
from tau_coding.tui.terminal_images import (
    image_protocol,
    iterm2_sequence,
    kitty_sequence,
    pixel_size,
    placeholder,
    sixel_sequence,
)


def png(width: int = 4, height: int = 3, color: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


def encoded(data: bytes, fmt: str) -> bytes:
    out = io.BytesIO()
    Image.open(io.BytesIO(data)).save(out, format=fmt)
    return out.getvalue()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TERM": "xterm-kitty"}, "kitty"),
        ({"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}, "kitty"),
        ({"TERM_PROGRAM": "ghostty"}, "kitty"),
        ({"TERM_PROGRAM": "iTerm.app"}, "iterm2"),
        ({"TERM_PROGRAM": "WezTerm"}, "iterm2"),
        ({"LC_TERMINAL": "iTerm2"}, "iterm2"),
        ({"TERM": "foot"}, "sixel"),
        ({"TERM": "xterm-sixel"}, "sixel"),
        ({"TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"}, None),  # tmux: placeholders
        ({"TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"}, None),
        ({"TERM": "xterm-256color"}, None),
        ({}, None),
    ],
)
def test_the_protocol_is_read_from_the_environment(environ: dict[str, str], expected: str | None) -> None:
    assert image_protocol(environ) == expected


def test_show_images_off_means_placeholders_everywhere() -> None:
    assert image_protocol({"TERM": "xterm-kitty"}, show_images=False) is None


def test_pixel_sizes_come_from_the_headers() -> None:
    data = png(640, 480)
    assert pixel_size(data) == (640, 480)
    assert pixel_size(encoded(data, "GIF")) == (640, 480)
    assert pixel_size(encoded(data, "JPEG")) == (640, 480)
    assert pixel_size(b"not an image") is None


def test_the_placeholder_is_one_line_with_type_size_and_bytes() -> None:
    data = png(1200, 800)
    line = placeholder(ImageContent(data=base64.b64encode(data).decode(), mime_type="image/png"))
    assert line.startswith("[image: png 1200×800, ") and line.endswith("]") and "\n" not in line


def test_kitty_sends_chunks_of_at_most_4096_and_marks_the_last() -> None:
    data = bytes(range(256)) * 40  # 10 KB: three chunks of base64
    sequence = kitty_sequence(data, columns=30)
    parts = sequence.split("\x1b\\")[:-1]
    assert len(parts) == 4 and parts[0].startswith("\x1b_Ga=T,f=100,c=30,q=2,m=1;")
    assert [p.split(";")[0][-3:] for p in parts[1:]] == ["m=1", "m=1", "m=0"]
    payload = "".join(p.split(";", 1)[1] for p in parts)
    assert base64.b64decode(payload) == data


def test_iterm2_inlines_the_file_at_a_width() -> None:
    data = png()
    sequence = iterm2_sequence(data, 40, "shot.png")
    assert sequence.startswith("\x1b]1337;File=") and sequence.endswith("\x07")
    assert f"size={len(data)};inline=1;width=40" in sequence
    assert base64.b64decode(sequence.rsplit(":", 1)[1][:-1]) == data


def test_sixel_draws_every_pixel_in_its_colour() -> None:
    sequence = sixel_sequence(png(3, 7, (255, 0, 0)), max_width=100)
    assert sequence.startswith('\x1bPq"1;1;3;7') and sequence.endswith("\x1b\\")
    assert "2;100;0;0" in sequence  # red, in sixel's percentages
    bands = sequence.split("-")[:-1]
    assert len(bands) == 2  # 7 rows: two bands of six
    assert bands[0].endswith("~~~") and bands[1].endswith("@@@")  # all six rows, then the one left


def test_the_clipboard_tools_follow_the_session() -> None:
    everything = lambda name: f"/usr/bin/{name}"  # noqa: E731
    assert [
        t.name
        for t in clipboard_tools({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "linux", everything)
    ] == [
        "wl-paste",
        "xclip",
    ]
    assert [t.name for t in clipboard_tools({}, "darwin", everything)] == ["pngpaste"]
    assert clipboard_tools({"DISPLAY": ":0"}, "linux", lambda name: None) == []
    assert pick_type(["TARGETS", "text/plain", "image/jpeg", "image/png"]) == "image/png"
    assert pick_type(["image/bmp"]) == "image/bmp"
    assert pick_type(["UTF8_STRING"]) is None


def _fake_tool(tmp_path: Path, types: str, image: bytes) -> ClipboardTool:
    (tmp_path / "image.bin").write_bytes(image)
    script = tmp_path / "fake-xclip"
    script.write_text(
        f'#!/bin/sh\ncase "$*" in *TARGETS*) printf "{types}" ;; *) cat {tmp_path / "image.bin"} ;; esac\n'
    )
    script.chmod(0o755)
    return ClipboardTool(str(script), (str(script), "TARGETS"), lambda t: (str(script), "-t", t))


async def test_a_clipboard_image_is_read_through_the_tool(tmp_path: Path) -> None:
    data = png()
    tool = _fake_tool(tmp_path, "TARGETS\\nimage/png\\n", data)
    assert await read_clipboard_image({"PATH": "/usr/bin:/bin"}, [tool]) == (data, "image/png")


async def test_no_image_and_no_tool_are_one_clear_line_each(tmp_path: Path) -> None:
    tool = _fake_tool(tmp_path, "UTF8_STRING\\n", b"")
    with pytest.raises(ClipboardError, match=NO_IMAGE):
        await read_clipboard_image({"PATH": "/usr/bin:/bin"}, [tool])
    with pytest.raises(ClipboardError) as raised:
        await read_clipboard_image({}, [])
    assert str(raised.value) == NO_TOOL and "\n" not in NO_TOOL
    assert XCLIP.read("image/png")[-3:] == ("-t", "image/png", "-o")


def test_image_paths_are_read_as_a_shell_would(tmp_path: Path) -> None:
    folder = tmp_path / "with space"
    folder.mkdir()
    (folder / "shot one.png").write_bytes(png())
    (tmp_path / "rel.JPG").write_bytes(encoded(png(), "JPEG"))
    (tmp_path / "notes.txt").write_text("x")
    typed = f"what is '{folder}/shot one.png' and {tmp_path}/with\\ space/shot\\ one.png vs rel.JPG notes.txt gone.png"
    assert image_paths(typed, tmp_path) == [folder / "shot one.png", tmp_path / "rel.JPG"]
    assert image_paths("an 'unbalanced quote rel.JPG", tmp_path) == [tmp_path / "rel.JPG"]
    assert image_paths(f"file://{tmp_path}/rel.JPG", tmp_path) == [tmp_path / "rel.JPG"]


def test_pasted_images_go_with_their_markers_and_files_after_them(tmp_path: Path) -> None:
    (tmp_path / "b.png").write_bytes(png(2, 2))
    store = ImageAttachments()
    first, second = store.add(png(5, 5), "image/png"), store.add(encoded(png(), "JPEG"), "image/png")
    assert (first, second) == ("[image #1]", "[image #2]")
    images = store.take(f"see {second} and b.png", tmp_path)  # marker #1 was deleted
    assert [i.mime_type for i in images] == ["image/jpeg", "image/png"]  # the bytes decide the type
    assert pixel_size(base64.b64decode(images[1].data)) == (2, 2)
    assert store.take("[image #2]", tmp_path) == []  # sent: forgotten
    assert sniff_mime(b"RIFF1234WEBPVP8 ", "image/png") == "image/webp"


def _image(data: bytes) -> ImageContent:
    return ImageContent(data=base64.b64encode(data).decode(), mime_type="image/png")


def test_block_images_sends_none_and_says_so() -> None:
    kept, lines = images_to_send([_image(png()), _image(png())], {"images": {"blockImages": True}})
    assert kept == [] and lines == ["images.blockImages is on: 2 images not sent."]


def test_auto_resize_shrinks_a_large_image_and_leaves_a_small_one() -> None:
    small, large = _image(png()), _image(png(3000, 100))
    kept, lines = images_to_send([small, large], {})
    assert lines == [] and kept[0] is small
    assert pixel_size(base64.b64decode(kept[1].data)) == (2000, 67)
    kept, _ = images_to_send([large], {"images": {"autoResize": False}})
    assert kept == [large]


def test_an_unreadable_image_is_left_out_with_a_line() -> None:
    kept, lines = images_to_send([_image(b"garbage")], {})
    assert kept == [] and len(lines) == 1 and lines[0].startswith("Image 1 was not sent: ")
