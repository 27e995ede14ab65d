"""Images drawn into the terminal's scrollback (inline mode, docs/tui.md#images).

An image in a user message or a tool result is drawn under the item's text, once, when the
item is written to the scrollback: ``fit_cells`` sizes it in character cells (as wide as the
terminal allows up to ``MAX_COLUMNS``, never wider than its own pixels, at most ``MAX_ROWS``
tall, aspect kept with cells about twice as tall as wide), ``image_sequence`` is the terminal's
protocol drawing it there, and ``reserved`` makes room: the rows the image covers are written
as blank lines first, so that text written after it starts below it. Under tmux, where a
picture drawn behind tmux's back would not survive its redraws, only kitty's Unicode
placeholders are used (``tmux_image``: text tmux keeps), when tmux says the terminal attached
can show them. ``ImageDrawer`` picks among these; everything else here is pure but
``ask_tmux``. app.py imports this module only when an item with images is written, and Pillow
is imported only to turn a non-PNG image into PNG for kitty or to make sixels.
"""

from __future__ import annotations

import base64
import binascii
import io
import itertools
import subprocess
from collections.abc import Callable, Mapping
from typing import TypeAlias

from tau_agent.content import ImageContent
from tau_coding.tui.items import Item, ToolItem, UserItem
from tau_coding.tui.terminal_images import (
    Protocol,
    image_protocol,
    iterm2_sequence,
    kitty_placeholders,
    kitty_sequence,
    pixel_size,
    sixel_sequence,
    tmux_passthrough,
)

Draw: TypeAlias = Callable[[bytes, int, int], str]  # an image's bytes, columns, rows -> output

CELL = (9, 18)  # a cell's assumed size in pixels when sizing an image: twice as tall as wide
# Sixels are pixels, not cells: a smaller cell than most terminals have keeps the image inside
# the rows reserved for it (on a terminal with larger cells it is drawn a little smaller).
SIXEL_CELL = (8, 16)
MAX_COLUMNS = 60
MAX_ROWS = 20
INDENT = 2  # the image starts under the item's text, past its left bar
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TMUX_KITTY_TERMS = ("xterm-kitty", "xterm-ghostty")
TMUX_QUERY = "#{client_termname} #{allow-passthrough}"


