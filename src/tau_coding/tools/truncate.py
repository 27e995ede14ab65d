"""The output budget: keep the head or the tail of a text within N lines and M UTF-8 bytes.

Pure functions. ``truncate_head`` never returns part of a line (a reader continues with an
offset); ``truncate_tail`` may keep the end of one huge last line, because the end of a
command's output is what matters. The result says what was kept so a tool can tell the model
exactly what was left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

TruncatedBy = Literal["lines", "bytes"]
LINE_CUT_MARKER = "... [truncated]"


@dataclass(frozen=True, slots=True)
class Truncation:
    """``content`` is what fits; counts describe both it and the whole input."""

    content: str
    truncated: bool
    truncated_by: TruncatedBy | None
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    max_lines: int
    max_bytes: int
    last_line_partial: bool = False
    first_line_exceeds_limit: bool = False

    def to_details(self) -> dict[str, Any]:
        """A JSON-ready form for a result's ``details`` (camelCase, like Pi's)."""
        return {
            "truncated": self.truncated,
            "truncatedBy": self.truncated_by,
            "totalLines": self.total_lines,
            "totalBytes": self.total_bytes,
            "outputLines": self.output_lines,
            "outputBytes": self.output_bytes,
            "maxLines": self.max_lines,
            "maxBytes": self.max_bytes,
            "lastLinePartial": self.last_line_partial,
            "firstLineExceedsLimit": self.first_line_exceeds_limit,
        }


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def format_size(size: int) -> str:
    """``512B``, ``50.0KB``, ``1.5MB``, ``1.0GB``."""
    if size < 1024:
        return f"{size}B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f}KB"
    if size < 1024**3:
        return f"{size / 1024 / 1024:.1f}MB"
    return f"{size / 1024**3:.1f}GB"


def _split(text: str) -> list[str]:
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it does not start another
    return lines


def truncate_head(text: str, max_lines: int, max_bytes: int) -> Truncation:
    """The first whole lines of ``text`` that fit both budgets."""
    lines = _split(text)
    total_bytes = utf8_len(text)
    if len(lines) <= max_lines and total_bytes <= max_bytes:
        return Truncation(
            text, False, None, len(lines), total_bytes, len(lines), total_bytes, max_lines, max_bytes
        )
    kept: list[str] = []
    used = 0
    by: TruncatedBy = "lines"
    for line in lines[:max_lines]:
        size = utf8_len(line) + (1 if kept else 0)
        if used + size > max_bytes:
            by = "bytes"
            break
        kept.append(line)
        used += size
    first_exceeds = not kept and bool(lines) and utf8_len(lines[0]) > max_bytes
    return Truncation(
        "\n".join(kept),
        True,
        by,
        len(lines),
        total_bytes,
        len(kept),
        used,
        max_lines,
        max_bytes,
        first_line_exceeds_limit=first_exceeds,
    )


def tail_bytes(line: str, max_bytes: int) -> str:
    """The longest end of ``line`` within ``max_bytes`` UTF-8 bytes, never splitting a character."""
    data = line.encode("utf-8")
    if len(data) <= max_bytes:
        return line
    return data[len(data) - max_bytes :].decode("utf-8", errors="ignore")


def truncate_tail(text: str, max_lines: int, max_bytes: int) -> Truncation:
    """The last lines of ``text`` that fit both budgets; a huge last line keeps its end."""
    lines = _split(text)
    total_bytes = utf8_len(text)
    if len(lines) <= max_lines and total_bytes <= max_bytes:
        return Truncation(
            text, False, None, len(lines), total_bytes, len(lines), total_bytes, max_lines, max_bytes
        )
    kept: list[str] = []
    used = 0
    by: TruncatedBy = "lines"
    partial = False
    for line in reversed(lines[-max_lines:] if max_lines > 0 else []):
        size = utf8_len(line) + (1 if kept else 0)
        if used + size > max_bytes:
            by = "bytes"
            if not kept:
                kept.append(tail_bytes(line, max_bytes))
                used = utf8_len(kept[0])
                partial = True
            break
        kept.append(line)
        used += size
    kept.reverse()
    return Truncation(
        "\n".join(kept),
        True,
        by,
        len(lines),
        total_bytes,
        len(kept),
        used,
        max_lines,
        max_bytes,
        last_line_partial=partial,
    )


def cut_line(line: str, max_chars: int) -> tuple[str, bool]:
    """``line`` cut to ``max_chars`` characters with a marker; the flag says whether it was cut."""
    if len(line) <= max_chars:
        return line, False
    return line[:max_chars] + LINE_CUT_MARKER, True
