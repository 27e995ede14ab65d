"""The terminal's window title: ``tau — <session name>``, else ``tau — <cwd>`` (``~`` for home)."""

from __future__ import annotations

from tau_coding.tui.summaries import short_path

TITLE_LIMIT = 80


def terminal_title(cwd: str, session_name: str | None, home: str) -> str:
    where = session_name or short_path(cwd, home)
    clean = "".join(ch for ch in where if ch.isprintable())  # no escape can leave the sequence
    return f"tau — {clean[:TITLE_LIMIT]}"


def title_sequence(title: str) -> str:
    """The OSC 2 sequence most terminals (xterm, tmux, iTerm2, kitty, Windows Terminal) obey."""
    return f"\x1b]2;{title}\x07"
