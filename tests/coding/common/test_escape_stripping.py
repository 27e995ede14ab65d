"""Escape sequences from files, commands and models never reach the terminal."""

from __future__ import annotations

import pytest

from tau_coding.common.escape_stripping import carriage_returns, safe_text

ESC = "\x1b"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain text\n\twith tab", "plain text\n\twith tab"),
        (f"a{ESC}]52;c;cHduZWQ=\x07b", "ab"),  # OSC 52 clipboard write, BEL-terminated
        (f"a{ESC}]2;pwned{ESC}\\b", "ab"),  # window title, ST-terminated
        (f"a{ESC}]0;pwned", "a"),  # unterminated OSC
        (f"a{ESC}]0;pwned\nnext", "a\nnext"),  # an unterminated OSC does not eat the next line
        (f"{ESC}[2J{ESC}[Hcleared", "cleared"),  # clear screen, cursor home
        (f"{ESC}[31mred{ESC}[0m", "red"),  # colours
        (f"{ESC}[?1049h{ESC}[?25l", ""),  # alternate screen, hide cursor
        (f"{ESC}creset", "reset"),  # RIS: full reset
        (f"{ESC}Pq#0;2;0;0;0{ESC}\\x", "x"),  # DCS (sixel)
        (f"{ESC}_Gf=100;AAAA{ESC}\\x", "x"),  # APC (kitty graphics)
        ("a\x9b2Jb", "ab"),  # 8-bit CSI
        ("a\x9d2;pwned\x9cb", "ab"),  # 8-bit OSC with 8-bit ST
        ("progress 10%\rprogress 20%\r\n", "progress 10%progress 20%\n"),  # views apply CRs first
        ("bell\x07 back\x08 nul\x00 del\x7f", "bell back nul del"),
        (f"lone {ESC}", "lone "),
        ("ünïcödé ✓ 日本", "ünïcödé ✓ 日本"),
    ],
)
def test_escape_sequences_and_controls_are_removed(raw: str, shown: str) -> None:
    assert safe_text(raw) == shown


def test_text_without_controls_is_returned_as_is() -> None:
    text = "x" * 10_000
    assert safe_text(text) is text


def test_nothing_that_starts_a_sequence_survives() -> None:
    nasty = "".join(chr(c) for c in range(0x00, 0xA0)) * 3 + f"{ESC}]{ESC}[{ESC}P\x9b\x9d"
    cleaned = safe_text(nasty)
    assert not any(ch in cleaned for ch in (ESC, "\x9b", "\x9d", "\x90", "\x07", "\r"))


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("progress 10%\rprogress 20%\r\n", "progress 20%\n"),  # a redrawn line shows its last state
        ("crlf\r\nlines\r\n", "crlf\nlines\n"),
        ("Downloading 100%\rDone", "Doneloading 100%"),  # a shorter redraw leaves the rest, as on a terminal
        ("no returns\n", "no returns\n"),
    ],
)
def test_carriage_returns_leave_each_line_as_a_terminal_would(raw: str, shown: str) -> None:
    assert carriage_returns(raw) == shown
