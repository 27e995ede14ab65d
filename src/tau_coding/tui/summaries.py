"""Short text for compact rows: tool arguments, output previews, times, token counts. Pure."""

from __future__ import annotations

import json
from typing import Any

PREVIEW_LINES = 8
PREVIEW_CHARS = 2000
PREVIEW_LINE_CHARS = 480  # about four rows of a wide terminal


def clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def args_summary(name: str, args: dict[str, Any], width: int = 80) -> str:
    """One line saying what a call does: ``src/a.py:10-30`` for read, ``$ cmd`` for bash."""
    path = args.get("path") or args.get("file_path")
    if name == "bash" and isinstance(args.get("command"), str):
        timeout = args.get("timeout")
        suffix = f" (timeout {timeout}s)" if timeout else ""
        return clip("$ " + args["command"], width - len(suffix)) + suffix
    if name == "read" and isinstance(path, str):
        offset, limit = args.get("offset"), args.get("limit")
        if isinstance(offset, int) and isinstance(limit, int):
            return clip(f"{path}:{offset}-{offset + limit - 1}", width)
        if isinstance(offset, int):
            return clip(f"{path}:{offset}-", width)
        return clip(path, width)
    if isinstance(path, str):
        return clip(path, width)
    if isinstance(args.get("pattern"), str):
        return clip(args["pattern"], width)
    if not args:
        return ""
    return clip(json.dumps(args, ensure_ascii=False, default=str), width)


def preview(
    text: str,
    lines: int = PREVIEW_LINES,
    chars: int = PREVIEW_CHARS,
    tail: bool = False,
    line_chars: int = PREVIEW_LINE_CHARS,
) -> str:
    """The first (or, for streaming output, the last) few lines, with a count of the lines
    hidden. The count is of ``text``'s lines, however many characters are shown of them. A line
    longer than ``line_chars`` (minified JSON, base64, a progress bar) is cut to that and says
    how much it leaves out, so one line cannot fill the screen."""
    rows = text.rstrip("\n").split("\n")
    kept = rows[-lines:] if tail else rows[:lines]
    shown, hidden = preview_parts(
        "\n".join(_clip_line(row, line_chars, tail) for row in kept), lines, chars, tail
    )
    hidden += len(rows) - len(kept)
    if not hidden:
        return shown
    if tail:
        return f"{hidden_marker(hidden, earlier=True)}\n{shown}"
    return f"{shown}\n{hidden_marker(hidden)}"


def preview_parts(
    text: str, lines: int = PREVIEW_LINES, chars: int = PREVIEW_CHARS, tail: bool = False
) -> tuple[str, int]:
    """The lines ``preview`` shows (at most ``lines`` lines and ``chars`` characters) and how
    many of ``text``'s lines are not among them."""
    rows = text.rstrip("\n").split("\n")
    kept = rows[-lines:] if tail else rows[:lines]
    shown = "\n".join(kept)
    if len(shown) > chars:
        shown = shown[-chars:] if tail else shown[:chars]
        kept = shown.split("\n")
    return shown, len(rows) - len(kept)


def _clip_line(line: str, limit: int, tail: bool) -> str:
    if len(line) <= limit:
        return line
    more = len(line) - limit
    if tail:
        return f"({more:,} earlier characters) … {line[-limit:]}"
    return f"{line[:limit]} … ({more:,} more characters)"


def hidden_marker(count: int, *, earlier: bool = False) -> str:
    """``… 12 more lines`` (or ``earlier lines``)."""
    noun = "line" if count == 1 else "lines"
    return f"… {count} {'earlier' if earlier else 'more'} {noun}"


def elapsed(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"


def tokens(n: int) -> str:
    """1234 -> 1.2k, 1_500_000 -> 1.5M."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k".replace(".0k", "k")
    return f"{n / 1_000_000:.1f}M".replace(".0M", "M")


def diff_from_details(details: Any) -> str | None:
    """A unified diff a tool put in its details (``{"diff": "..."}``), if any."""
    if isinstance(details, dict):
        diff = details.get("diff") or details.get("patch")
        if isinstance(diff, str) and diff.strip():
            return diff
    return None


def short_path(path: str, home: str) -> str:
    if home and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path
