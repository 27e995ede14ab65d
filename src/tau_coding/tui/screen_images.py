"""Images in full-screen mode (docs/tui.md#images): kitty's Unicode placeholders, cells Textual lays out.

Textual owns every cell of the full-screen app and writes only what changed since its last
frame; a picture drawn behind its back (iTerm2's inline image, sixels, a kitty placement at the
cursor) would be erased by the next frame that touches those cells and never drawn again. So an
image is sent once to the terminal as a virtual kitty placement (``ScreenImages``), and shown by
``ImageCells``: rows of kitty's placeholder character whose foreground colour names the image
and whose diacritics name each cell's row and column. Those are text to Textual: it scrolls,
clips and repaints them like any other, and kitty draws the image wherever they are. Under tmux
the same cells are text tmux keeps, and the image goes through to a kitty client as inline mode
sends it (image_drawing.py). Elsewhere (iTerm2, sixel terminals, a terminal without 256
colours) the item's one-line placeholder stays.

Not textual-image (PyPI): it is LGPL-3.0, needs Python 3.12 (Tau runs on 3.11), and decides
what the terminal can draw by querying it when imported, which has to happen before Textual
takes the terminal: at every start, not when the first image shows, and without Tau's own
detection (terminal_images.py) or ``terminal.showImages``.

app.py imports this module when the first item with an image is shown in full-screen mode;
Pillow is imported only to turn a non-PNG image into PNG.
"""

from __future__ import annotations

import base64
import binascii
import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from rich.color import Color
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style

from tau_agent.content import ImageContent
from tau_coding.tui.image_drawing import MAX_COLUMNS, MAX_ROWS, as_png, ask_tmux, fit_cells, tmux_draws
from tau_coding.tui.items import Item, ToolItem, UserItem
from tau_coding.tui.terminal_images import (
    KITTY_DIACRITICS,
    KITTY_PLACEHOLDER,
    image_protocol,
    kitty_placement,
    kitty_sequence,
    pixel_size,
    tmux_passthrough,
)

PLACEMENT = 1  # each image has one placement, resized when the width it is drawn at changes
FIRST_24_BIT_ID = 0x5A0001  # kitty reads a 24-bit foreground as the image id; away from small ids

Send = Callable[[str], object]  # writes to the terminal, past Textual's frames


def placeholder_rows(columns: int, rows: int) -> list[str]:
    """The text of an image ``columns`` by ``rows`` cells: every cell names its row and column
    (Textual may redraw part of a row, so no cell relies on the one written before it)."""
    marks = KITTY_DIACRITICS
    return [
        "".join(KITTY_PLACEHOLDER + marks[row] + marks[column] for column in range(columns))
        for row in range(rows)
    ]


def id_style(image_id: int, color_system: str | None) -> Style:
    """The foreground that names ``image_id`` to kitty: 24-bit where Textual writes 24-bit
    colours, else the 256-colour index."""
    if color_system == "truecolor":
        return Style(color=Color.from_rgb(image_id >> 16, (image_id >> 8) & 0xFF, image_id & 0xFF))
    return Style(color=Color.from_ansi(image_id))


