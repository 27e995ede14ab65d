"""The ``read`` tool: a page of a text file, an image the model can see, or a clear refusal.

Text is read lazily, line by line, so the first page of a huge file costs the same as the
first page of a small one; lines are counted to the end only for files small enough to
count cheaply. Pages end on whole lines, and every cut page says how to get the next.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import stat
from pathlib import Path
from typing import IO, Any

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.filetype import SNIFF_BYTES, binary_kind, image_mime
from tau_coding.tools.paths import display_path, resolve_path, symlink_target
from tau_coding.tools.results import describe_os_error, fail, guarded
from tau_coding.tools.truncate import format_size

COUNT_LINES_UP_TO = 32 * 1024 * 1024  # past this, a page does not scan the rest to count lines
MAX_IMAGE_FILE = 64 * 1024 * 1024
MAX_UTF16_FILE = 16 * 1024 * 1024
_CHUNK = 1024 * 1024

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "Path to the file (relative to the working directory or absolute)",
        },
        "offset": {"type": "integer", "minimum": 1, "description": "Line number to start from (1-based)"},
        "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to read"},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def _read_line(handle: IO[bytes], cap: int) -> tuple[bytes, bool]:
    """The next line (without its newline) up to ``cap`` bytes, and whether it was longer.

    A longer line is consumed to its end without keeping it, so memory stays bounded even for
    a gigabyte on one line. Returns (b"", False) at end of file... and (b"", True) never.
    """
    raw = handle.readline(cap + 1)
    if raw.endswith(b"\n"):
        return raw[:-1], False
    if len(raw) <= cap:
        return raw, False
    while True:  # skip the rest of an over-long line
        more = handle.readline(_CHUNK)
        if not more or more.endswith(b"\n"):
            return raw[:cap], True


def _decode(raw: bytes) -> str:
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.decode("utf-8", errors="replace")


def _skip_lines(handle: IO[bytes], count: int) -> int:
    """Move past ``count`` lines, scanning in large chunks; returns how many lines were passed.

    At end of file a last line without a newline counts as passed, so a short return value is
    the file's total line count.
    """
    skipped = 0
    last = b"\n"
    while skipped < count:
        chunk = handle.read(_CHUNK)
        if not chunk:
            return skipped + (0 if last == b"\n" else 1)
        newlines = chunk.count(b"\n")
        if skipped + newlines >= count:
            at = -1
            for _ in range(count - skipped):
                at = chunk.index(b"\n", at + 1)
            handle.seek(at + 1 - len(chunk), os.SEEK_CUR)
            return count
        skipped += newlines
        last = chunk[-1:]
    return skipped


def _count_lines_from(handle: IO[bytes]) -> int:
    count, last = 0, b"\n"
    while chunk := handle.read(_CHUNK):
        count += chunk.count(b"\n")
        last = chunk[-1:]
    return count + (0 if last == b"\n" else 1)


def _page(
    handle: IO[bytes], size: int, shown: str, start: int, limit: int | None, settings: ToolSettings
) -> AgentToolResult:
    max_bytes = settings.max_bytes
    line_budget = settings.max_lines if limit is None else min(limit, settings.max_lines)
    kept: list[str] = []
    used = 0
    line_no = _skip_lines(handle, start - 1)
    stop: str | None = None  # "lines", "bytes", "limit", "first" or None at end of file
    resume_at = 0
    while True:
        position = handle.tell()
        raw, too_long = _read_line(handle, max_bytes)
        if not raw and not too_long and handle.tell() == position:
            break
        line_no += 1
        if len(kept) >= line_budget:
            stop = "limit" if limit is not None and limit <= settings.max_lines else "lines"
            resume_at = position
            break
        text = _decode(raw)
        if line_no == 1 and text.startswith("\ufeff"):
            text = text[1:]
        cost = len(text.encode("utf-8")) + (1 if kept else 0)
        if too_long or used + cost > max_bytes:
            stop, resume_at = ("first" if not kept else "bytes"), position
            break
        kept.append(text)
        used += cost
    if line_no == 0 and start == 1:
        return AgentToolResult.text("(empty file)", {"startLine": 1, "endLine": 0, "totalLines": 0})
    if line_no < start:
        if line_no == 0:
            return fail(f"Offset {start} is beyond the end of {shown}: the file is empty.")
        return fail(f"Offset {start} is beyond the end of {shown} ({line_no} lines).")
    end = start + len(kept) - 1
    details: dict[str, Any] = {"startLine": start, "endLine": end, "truncatedBy": stop}
    if stop == "first":
        hint = f"sed -n '{start}p' {shlex.quote(shown)} | head -c {max_bytes}"
        notice = f"[Line {start} is larger than the {format_size(max_bytes)} output limit. Use bash: {hint}]"
        return AgentToolResult.text(notice, details)
    body = "\n".join(kept)
    if stop is None:
        return AgentToolResult.text(body, details | {"totalLines": line_no})
    total: int | None = None
    if size <= COUNT_LINES_UP_TO:
        handle.seek(resume_at)
        total = end + _count_lines_from(handle)
    details["totalLines"] = total
    more = f"Use offset={end + 1} to continue."
    if stop == "limit":
        left = (
            f"{total - end} more lines in file"
            if total is not None
            else f"{format_size(size - resume_at)} more in file"
        )
        return AgentToolResult.text(f"{body}\n\n[{left}. {more}]", details)
    of = f"of {total}" if total is not None else f"of a {format_size(size)} file"
    why = f" ({format_size(max_bytes)} limit)" if stop == "bytes" else ""
    return AgentToolResult.text(f"{body}\n\n[Showing lines {start}-{end} {of}{why}. {more}]", details)


def _read_image(
    handle: IO[bytes], head: bytes, mime: str, size: int, shown: str, settings: ToolSettings
) -> AgentToolResult:
    if size > MAX_IMAGE_FILE:
        return fail(
            f"Image {shown} is {format_size(size)}, too large to send (limit {format_size(MAX_IMAGE_FILE)})."
        )
    data = head + handle.read()
    from tau_coding.tools.images import prepare_image  # here: most reads are text

    try:
        image = prepare_image(data, mime, settings.image_max_dimension, settings.image_max_bytes)
    except ValueError as exc:
        return fail(f"Cannot read image {shown}: {exc}.")
    note = f"Read image file {shown} [{image.mime_type}, {format_size(len(data))}]"
    if image.note:
        note += f"\n{image.note}"
    details = {"mimeType": image.mime_type, "width": image.width, "height": image.height}
    return AgentToolResult([TextContent(note), ImageContent(image.base64, image.mime_type)], details)


def _directory_hint(path: Path, shown: str) -> str:
    try:
        count = len(os.listdir(path))
    except OSError:
        return f"{shown} is a directory, not a file. Use ls to list it."
    return (
        f"{shown} is a directory ({count} entries), not a file. Use ls to list it, then read a file inside."
    )


def read_file(
    path: Path, shown: str, offset: int | None, limit: int | None, settings: ToolSettings
) -> AgentToolResult:
    """The whole of ``read``'s work, synchronously (run in a worker thread by the tool)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        return fail(describe_os_error(exc, shown))
    if stat.S_ISDIR(info.st_mode):
        return fail(_directory_hint(path, shown))
    if not stat.S_ISREG(info.st_mode):
        return fail(f"{shown} is not a regular file (a device, socket or pipe); read only reads files.")
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
            mime = image_mime(head)
            if mime is not None:
                return _read_image(handle, head, mime, info.st_size, shown, settings)
            if head.startswith((b"\xff\xfe", b"\xfe\xff")):
                return _read_utf16(handle, head, info.st_size, shown, offset, limit, settings)
            kind = binary_kind(head)
            if kind is not None:
                return fail(
                    f"Cannot read {shown}: it is a binary file ({kind}, {format_size(info.st_size)}). "
                    "Use bash with a suitable tool (file, xxd, strings, unzip -l) to inspect it."
                )
            handle.seek(0)
            return _page(handle, info.st_size, shown, offset or 1, limit, settings)
    except OSError as exc:
        return fail(describe_os_error(exc, shown))


