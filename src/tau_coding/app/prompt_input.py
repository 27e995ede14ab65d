"""Turn what the user gave on the command line into a prompt: words, ``@files`` and stdin.

``@path`` attaches a file: text files are inlined in a ``<file name="...">`` block, images
(by magic bytes) become image blocks. Piped stdin comes first. Problems are one-line errors.
Both are read bounded: the size is checked before anything large is read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from tau_agent.content import ImageContent
from tau_coding.tools.filetype import image_mime

MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
MAX_STDIN_BYTES = 10 * 1024 * 1024


class PromptInputError(ValueError):
    """An ``@file`` cannot be attached; the message says which and why."""


def read_bounded(path: Path, limit: int) -> bytes | None:
    """The file's bytes, or None when it holds more than ``limit`` (never reading more than
    ``limit + 1`` bytes: ``/dev/zero`` or a growing file cannot exhaust memory)."""
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory")
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            return None
        data = handle.read(limit + 1)
    return None if len(data) > limit else data


def read_piped_stdin(stream: BinaryIO, limit: int = MAX_STDIN_BYTES) -> str:
    """Piped stdin as text (invalid UTF-8 replaced), at most ``limit`` bytes, else an error."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise PromptInputError(f"stdin is larger than {limit // (1024 * 1024)} MB; pass a smaller input")
    return data.decode("utf-8", errors="replace")


def build_prompts(
    words: Sequence[str], stdin_text: str | None, cwd: Path
) -> list[tuple[str, list[ImageContent]]]:
    """The prompts the command line asks for, in order, each with its image blocks.

    As in Pi, each message word is a prompt of its own; piped stdin and every ``@path``
    attachment (wherever it stands) go with the first. Empty when there is nothing to send.
    """
    messages: list[str] = []
    attachments: list[str] = []
    images: list[ImageContent] = []
    for word in words:
        if word.startswith("@") and len(word) > 1:
            attached = _attach(word[1:], cwd)
            if isinstance(attached, ImageContent):
                images.append(attached)
            else:
                attachments.append(attached)
        else:
            messages.append(word)
    first = messages[:1]
    head = [p for p in (stdin_text.strip() if stdin_text else "", *attachments, *first) if p]
    prompts: list[tuple[str, list[ImageContent]]] = []
    if head or images:
        prompts.append(("\n\n".join(head), images))
    prompts += [(message, []) for message in messages[1:]]
    return prompts


def _attach(name: str, cwd: Path) -> str | ImageContent:
    """``@name``'s file as an image block, or as a ``<file>`` block of its text."""
    path = (cwd / Path(name).expanduser()).resolve()
    try:
        data = read_bounded(path, MAX_ATTACHMENT_BYTES)
    except FileNotFoundError as exc:
        raise PromptInputError(f"cannot attach {name}: no such file") from exc
    except IsADirectoryError as exc:
        raise PromptInputError(f"cannot attach {name}: it is a directory") from exc
    except OSError as exc:
        raise PromptInputError(f"cannot attach {name}: {exc.strerror}") from exc
    if data is None:
        raise PromptInputError(f"cannot attach {name}: larger than 5 MB")
    mime = image_mime(data[:16])
    if mime is not None:
        import base64  # here: only an attached image needs it

        return ImageContent(base64.b64encode(data).decode("ascii"), mime)
    if b"\0" in data[:8192]:
        raise PromptInputError(f"cannot attach {name}: it is a binary file")
    text = data.decode("utf-8", errors="replace")
    return f'<file name="{name}">\n{text.rstrip()}\n</file>'