def image_ids(color_system: str | None) -> Iterator[int] | None:
    """The ids images get, as colours that reach the terminal unchanged; None: none do.

    With 256 colours Textual turns an indexed colour into its RGB value and Rich back into the
    nearest index: the colour cube's greys come back as other indexes, so they are left out."""
    if color_system == "truecolor":
        return itertools.count(FIRST_24_BIT_ID)
    if color_system == "256":
        cube = (16 + n for n in range(216) if not n // 36 == n // 6 % 6 == n % 6)
        return itertools.cycle(list(cube))
    return None


def kitty_route(environ: Mapping[str, str], tmux_answer: Callable[[], str]) -> Callable[[str], str] | None:
    """How kitty's commands reach the terminal: as they are in kitty and Ghostty; inside tmux,
    wrapped for its passthrough when ``tmux_answer`` says a kitty client is attached and
    passthrough is on; None where images stay placeholders."""
    protocol = image_protocol(environ)
    if protocol == "kitty":
        return lambda sequence: sequence
    if protocol is None and environ.get("TMUX") and tmux_draws(tmux_answer()):
        return lambda sequence: "".join(
            tmux_passthrough(part + "\x1b\\") for part in sequence.split("\x1b\\")[:-1]
        )
    return None


@dataclass(eq=False)
class ImageCells:
    """One image as placeholder cells: as wide as the width it is rendered at allows (at most
    ``max_columns``, ``max_rows`` tall, its shape kept); ``place`` is told each size it is drawn at."""

    image_id: int
    pixels: tuple[int, int]
    style: Style
    place: Callable[[ImageCells, int, int], None]
    max_columns: int = MAX_COLUMNS
    max_rows: int = MAX_ROWS

    def size(self, width: int) -> tuple[int, int]:
        """``(columns, rows)`` at ``width`` cells."""
        limit = max(1, min(self.max_columns, width, len(KITTY_DIACRITICS)))
        return fit_cells(self.pixels, limit, min(self.max_rows, len(KITTY_DIACRITICS)))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns, rows = self.size(options.max_width)
        self.place(self, columns, rows)
        for line in placeholder_rows(columns, rows):
            yield Segment(line, self.style)
            yield Segment.line()


@dataclass
class _Sent:
    png: bytes
    size: tuple[int, int] | None = None  # the placement's, once sent


@dataclass
class ScreenImages:
    """The images of the items shown, each sent to the terminal once (through ``send``), as it
    is first drawn, and placed again when drawn at another size. ``cells`` gives what a view
    shows under an item's text; None where images cannot be drawn here."""

    environ: Mapping[str, str]
    send: Send
    color_system: str | None
    tmux_answer: Callable[[], str] | None = None
    _route: Callable[[str], str] | None = field(default=None, init=False)
    _routed: bool = field(default=False, init=False)
    _ids: Iterator[int] | None = field(default=None, init=False)
    _shown: dict[int, tuple[Item, RenderableType | None]] = field(default_factory=dict, init=False)
    _sent: dict[int, _Sent] = field(default_factory=dict, init=False)

    def cells(self, item: Item, settings: Mapping[str, str], screen_rows: int) -> RenderableType | None:
        """``item``'s images, one below the other (the same object every time for an item, so
        that each image is sent once); ``settings`` as ``port.settings()`` gives them:
        ``terminal.showImages`` false shows none, ``terminal.imageWidthCells`` caps the width."""
        if not isinstance(item, UserItem | ToolItem) or not item.images:
            return None
        if settings.get("terminal.showImages", "True") == "False" or not self._can_draw():
            return None
        known = self._shown.get(id(item))
        if known is not None and known[0] is item:
            return known[1]
        wanted = settings.get("terminal.imageWidthCells", "")
        max_columns = int(wanted) if wanted.isdigit() and int(wanted) > 0 else MAX_COLUMNS
        max_rows = max(1, min(MAX_ROWS, screen_rows - 6))  # the editor and footer stay in view
        shown = [
            image
            for image in (self._image(data, max_columns, max_rows) for data in item.images)
            if image is not None
        ]
        renderable = Group(*shown) if shown else None
        self._shown[id(item)] = (item, renderable)
        return renderable

    def _can_draw(self) -> bool:
        if not self._routed:
            self._routed = True
            self._route = kitty_route(self.environ, self.tmux_answer or (lambda: ask_tmux(self.environ)))
            self._ids = image_ids(self.color_system)
        return self._route is not None and self._ids is not None

    def _image(self, image: ImageContent, max_columns: int, max_rows: int) -> ImageCells | None:
        try:
            data = base64.b64decode(image.data, validate=False)
            size = pixel_size(data)
            png = as_png(data) if size is not None else b""
        except (binascii.Error, ValueError, OSError, SyntaxError):  # Pillow's, for a broken file
            return None
        if size is None or self._ids is None:
            return None
        image_id = next(self._ids)
        self._sent[image_id] = _Sent(png)
        style = id_style(image_id, self.color_system)
        return ImageCells(image_id, size, style, self._place, max_columns, max_rows)

    def _place(self, cells: ImageCells, columns: int, rows: int) -> None:
        sent, route = self._sent.get(cells.image_id), self._route
        if sent is None or route is None or sent.size == (columns, rows):
            return
        if sent.size is None:
            sequence = kitty_sequence(
                sent.png, columns, rows, image_id=cells.image_id, virtual=True, placement_id=PLACEMENT
            )
        else:
            sequence = kitty_placement(cells.image_id, PLACEMENT, columns, rows)
        sent.size = (columns, rows)
        self.send(route(sequence))


__all__ = [
    "ImageCells",
    "ScreenImages",
    "id_style",
    "image_ids",
    "kitty_route",
    "placeholder_rows",
]
