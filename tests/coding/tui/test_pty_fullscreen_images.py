"""Images in the real ``tau --fullscreen`` on a pty (pty_terminal.py), read as raw bytes: in a
kitty terminal the image is sent once as a virtual placement and shown by kitty's placeholder
cells, which Textual writes as text where the image goes (screen_images.py); with
``terminal.showImages: false``, or in a terminal whose images full-screen mode cannot keep
(iTerm2, sixel), only the one-line placeholder is written."""

from __future__ import annotations

import re
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.tui.terminal_images import KITTY_DIACRITICS, KITTY_PLACEHOLDER

from .test_pty_images import ITERM2, KITTY, READ_IT, _kitty_images, _png, _tau

TRUECOLOR_KITTY = {**KITTY, "COLORTERM": "truecolor"}  # what kitty sets


def _cells(output: bytes) -> tuple[set[tuple[int, int]], set[str]]:
    """Every placeholder cell written, as (row, column) from its diacritics, and the colours
    (SGR parameters) the cells were written in."""
    text = output.decode("utf-8", "replace")
    marks = {mark: index for index, mark in enumerate(KITTY_DIACRITICS)}
    cells = {(marks[row], marks[column]) for row, column in re.findall(f"{KITTY_PLACEHOLDER}(.)(.)", text)}
    colours = set(re.findall(f"\x1b\\[([0-9;]*)m{KITTY_PLACEHOLDER}", text))
    return cells, colours


def test_kitty_full_screen_sends_the_read_tools_image_once_and_shows_its_cells(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(image := _png(300, 200))
    with _tau(tmp_path, READ_IT, TRUECOLOR_KITTY, "--fullscreen", "read shot.png") as term:
        term.wait_for(b"A blue box.")
        output = term.wait_for(KITTY_PLACEHOLDER.encode())
    [(keys, sent)] = _kitty_images(output)
    assert sent == image
    # 300×200 pixels in 9×18-pixel cells: 34 columns by 12 rows, a virtual placement (U=1)
    image_id = int(keys["i"])
    assert keys == {
        "a": "T",
        "U": "1",
        "i": str(image_id),
        "p": "1",
        "f": "100",
        "c": "34",
        "r": "12",
        "q": "2",
        "m": "0",
    }
    assert output.index(b"\x1b_G") < output.index(KITTY_PLACEHOLDER.encode())  # sent before it shows
    cells, colours = _cells(output)
    assert cells == {(row, column) for row in range(12) for column in range(34)}
    # The cells' foreground is the image's id, as a 24-bit colour
    red, green, blue = image_id >> 16, (image_id >> 8) & 0xFF, image_id & 0xFF
    assert colours and all(f"38;2;{red};{green};{blue}" in colour for colour in colours)
    assert b"[image: png 300\xc3\x97200" in output  # the placeholder line stays above it


def test_256_colours_name_the_image_by_index_and_a_pasted_path_is_capped_in_rows(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "tall.png").write_bytes(image := _png(600, 1200))
    with _tau(tmp_path, [ScriptedReply(text="A tall box.")], KITTY, "--fullscreen", rows=40) as term:
        term.wait_for(b"Ask anything")
        term.write(b"what is tall.png")
        term.wait_for(b"what is tall.png")
        term.write(b"\r")
        term.wait_for(b"A tall box.")
        output = term.wait_for(KITTY_PLACEHOLDER.encode())
    [(keys, sent)] = _kitty_images(output)
    assert sent == image
    # 600×1200 would be 60 by 60 cells; at most 20 rows, 20 columns keep its shape
    assert (keys["c"], keys["r"], keys["i"]) == ("20", "20", "17")  # 16 is the cube's black: a grey
    cells, colours = _cells(output)
    assert cells == {(row, column) for row in range(20) for column in range(20)}
    assert colours and all("38;5;17" in colour for colour in colours)


def test_show_images_off_leaves_the_placeholder_line_alone(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(_png(300, 200))
    settings = {"terminal": {"showImages": False}}
    with _tau(tmp_path, READ_IT, TRUECOLOR_KITTY, "--fullscreen", "read shot.png", settings=settings) as term:
        output = term.wait_for(b"A blue box.")
    assert b"[image: png 300\xc3\x97200" in output
    assert b"\x1b_G" not in output and KITTY_PLACEHOLDER.encode() not in output


def test_iterm2_full_screen_keeps_the_placeholder(tmp_path: Path) -> None:
    """Textual would paint over an inline image at its next frame there: no graphics at all."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "shot.png").write_bytes(_png(300, 200))
    with _tau(tmp_path, READ_IT, ITERM2, "--fullscreen", "read shot.png") as term:
        output = term.wait_for(b"A blue box.")
    assert b"[image: png 300\xc3\x97200" in output
    assert b"1337;File=" not in output and b"\x1b_G" not in output
    assert KITTY_PLACEHOLDER.encode() not in output
