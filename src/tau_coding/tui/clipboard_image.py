"""Reading an image from the system clipboard (Ctrl+V) with the tools the desktop provides.

Wayland: ``wl-paste`` (wl-clipboard); X11: ``xclip``; macOS: ``pngpaste``. ``clipboard_tools``
(pure) says which to try, in order, from the environment; ``read_clipboard_image`` runs them
and returns the first image offered, or raises ``ClipboardError`` with one line for the user
(no tool installed, or no image on the clipboard). Nothing is read at import.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

TIMEOUT_SECONDS = 5.0
NO_TOOL = (
    "Pasting an image needs a clipboard tool: wl-clipboard (Wayland), xclip (X11) or pngpaste (macOS); "
    "none was found."
)
NO_IMAGE = "The clipboard holds no image."
PREFERRED = ("image/png", "image/jpeg", "image/webp", "image/gif")


class ClipboardError(Exception):
    """Why no image could be pasted, in one line."""


@dataclass(frozen=True, slots=True)
class ClipboardTool:
    """``list_types`` prints the clipboard's MIME types, one a line (None: the tool gives PNG
    only); ``read`` takes the chosen type and returns the command that prints those bytes."""

    name: str
    list_types: tuple[str, ...] | None
    read: Callable[[str], tuple[str, ...]]


WL_PASTE = ClipboardTool("wl-paste", ("wl-paste", "--list-types"), lambda t: ("wl-paste", "--type", t))
XCLIP = ClipboardTool(
    "xclip",
    ("xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"),
    lambda t: ("xclip", "-selection", "clipboard", "-t", t, "-o"),
)
PNGPASTE = ClipboardTool("pngpaste", None, lambda t: ("pngpaste", "-"))


def clipboard_tools(
    environ: Mapping[str, str],
    platform: str = sys.platform,
    which: Callable[[str], str | None] = shutil.which,
) -> list[ClipboardTool]:
    """The installed tools that can reach this session's clipboard, the likeliest first."""
    wanted: list[ClipboardTool] = []
    if platform == "darwin":
        wanted.append(PNGPASTE)
    if environ.get("WAYLAND_DISPLAY"):
        wanted.append(WL_PASTE)
    if environ.get("DISPLAY"):
        wanted.append(XCLIP)
    return [tool for tool in wanted if which(tool.name) is not None]


def pick_type(offered: Sequence[str]) -> str | None:
    """The image type to ask for among those the clipboard offers (PNG first)."""
    types = [t.strip() for t in offered if t.strip().startswith("image/")]
    return next((t for t in PREFERRED if t in types), types[0] if types else None)


async def _run(command: Sequence[str], environ: Mapping[str, str]) -> bytes | None:
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            stdin=asyncio.subprocess.DEVNULL,
            env=dict(environ),
        )
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(process.communicate(), TIMEOUT_SECONDS)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None
    return out if process.returncode == 0 else None


async def read_clipboard_image(
    environ: Mapping[str, str], tools: Sequence[ClipboardTool] | None = None
) -> tuple[bytes, str]:
    """The clipboard's image as (bytes, MIME type); ``ClipboardError`` when there is none."""
    found = clipboard_tools(environ) if tools is None else list(tools)
    if not found:
        raise ClipboardError(NO_TOOL)
    for tool in found:
        mime: str | None = "image/png"
        if tool.list_types is not None:
            listed = await _run(tool.list_types, environ)
            mime = pick_type(listed.decode(errors="replace").splitlines()) if listed else None
        if mime is None:
            continue
        data = await _run(tool.read(mime), environ)
        if data:
            return data, mime
    raise ClipboardError(NO_IMAGE)
