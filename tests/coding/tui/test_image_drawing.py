"""Drawing images into the scrollback, the pure parts: the size an image takes in cells, the
sequences (golden: golden/images.sequences.out.json), the rows reserved under an item, the
settings and terminals that turn drawing off, and the scrollback's hook placing them."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image

from tau_agent.content import ImageContent, TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_coding.tui.image_drawing import (
    MAX_COLUMNS,
    MAX_ROWS,
    ImageDrawer,
    as_png,
    drawn_images,
    fit_cells,
    placed,
    reserved,
    tmux_draws,
)
from tau_coding.tui.items import NoticeItem, ToolItem, UserItem
from tau_coding.tui.shell.scrollback import Palette, scrollback_text
from tau_coding.tui.state import from_messages
from tau_coding.tui.terminal_images import kitty_placeholders, pixel_size, sixel_sequence, tmux_passthrough

KITTY = {"TERM": "xterm-kitty"}


def image_bytes(width: int, height: int, fmt: str = "PNG", mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, (width, height), (10, 120, 200) if mode == "RGB" else (10, 120, 200, 128)).save(
        out, format=fmt
    )
    return out.getvalue()


def content(data: bytes, mime: str = "image/png") -> ImageContent:
    return ImageContent(base64.b64encode(data).decode(), mime)


def kitty_keys(drawn: str) -> dict[str, str]:
    """The keys of the first kitty command in ``drawn``."""
    found = re.search(r"\x1b_G([^;]*);", drawn)
    assert found, repr(drawn[:200])
    return dict(pair.split("=") for pair in found.group(1).split(","))


def kitty_payload(drawn: str) -> bytes:
    return base64.b64decode("".join(re.findall(r"\x1b_G[^;]*;([^\x1b]*)\x1b\\", drawn)))


@pytest.mark.parametrize(
    ("pixels", "max_columns", "expected"),
    [
        ((1200, 800), 60, (60, 20)),  # 1200/9 is wider than 60: 60 columns, 800/1200 of that, halved
        ((300, 200), 60, (34, 12)),  # narrower than 60 columns: its own width (never enlarged)
        ((300, 200), 10, (10, 4)),  # a narrow terminal
        ((100, 2000), 60, (2, 20)),  # very tall: capped at 20 rows, narrowed to keep the aspect
        ((1, 1), 60, (1, 1)),
        ((4000, 1), 60, (60, 1)),
        ((0, 0), 60, (1, 1)),  # a header that says nothing sensible still takes a cell
    ],
)
def test_an_image_fits_the_width_keeps_its_aspect_and_is_capped_in_height(
    pixels: tuple[int, int], max_columns: int, expected: tuple[int, int]
) -> None:
    assert fit_cells(pixels, max_columns) == expected


@pytest.mark.parametrize("pixels", [(640, 480), (1920, 1080), (500, 700), (3000, 200), (800, 800)])
def test_the_fitted_cells_have_the_images_shape(pixels: tuple[int, int]) -> None:
    columns, rows = fit_cells(pixels, MAX_COLUMNS)
    drawn = (columns * 9) / (rows * 18)  # the cells' shape in pixels
    wanted = pixels[0] / pixels[1]
    # Rows are whole: the box is at most one row taller than the image, or one column narrower.
    assert columns * 9 / ((rows - 1) * 18 or 1) > wanted or abs(drawn - wanted) / wanted < 0.15
    assert columns <= MAX_COLUMNS and rows <= MAX_ROWS


def test_the_height_cap_follows_the_screen() -> None:
    tall = UserItem("[image]", (content(image_bytes(600, 1200)),))
    assert kitty_keys(ImageDrawer(KITTY)(tall, 100, {}, 40))["r"] == "20"
    assert kitty_keys(ImageDrawer(KITTY)(tall, 100, {}, 12))["r"] == "8"  # four rows kept live


def test_reserved_rows_come_first_and_the_cursor_ends_below_them() -> None:
    block = reserved("<IMAGE>", 3)
    assert block == "\r\n\r\n\r\n\x1b[3A\r\x1b[2C\x1b7<IMAGE>\x1b8\x1b[3B\r\x1b[2K"
    assert reserved("<IMAGE>", 1, indent=0) == "\r\n\x1b[1A\r\x1b7<IMAGE>\x1b8\x1b[1B\r\x1b[2K"


def test_kitty_gets_png_even_from_a_jpeg() -> None:
    jpeg = image_bytes(90, 36, "JPEG")
    drawn = drawn_images(UserItem("x", (content(jpeg, "image/jpeg"),)), 80, placed("kitty"))
    assert kitty_keys(drawn) == {"a": "T", "f": "100", "c": "10", "r": "2", "C": "1", "q": "2", "m": "0"}
    payload = kitty_payload(drawn)
    assert payload.startswith(b"\x89PNG") and pixel_size(payload) == (90, 36)
    assert as_png(payload) is payload  # PNG stays as it is


def test_iterm2_gets_the_file_as_it_is_in_a_box_of_cells() -> None:
    data = image_bytes(300, 200, "GIF")
    drawn = drawn_images(
        ToolItem("c", "read", {}, "ok", images=(content(data, "image/gif"),)), 80, placed("iterm2")
    )
    assert ";inline=1;width=34;height=12;preserveAspectRatio=1:" in drawn
    assert base64.b64decode(drawn.split(":", 1)[1].split("\x07")[0]) == data
    assert drawn.startswith("\r\n" * 12 + "\x1b[12A")


def test_every_image_of_an_item_is_drawn_one_below_the_other() -> None:
    item = UserItem("two", (content(image_bytes(18, 18)), content(image_bytes(36, 72))))
    drawn = drawn_images(item, 80, placed("kitty"))
    assert [(k["c"], k["r"]) for k in map(kitty_keys, drawn.split("\x1b8")[:2])] == [("2", "1"), ("4", "4")]


def test_a_broken_or_sizeless_image_is_left_to_its_placeholder() -> None:
    broken = image_bytes(40, 40, "JPEG")[:200]  # a header that says its size, then nothing
    item = UserItem(
        "x", (content(broken, "image/jpeg"), content(b"not an image"), ImageContent("@@@", "image/png"))
    )
    assert drawn_images(item, 80, placed("kitty")) == ""
    assert drawn_images(item, 80, placed("sixel")) == ""


@pytest.mark.parametrize(
    ("environ", "settings"),
    [
        (KITTY, {"terminal.showImages": "False"}),
        ({**KITTY, "TMUX": "/tmp/tmux-0/default,1,0"}, {}),  # tmux: placeholders (docs/tui.md)
        ({"TERM": "xterm-256color"}, {}),
    ],
)
def test_nothing_is_drawn_where_images_are_off_or_cannot_be(
    environ: dict[str, str], settings: dict[str, str]
) -> None:
    item = UserItem("x", (content(image_bytes(30, 20)),))
    assert ImageDrawer(environ, lambda: "")(item, 80, settings, 30) == ""
    assert ImageDrawer(KITTY)(item, 80, {"terminal.showImages": "True"}, 30) != ""


def test_the_scrollback_writes_an_items_images_below_its_lines() -> None:
    items = [UserItem("look\n[image: png 30×20, 1 KB]", (content(image_bytes(30, 20)),)), NoticeItem("after")]
    text = scrollback_text(
        items, 60, Palette(), color_system=None, after=lambda i, w: drawn_images(i, w, placed("kitty"))
    )
    before, image = text.split("\x1b7", 1)
    assert re.search(r"\[image: png 30×20, 1 KB\] *\r\n\r\n\r\n\x1b\[2A\r\x1b\[2C$", before)
    assert image.index("\x1b8") < image.index("after")
    plain = scrollback_text(items, 60, Palette(), color_system=None)
    assert "\x1b_G" not in plain and "after" in plain


def test_webp_sizes_are_read_from_all_three_kinds_of_header() -> None:
    lossy = image_bytes(301, 17, "WEBP")
    lossless = io.BytesIO()
    Image.new("RGB", (5, 401)).save(lossless, format="WEBP", lossless=True)
    extended = image_bytes(77, 66, "WEBP", mode="RGBA")
    assert (lossy[12:16], lossless.getvalue()[12:16], extended[12:16]) == (b"VP8 ", b"VP8L", b"VP8X")
    assert pixel_size(lossy) == (301, 17)
    assert pixel_size(lossless.getvalue()) == (5, 401)
    assert pixel_size(extended) == (77, 66)


def test_sixels_fit_the_box_and_repeat_runs() -> None:
    sequence = sixel_sequence(image_bytes(200, 100), max_width=40, max_height=16)
    assert sequence.startswith('\x1bPq"1;1;32;16')  # the aspect kept inside 40×16
    assert "!32~" in sequence  # one colour, 32 columns of six rows each: one run


def test_user_messages_and_tool_results_keep_their_images_for_drawing() -> None:
    shot = content(image_bytes(30, 20))
    state = from_messages(
        [
            UserMessage([TextContent("what is this?"), shot]),
            AssistantMessage([ToolCall("c1", "read", {"path": "shot.png"})]),
            ToolResultMessage("c1", "read", [TextContent("Read image file"), shot]),
        ]
    )
    user, _, tool = state.items
    assert isinstance(user, UserItem) and user.images == (shot,)
    assert user.text.startswith("what is this?\n[image: png 30×20, ")
    assert isinstance(tool, ToolItem) and tool.images == (shot,) and "[image: png 30×20" in tool.output


def test_tmux_passthrough_doubles_every_escape_inside() -> None:
    assert tmux_passthrough("\x1b_Ga=T;AAAA\x1b\\") == "\x1bPtmux;\x1b\x1b_Ga=T;AAAA\x1b\x1b\\\x1b\\"


def test_placeholder_cells_name_their_row_and_column_zero_and_carry_the_id_as_colour() -> None:
    lines = kitty_placeholders(7, 3, 2)
    assert lines == [
        "\x1b[38;5;7m\U0010eeee\u0305\u0305\U0010eeee\U0010eeee\x1b[39m",
        "\x1b[38;5;7m\U0010eeee\u030d\u0305\U0010eeee\U0010eeee\x1b[39m",
    ]


@pytest.mark.parametrize(
    ("answer", "draws"),
    [
        ("xterm-kitty 1", True),  # tmux 3.3: a flag, 1 or 0
        ("xterm-ghostty on", True),  # tmux 3.4: off, on or all
        ("xterm-kitty all", True),
        ("xterm-kitty 0", False),  # passthrough is off by default
        ("xterm-256color 1", False),  # a terminal that may not show placeholders (WezTerm, iTerm2)
        (" 1", False),  # no client attached
        ("", False),  # tmux did not answer
    ],
)
def test_tmux_draws_only_for_kitty_or_ghostty_with_passthrough_allowed(answer: str, draws: bool) -> None:
    assert tmux_draws(answer) is draws


def test_under_tmux_images_are_placeholder_text_and_tmux_is_asked_once() -> None:
    asked: list[str] = []

    def answer() -> str:
        asked.append("asked")
        return "xterm-kitty 1"

    drawer = ImageDrawer({"TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"}, answer)
    item = UserItem("x", (content(image_bytes(30, 20)), content(image_bytes(18, 18))))
    drawn = drawer(item, 80, {}, 30)
    assert drawn.count("\x1bPtmux;\x1b\x1b_Ga=T,U=1,") == 2
    assert "\x1b\x1b_Ga=T,U=1,i=1,f=100,c=4,r=2," in drawn and "i=2,f=100,c=2,r=1," in drawn  # ids go on
    text = re.sub(r"\x1bPtmux;.*?[^\x1b]\x1b\\", "", drawn)  # what tmux keeps as text
    assert text.count("\r\n") == 3 and text.count("\U0010eeee") == 4 * 2 + 2 * 1
    drawer(item, 80, {}, 30)
    assert asked == ["asked"]
    assert ImageDrawer({"TMUX": "/tmp/tmux-0/default,1,0"}, lambda: "xterm-kitty 0")(item, 80, {}, 30) == ""


def test_image_width_cells_caps_the_width_as_pis_setting_does() -> None:
    wide = UserItem("[image]", (content(image_bytes(1800, 300)),))
    assert kitty_keys(ImageDrawer(KITTY)(wide, 200, {}, 40))["c"] == str(MAX_COLUMNS)
    assert kitty_keys(ImageDrawer(KITTY)(wide, 200, {"terminal.imageWidthCells": "120"}, 40))["c"] == "120"
    assert kitty_keys(ImageDrawer(KITTY)(wide, 100, {"terminal.imageWidthCells": "120"}, 40))["c"] == "97"
    for bad in ("0", "-5", "wide", "7.5"):  # not a whole number of cells: the default
        assert kitty_keys(ImageDrawer(KITTY)(wide, 200, {"terminal.imageWidthCells": bad}, 40))["c"] == "60"
