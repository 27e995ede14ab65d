"""Type-ahead: keys typed before the app was ready, parsed into the key events they stand for."""

from __future__ import annotations

import pytest

from tau_coding.tui.type_ahead import key_events


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("", []),
        ("ab", ["a", "b"]),
        ("a\r", ["a", "enter"]),
        ("a\n", ["a", "enter"]),  # Enter while the terminal was still in line mode
        ("a\x7f", ["a", "backspace"]),
        ("\x1b[D\x1b[C\x1b[H\x1b[4~", ["left", "right", "home", "end"]),
        ("\x1bOA\x1b[B", ["up", "down"]),
        ("\x01\x15\x17", ["ctrl+a", "ctrl+u", "ctrl+w"]),
        ("\x1b\r", ["alt+enter"]),  # as tmux and xterm send it
        ("\x1b[13;2u", ["shift+enter"]),
        ("é☃", ["é", "snowman"]),  # (Textual names a key by its Unicode name)
        ("\x1b", ["escape"]),
    ],
)
def test_typed_bytes_become_the_keys_textual_would_have_read(typed: str, expected: list[str]) -> None:
    assert [event.key for event in key_events(typed)] == expected


def test_text_keys_carry_their_character() -> None:
    assert [event.character for event in key_events("a é☃")] == ["a", " ", "é", "☃"]