def _read_utf16(
    handle: IO[bytes],
    head: bytes,
    size: int,
    shown: str,
    offset: int | None,
    limit: int | None,
    settings: ToolSettings,
) -> AgentToolResult:
    import io

    if size > MAX_UTF16_FILE:
        return fail(
            f"Cannot read {shown}: UTF-16 text over {format_size(MAX_UTF16_FILE)}; convert it with iconv first."
        )
    text = (head + handle.read()).decode("utf-16", errors="replace")
    data = text.encode("utf-8")
    return _page(io.BytesIO(data), len(data), shown, offset or 1, limit, settings)


def create_read_tool(cwd: Path, settings: ToolSettings) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        path = resolve_path(cwd, args["path"])
        shown = display_path(cwd, path)
        result = await asyncio.to_thread(
            read_file, path, shown, args.get("offset"), args.get("limit"), settings
        )
        real = symlink_target(cwd, path)
        if real is not None and isinstance(result.details, dict):
            result.details["resolvedPath"] = str(real)
        return result

    return AgentTool(
        name="read",
        label="Read",
        description=(
            "Read a file. Text comes back as lines (no line numbers), at most "
            f"{settings.max_lines} lines or {format_size(settings.max_bytes)} per call; use offset and limit "
            "to page through longer files. Images (png, jpeg, gif, webp) come back as images you can see. "
            "Binary files are refused with a description."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("read", execute),
        prompt_snippet="Read file contents",
        prompt_guidelines=("Use read to examine files before editing them.",),
    )
