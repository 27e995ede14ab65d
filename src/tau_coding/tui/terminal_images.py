"""Images in the terminal: which graphics protocol the terminal speaks, the sequences that draw
an image in it, and the one-line placeholder everywhere else.

``image_protocol`` reads the environment (``TERM``, ``TERM_PROGRAM``, ``LC_TERMINAL``,
``KITTY_WINDOW_ID``, ``TMUX``) and the ``terminal.showImages`` setting: kitty's graphics protocol
(kitty, Ghostty, WezTerm's kitty mode), iTerm2's inline images (iTerm2, WezTerm), sixel (foot,
mlterm, xterm with sixel, Contour, Konsole), or None inside tmux or screen (they pass none of
these through reliably) and in every other terminal. ``placeholder`` describes an image in one
line (type, pixel size when the header says it, bytes). Encoding is pure; nothing here writes.
"""

from __future__ import annotations

import base64
import io
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
    """Width and height from a PNG, GIF or JPEG header; None when it does not say."""
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


def kitty_sequence(png: bytes, columns: int) -> str:
    """Kitty's graphics protocol: transmit and show a PNG at the cursor, ``columns`` cells wide
    (sent in 4096-byte chunks, as the protocol asks)."""
    payload = base64.b64encode(png).decode("ascii")
    chunks = [payload[i : i + KITTY_CHUNK] for i in range(0, len(payload), KITTY_CHUNK)] or [""]
    out = []
    for index, chunk in enumerate(chunks):
        more = 1 if index < len(chunks) - 1 else 0
        head = f"a=T,f=100,c={columns},q=2,m={more}" if index == 0 else f"m={more}"
        out.append(f"\x1b_G{head};{chunk}\x1b\\")
    return "".join(out)


def iterm2_sequence(data: bytes, columns: int, name: str = "image") -> str:
    """iTerm2's inline image (OSC 1337), ``columns`` cells wide, aspect kept."""
    encoded_name = base64.b64encode(name.encode()).decode("ascii")
    return (
        f"\x1b]1337;File=name={encoded_name};size={len(data)};inline=1;width={columns};"
        f"preserveAspectRatio=1:{base64.b64encode(data).decode('ascii')}\x07"
    )


def sixel_sequence(data: bytes, max_width: int) -> str:
    """The image as sixel graphics, at most ``max_width`` pixels wide, in up to 255 colours
    (Pillow decodes and quantises it; Pillow is imported here only)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as opened:
        image = opened.convert("RGB")
    if image.width > max_width:
        image = image.resize((max_width, max(1, image.height * max_width // image.width)))
    indexed = image.quantize(colors=255)
    palette = indexed.getpalette() or []
    pixels = indexed.load()
    assert pixels is not None
    width, height = indexed.size
    used = sorted({int(pixels[x, y]) for x in range(width) for y in range(height)})  # type: ignore[arg-type]
    out = [f'\x1bPq"1;1;{width};{height}']
    for index in used:
        r, g, b = palette[index * 3 : index * 3 + 3]
        out.append(f"#{index};2;{r * 100 // 255};{g * 100 // 255};{b * 100 // 255}")
    for top in range(0, height, 6):
        band = []
        for index in used:
            row = []
            for x in range(width):
                bits = 0
                for dy in range(6):
                    if top + dy < height and pixels[x, top + dy] == index:
                        bits |= 1 << dy
                row.append(chr(63 + bits))
            line = "".join(row)
            if line.strip("?"):
                band.append(f"#{index}{line}")
        out.append("$".join(band) + "-")
    out.append("\x1b\\")
    return "".join(out)