def fit_cells(
    pixels: tuple[int, int], max_columns: int, max_rows: int = MAX_ROWS, cell: tuple[int, int] = CELL
) -> tuple[int, int]:
    """The ``(columns, rows)`` an image ``pixels`` wide and tall takes: at most ``max_columns``
    and no wider than its own width in cells, at most ``max_rows``, its aspect ratio kept to
    the cell; never less than 1×1."""
    width, height = max(1, pixels[0]), max(1, pixels[1])
    cell_width, cell_height = cell
    columns = max(1, min(max_columns, -(-width // cell_width)))
    rows = max(1, -(-height * columns * cell_width // (width * cell_height)))
    if rows > max_rows:
        rows = max(1, max_rows)
        columns = max(1, min(columns, width * rows * cell_height // (height * cell_width)))
    return columns, rows


def as_png(data: bytes) -> bytes:
    """``data`` as PNG (kitty's ``f=100`` takes PNG only); Pillow converts other formats.
    Raises OSError (``PIL.UnidentifiedImageError`` is one) when Pillow cannot read it."""
    if data.startswith(PNG_SIGNATURE):
        return data
    from PIL import Image

    out = io.BytesIO()
    with Image.open(io.BytesIO(data)) as opened:
        opened.save(out, format="PNG")
    return out.getvalue()


def image_sequence(protocol: Protocol, data: bytes, columns: int, rows: int) -> str:
    """What draws ``data`` with its top-left corner at the cursor, ``columns`` by ``rows``
    cells, leaving the cursor where it was (kitty) or moving it (the others: ``reserved``
    puts it back). Raises OSError when the image cannot be decoded for the protocol."""
    if protocol == "kitty":
        return kitty_sequence(as_png(data), columns, rows, move_cursor=False)
    if protocol == "iterm2":
        return iterm2_sequence(data, columns, rows=rows)
    return sixel_sequence(data, columns * SIXEL_CELL[0], rows * SIXEL_CELL[1])


def reserved(sequence: str, rows: int, indent: int = INDENT) -> str:
    """``rows`` new lines, then ``sequence`` drawn over them from ``indent`` columns in; the
    cursor ends at the start of the (erased) line below them, as after that many lines of text. The
    cursor is saved and restored around ``sequence`` (DECSC/DECRC): where a protocol leaves it
    differs between terminals. The lines are written first so that the terminal scrolls before
    the image is drawn, never while."""
    right = f"\x1b[{indent}C" if indent else ""
    return "\r\n" * rows + f"\x1b[{rows}A\r{right}\x1b7{sequence}\x1b8\x1b[{rows}B\r\x1b[2K"


def tmux_image(png: bytes, columns: int, rows: int, image_id: int, indent: int = INDENT) -> str:
    """Under tmux: the PNG sent through tmux to the terminal around it, placed virtually as
    ``image_id``, then ``rows`` lines of kitty's Unicode placeholder cells where it shows. The
    cells are text to tmux: they stay in its history, scroll and redraw with the rest."""
    transmit = kitty_sequence(png, columns, rows, image_id=image_id, virtual=True)
    wrapped = "".join(tmux_passthrough(part + "\x1b\\") for part in transmit.split("\x1b\\")[:-1])
    lines = kitty_placeholders(image_id, columns, rows)
    return wrapped + "".join(f"{' ' * indent}{line}\r\n" for line in lines)


def placed(protocol: Protocol) -> Draw:
    """Drawing with ``protocol`` straight to the terminal, over rows ``reserved`` for it."""
    return lambda data, columns, rows: reserved(image_sequence(protocol, data, columns, rows), rows)


def item_images(item: Item) -> tuple[ImageContent, ...]:
    """The images shown with ``item``: those of a user message or of a tool's result."""
    return item.images if isinstance(item, UserItem | ToolItem) else ()


def drawn_images(
    item: Item, width: int, draw: Draw, max_rows: int = MAX_ROWS, max_columns: int = MAX_COLUMNS
) -> str:
    """``item``'s images drawn one below the other for a terminal ``width`` columns wide, each
    at most ``max_columns`` by ``max_rows``; an image whose header gives no size, or that
    cannot be decoded, is left out (its placeholder line, in the item's text, stays)."""
    out: list[str] = []
    for image in item_images(item):
        try:
            data = base64.b64decode(image.data, validate=False)
        except (binascii.Error, ValueError):
            continue
        size = pixel_size(data)
        if size is None:
            continue
        columns, rows = fit_cells(size, min(max_columns, width - INDENT - 1), max_rows)
        try:
            out.append(draw(data, columns, rows))
        except (OSError, ValueError, SyntaxError):  # what Pillow raises for a broken file
            continue
    return "".join(out)


def tmux_draws(answer: str) -> bool:
    """Whether images are drawn in this tmux pane, from tmux's answer to ``TMUX_QUERY``: the
    terminal attached is kitty or Ghostty (the terminals that show kitty's Unicode
    placeholders) and the pane may pass sequences through (``allow-passthrough``)."""
    parts = answer.split()
    return len(parts) == 2 and parts[0] in TMUX_KITTY_TERMS and parts[1] in ("1", "on", "all")


def ask_tmux(environ: Mapping[str, str]) -> str:
    """tmux's answer to ``TMUX_QUERY`` for the pane Tau runs in; "" when tmux gives none."""
    try:
        done = subprocess.run(
            ["tmux", "display-message", "-p", "-t", environ.get("TMUX_PANE", ""), TMUX_QUERY],
            capture_output=True,
            text=True,
            timeout=2,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


class ImageDrawer:
    """What the scrollback writes after an item: its images, drawn with the protocol the
    terminal in ``environ`` speaks; under tmux, with kitty's Unicode placeholders when
    ``tmux_answer`` (asked once, at the first image) says the pane can show them; nothing
    where images cannot be drawn or ``terminal.showImages`` is false."""

    def __init__(self, environ: Mapping[str, str], tmux_answer: Callable[[], str] | None = None) -> None:
        self._environ = environ
        self._tmux_answer = tmux_answer or (lambda: ask_tmux(environ))
        self._tmux: bool | None = None
        self._ids = itertools.cycle(range(1, 256))  # kitty image ids, as 256-colour indexes

    def __call__(self, item: Item, width: int, settings: Mapping[str, str], screen_rows: int) -> str:
        """``settings``: flattened rows, as ``port.settings()`` gives them. An image is at most
        ``terminal.imageWidthCells`` wide (Pi's setting; a whole number, else ``MAX_COLUMNS``)
        and ``MAX_ROWS`` tall, and leaves four of the screen's ``screen_rows`` for the live
        region."""
        if settings.get("terminal.showImages", "True") == "False" or not item_images(item):
            return ""
        max_rows = max(1, min(MAX_ROWS, screen_rows - 4))
        wanted = settings.get("terminal.imageWidthCells", "")
        max_columns = int(wanted) if wanted.isdigit() and int(wanted) > 0 else MAX_COLUMNS
        protocol = image_protocol(self._environ)
        if protocol is not None:
            return drawn_images(item, width, placed(protocol), max_rows, max_columns)
        if not self._environ.get("TMUX"):
            return ""
        if self._tmux is None:
            self._tmux = tmux_draws(self._tmux_answer())
        if not self._tmux:
            return ""
        return drawn_images(item, width, self._through_tmux, max_rows, max_columns)

    def _through_tmux(self, data: bytes, columns: int, rows: int) -> str:
        return tmux_image(as_png(data), columns, rows, next(self._ids))


__all__ = [
    "CELL",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "ImageDrawer",
    "as_png",
    "ask_tmux",
    "drawn_images",
    "fit_cells",
    "image_sequence",
    "item_images",
    "placed",
    "reserved",
    "tmux_draws",
    "tmux_image",
]
