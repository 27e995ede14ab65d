"""Images in the terminal: which graphics protocol the terminal speaks, the sequences that draw
an image in it, and the one-line placeholder everywhere else.

``image_protocol`` reads the environment (``TERM``, ``TERM_PROGRAM``, ``LC_TERMINAL``,
``KITTY_WINDOW_ID``, ``TMUX``) and the ``terminal.showImages`` setting: kitty's graphics protocol
(kitty, Ghostty, WezTerm's kitty mode), iTerm2's inline images (iTerm2, WezTerm), sixel (foot,
mlterm, xterm with sixel, Contour, Konsole), or None inside tmux or screen (they pass none of
these through reliably) and in every other terminal; under tmux, image_drawing.py may still
draw with kitty's Unicode placeholders (``kitty_placeholders``, ``tmux_passthrough``).
``placeholder`` describes an image in one line (type, pixel size when the header says it,
bytes). Encoding is pure; nothing here writes (image_drawing.py sizes images and places them
in inline mode's scrollback).
"""

from __future__ import annotations

import base64
import io
import re
import struct
from collections.abc import Mapping
from typing import Literal

from tau_agent.content import ImageContent

Protocol = Literal["kitty", "iterm2", "sixel"]
KITTY_CHUNK = 4096


def image_protocol(environ: Mapping[str, str], *, show_images: bool = True) -> Protocol | None:
    """The graphics protocol to draw images with here; None: show placeholders."""
    if not show_images:
        return None
    term = environ.get("TERM", "")
    program = environ.get("TERM_PROGRAM", "")
    if environ.get("TMUX") or term.startswith(("screen", "tmux")):
        return None
    if term == "xterm-kitty" or environ.get("KITTY_WINDOW_ID") or program == "ghostty":
        return "kitty"
    if program in ("iTerm.app", "WezTerm") or environ.get("LC_TERMINAL") == "iTerm2":
        return "iterm2"
    if term.startswith(("foot", "mlterm", "contour")) or "sixel" in term or program == "Konsole":
        return "sixel"
    return None


