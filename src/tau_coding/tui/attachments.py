"""Images attached to the prompt being written: pasted ones (Ctrl+V) and image files named in it.

A pasted image shows in the editor as ``[image #N]``; on send, each marker still in the text
brings its image along (a marker deleted from the text drops its image). A path to an image
file in the text (typed, or dropped on the terminal, which types it, quoted or with escaped
spaces) attaches that file as well; the path stays in the text so the model knows the name.
"""

from __future__ import annotations

import base64
import re
import shlex
from pathlib import Path

from tau_agent.content import ImageContent

IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
MAX_FILE_BYTES = 64 * 1024 * 1024
_MARKER = re.compile(r"\[image #(\d+)\]")
_SIGNATURES = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF87a": "image/gif",
    b"GIF89a": "image/gif",
}


def sniff_mime(data: bytes, claimed: str) -> str:
    """The image's real type from its first bytes (``claimed`` when they say nothing)."""
    for signature, mime in _SIGNATURES.items():
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return claimed


def image_block(data: bytes, mime_type: str) -> ImageContent:
    return ImageContent(data=base64.b64encode(data).decode("ascii"), mime_type=sniff_mime(data, mime_type))


def image_paths(text: str, cwd: Path) -> list[Path]:
    """Existing image files the text names (absolute, ``~``, or relative to ``cwd``), in order,
    each once. Words are read as a shell would (quotes, ``\\ `` for a space); text that does not
    parse as shell words is read word by word."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    found: list[Path] = []
    for word in words:
        word = word.removeprefix("file://")
        if Path(word).suffix.lower() not in IMAGE_TYPES:
            continue
        path = Path(word).expanduser()
        path = path if path.is_absolute() else cwd / path
        try:
            if path.is_file() and path.stat().st_size <= MAX_FILE_BYTES and path not in found:
                found.append(path)
        except OSError:
            continue
    return found


class ImageAttachments:
    """Pasted images by number, until the prompt is sent (``take``) or the editor cleared."""

    def __init__(self) -> None:
        self._images: dict[int, ImageContent] = {}
        self._next = 1

    def add(self, data: bytes, mime_type: str) -> str:
        """Keep a pasted image; the marker to insert in the editor."""
        number = self._next
        self._next += 1
        self._images[number] = image_block(data, mime_type)
        return f"[image #{number}]"

    def take(self, text: str, cwd: Path) -> list[ImageContent]:
        """The images ``text`` carries: its markers' pasted images, then the image files it
        names; the pasted ones are forgotten."""
        pasted = [self._images[n] for n in (int(m) for m in _MARKER.findall(text)) if n in self._images]
        self._images.clear()
        files: list[ImageContent] = []
        for path in image_paths(text, cwd):
            try:
                files.append(image_block(path.read_bytes(), IMAGE_TYPES[path.suffix.lower()]))
            except OSError:
                continue
        return pasted + files
