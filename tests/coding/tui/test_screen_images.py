"""Full-screen images, the parts without a terminal (screen_images.py): the placeholder cells,
the colours that name images, how kitty's commands reach the terminal, and each image sent once
and placed again only at a new size. The real ``tau --fullscreen``: test_pty_fullscreen_images.py."""

from __future__ import annotations

import base64
import io
import subprocess
import sys

from PIL import Image
from rich.color import Color, ColorSystem
from rich.console import Console
from rich.terminal_theme import MONOKAI
from textual.filter import ANSIToTruecolor

from tau_agent.content import ImageContent
from tau_coding.tui.items import ToolItem, UserItem
from tau_coding.tui.screen_images import ScreenImages, id_style, image_ids, kitty_route, placeholder_rows
from tau_coding.tui.terminal_images import KITTY_DIACRITICS, KITTY_PLACEHOLDER

KITTY = {"TERM": "xterm-kitty"}


def _image(width: int, height: int, fmt: str = "PNG") -> ImageContent:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(out, format=fmt)
    return ImageContent(data=base64.b64encode(out.getvalue()).decode(), mime_type=f"image/{fmt.lower()}")


def _render(renderable: object, width: int) -> list[str]:
    console = Console(width=width, color_system="truecolor", force_terminal=True, record=True)
    console.print(renderable)
    return console.export_text(styles=False).splitlines()


def test_every_cell_names_its_row_and_column() -> None:
    rows = placeholder_rows(3, 2)
    marks = KITTY_DIACRITICS
    assert rows == [
        "".join(KITTY_PLACEHOLDER + marks[row] + marks[column] for column in range(3)) for row in range(2)
    ]


def test_256_colour_ids_skip_the_greys_and_reach_the_terminal_unchanged() -> None:
    ids = image_ids("256")
    assert ids is not None
    cube = [next(ids) for _ in range(210)]
    assert next(ids) == cube[0]  # then round again
    assert 16 not in cube and 59 not in cube and 231 not in cube and len(set(cube)) == 210
    # What Textual does to a colour before Rich writes it with 256 colours: to RGB and back
    to_rgb = ANSIToTruecolor(MONOKAI)
    for image_id in cube:
        written = to_rgb.truecolor_style(id_style(image_id, "256"), Color.from_rgb(0, 0, 0))
        assert written.color is not None and written.color.downgrade(ColorSystem.EIGHT_BIT).number == image_id
    assert image_ids("standard") is None and image_ids(None) is None


def test_kitty_commands_go_straight_to_kitty_and_through_tmux_only_to_a_kitty_client() -> None:
    command = "\x1b_Ga=p,i=1;\x1b\\"
    direct = kitty_route(KITTY, lambda: "")
    assert direct is not None and direct(command) == command
    tmux = {"TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"}
    through = kitty_route(tmux, lambda: "xterm-kitty on")
    assert through is not None and through(command) == "\x1bPtmux;\x1b\x1b_Ga=p,i=1;\x1b\x1b\\\x1b\\"
    assert kitty_route(tmux, lambda: "xterm-256color on") is None
    assert kitty_route({"TERM_PROGRAM": "iTerm.app"}, lambda: "") is None  # Textual would paint over it
    assert kitty_route({"TERM": "foot"}, lambda: "") is None


def test_an_image_is_sent_once_and_placed_again_only_at_a_new_width() -> None:
    sent: list[str] = []
    images = ScreenImages(KITTY, sent.append, "truecolor")
    item = ToolItem("c1", "read", {"path": "a.png"}, status="ok")
    item.images = (_image(300, 200),)
    cells = images.cells(item, {}, 40)
    assert cells is not None and images.cells(item, {}, 40) is cells  # one renderable per item
    assert sent == []  # nothing until it is drawn
    lines = _render(cells, 80)
    assert len(lines) == 12 and all(line.count(KITTY_PLACEHOLDER) == 34 for line in lines)
    _render(cells, 80)
    assert len(sent) == 1 and sent[0].startswith("\x1b_Ga=T,U=1,i=5898241,p=1,f=100,c=34,r=12,q=2,")
    narrow = _render(cells, 20)  # a narrower window: the same image, placed smaller
    assert len(narrow) == 7 and narrow[0].count(KITTY_PLACEHOLDER) == 20
    assert sent[1:] == ["\x1b_Ga=p,U=1,i=5898241,p=1,c=20,r=7,q=2\x1b\\"]


def test_settings_terminals_and_broken_images_that_show_nothing() -> None:
    user = UserItem("look", (_image(40, 40, "GIF"),))
    assert ScreenImages(KITTY, print, "truecolor").cells(user, {"terminal.showImages": "False"}, 40) is None
    assert ScreenImages({"TERM": "xterm-256color"}, print, "truecolor").cells(user, {}, 40) is None
    assert ScreenImages(KITTY, print, "standard").cells(user, {}, 40) is None  # no colour to name it
    broken = UserItem(
        "look",
        (ImageContent(data=base64.b64encode(b"\x89PNG\r\n\x1a\nnot").decode(), mime_type="image/png"),),
    )
    assert ScreenImages(KITTY, print, "truecolor").cells(broken, {}, 40) is None
    sent: list[str] = []
    capped = ScreenImages(KITTY, sent.append, "truecolor").cells(user, {"terminal.imageWidthCells": "3"}, 40)
    assert capped is not None and _render(capped, 80)[0].count(KITTY_PLACEHOLDER) == 3
    assert ",f=100,c=3,r=2," in sent[0]  # a GIF, turned into PNG for kitty


def test_the_full_screen_app_does_not_import_it_at_start() -> None:
    code = "import sys, tau_coding.tui.shell.app; print('tau_coding.tui.screen_images' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