def pixel_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, JPEG or WebP header; None when it does not say."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 9 < len(data) and data[at] == 0xFF:
            marker, length = data[at + 1], int.from_bytes(data[at + 2 : at + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2):
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return int(width), int(height)
            at += 2 + length
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":  # lossy: 14-bit sizes after the key frame's start code
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: 14 bits each, minus one, after the signature byte
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: 24 bits each, minus one
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KB" if count >= 1024 else f"{count} B"


def placeholder(image: ImageContent) -> str:
    """``[image: png 1200×800, 45 KB]``: the image in one line."""
    data = base64.b64decode(image.data or "", validate=False)
    kind = image.mime_type.removeprefix("image/") or "image"
    size = pixel_size(data)
    pixels = f" {size[0]}×{size[1]}" if size else ""
    return f"[image: {kind}{pixels}, {_size(len(data))}]"


def image_line(image: ImageContent) -> str:
    """The placeholder on a line of its own after the text before it (a tool's output)."""
    return f"\n{placeholder(image)}"


def kitty_sequence(
    png: bytes,
    columns: int,
    rows: int | None = None,
    *,
    move_cursor: bool = True,
    image_id: int | None = None,
    virtual: bool = False,
    placement_id: int | None = None,
) -> str:
    """Kitty's graphics protocol: transmit and show a PNG at the cursor, ``columns`` cells wide
    (and ``rows`` tall when given), sent in 4096-byte chunks as the protocol asks.
    ``move_cursor=False`` (``C=1``): the cursor stays where the image's top-left corner is.
    ``virtual`` (``U=1``, with an ``image_id``): shown nowhere yet, but wherever Unicode
    placeholder cells of that id are (``kitty_placeholders``); ``placement_id`` names the
    placement, so that ``kitty_placement`` can resize it later."""
    payload = base64.b64encode(png).decode("ascii")
    chunks = [payload[i : i + KITTY_CHUNK] for i in range(0, len(payload), KITTY_CHUNK)] or [""]
    keys = "a=T" + (",U=1" if virtual else "") + (f",i={image_id}" if image_id else "")
    keys += f",p={placement_id}" if placement_id else ""
    keys += f",f=100,c={columns}" + (f",r={rows}" if rows else "") + ("" if move_cursor else ",C=1")
    out = []
    for index, chunk in enumerate(chunks):
        more = 1 if index < len(chunks) - 1 else 0
        head = f"{keys},q=2,m={more}" if index == 0 else f"m={more}"
        out.append(f"\x1b_G{head};{chunk}\x1b\\")
    return "".join(out)


def kitty_placement(image_id: int, placement_id: int, columns: int, rows: int) -> str:
    """A new size for the virtual placement ``placement_id`` of the image ``image_id`` (already
    sent): ``columns`` by ``rows`` cells, the image fitted into them."""
    return f"\x1b_Ga=p,U=1,i={image_id},p={placement_id},c={columns},r={rows},q=2\x1b\\"


# The first 80 of kitty's row/column diacritics (the protocol's rowcolumn-diacritics list):
# the n-th marks row n (or column n) of a placeholder cell.
KITTY_DIACRITICS = (
    "\u0305\u030d\u030e\u0310\u0312\u033d\u033e\u033f\u0346\u034a"
    "\u034b\u034c\u0350\u0351\u0352\u0357\u035b\u0363\u0364\u0365"
    "\u0366\u0367\u0368\u0369\u036a\u036b\u036c\u036d\u036e\u036f"
    "\u0483\u0484\u0485\u0486\u0487\u0592\u0593\u0594\u0595\u0597"
    "\u0598\u0599\u059c\u059d\u059e\u059f\u05a0\u05a1\u05a8\u05a9"
    "\u05ab\u05ac\u05af\u05c4\u0610\u0611\u0612\u0613\u0614\u0615"
    "\u0616\u0617\u0657\u0658\u0659\u065a\u065b\u065d\u065e\u06d6"
    "\u06d7\u06d8\u06d9\u06da\u06db\u06dc\u06df\u06e0\u06e1\u06e2"
)
KITTY_PLACEHOLDER = "\U0010eeee"


def kitty_placeholders(image_id: int, columns: int, rows: int) -> list[str]:
    """The text lines that show the virtually placed image ``image_id`` (1-255: its colour in
    the 256-colour palette), ``rows`` of at most ``len(KITTY_DIACRITICS)``. Each line's first
    cell names its row and column 0; kitty takes each following cell as the next column."""
    start, end = f"\x1b[38;5;{image_id}m", "\x1b[39m"
    return [
        start
        + KITTY_PLACEHOLDER
        + KITTY_DIACRITICS[row]
        + KITTY_DIACRITICS[0]
        + KITTY_PLACEHOLDER * (columns - 1)
        + end
        for row in range(rows)
    ]


def tmux_passthrough(sequence: str) -> str:
    """``sequence`` wrapped for tmux to hand to the terminal around it (with ``allow-passthrough
    on``): inside ``ESC Ptmux; … ESC \\``, each ESC doubled."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def iterm2_sequence(data: bytes, columns: int, name: str = "image", rows: int | None = None) -> str:
    """iTerm2's inline image (OSC 1337), ``columns`` cells wide (at most ``rows`` tall when
    given), aspect kept."""
    encoded_name = base64.b64encode(name.encode()).decode("ascii")
    height = f"height={rows};" if rows else ""
    return (
        f"\x1b]1337;File=name={encoded_name};size={len(data)};inline=1;width={columns};{height}"
        f"preserveAspectRatio=1:{base64.b64encode(data).decode('ascii')}\x07"
    )


def sixel_sequence(data: bytes, max_width: int, max_height: int | None = None) -> str:
    """The image as sixel graphics, at most ``max_width`` by ``max_height`` pixels (aspect kept,
    never enlarged), in up to 255 colours. Pillow decodes and quantises it (imported here only);
    each band of six rows is written colour by colour, runs of four or more as ``!n``."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as opened:
        image = opened.convert("RGB")
    image.thumbnail((max(1, max_width), max(1, max_height or image.height)))
    indexed = image.quantize(colors=255)
    palette = indexed.getpalette() or []
    width, height = indexed.size
    pixels = indexed.tobytes()  # one palette index a pixel, row by row
    out = [f'\x1bPq"1;1;{width};{height}']
    for index in sorted(set(pixels)):
        r, g, b = palette[index * 3 : index * 3 + 3]
        out.append(f"#{index};2;{r * 100 // 255};{g * 100 // 255};{b * 100 // 255}")
    for top in range(0, height, 6):
        bands: dict[int, bytearray] = {}
        for dy in range(min(6, height - top)):
            bit = 1 << dy
            start = (top + dy) * width
            for x, index in enumerate(pixels[start : start + width]):
                band = bands.get(index)
                if band is None:
                    band = bands[index] = bytearray(width)
                band[x] |= bit
        lines = (
            f"#{i}" + _runs(bytes(bands[i]).translate(_SIXEL_CHARS).decode().rstrip("?"))
            for i in sorted(bands)
        )
        out.append("$".join(lines) + "-")
    out.append("\x1b\\")
    return "".join(out)


_SIXEL_CHARS = bytes((63 + b) if b < 64 else 63 for b in range(256))
_RUN = re.compile(r"(.)\1{3,}")


def _runs(line: str) -> str:
    """``line`` with each run of four or more of a character as sixel's ``!<count><char>``."""
    return _RUN.sub(lambda m: f"!{len(m.group(0))}{m.group(1)}", line)
