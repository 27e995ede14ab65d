"""Type-ahead: keys typed before the app was ready, as editor steps, replayed in order."""

from __future__ import annotations

import pytest

from tau_coding.tui.type_ahead import BACKSPACE, ENTER, replay, steps


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("", []),
        ("Which port?", ["Which port?"]),
        ("Which port?\r", ["Which port?", ENTER]),
        ("Which port?\n", ["Which port?", ENTER]),  # Enter while the terminal was in line mode
        ("ab\x7fc\r", ["ab", BACKSPACE, "c", ENTER]),
        ("one\rtwo", ["one", ENTER, "two"]),
        ("a\x1b[Ab\x1bOHc\x1bxd", ["abcd"]),  # arrows, Home, Alt+x: dropped
        ("a\tb\x04c\x00", ["abc"]),  # other control characters: dropped
        ("naïve ☃\r", ["naïve ☃", ENTER]),
        ("\x1b", []),
    ],
)
def test_steps(typed: str, expected: list[str]) -> None:
    assert steps(typed) == expected


class _Editor:
    def __init__(self) -> None:
        self.text = ""
        self.sent: list[str] = []

    def insert(self, text: str) -> None:
        self.text += text

    def action_delete_left(self) -> None:
        self.text = self.text[:-1]

    def submit(self, *, follow_up: bool) -> None:
        if self.text.strip():
            self.sent.append(self.text)
        self.text = ""


def test_each_enter_submits_what_was_typed_before_it_and_the_rest_waits() -> None:
    editor = _Editor()
    replay(editor, "Whcih\x7f\x7f\x7fich port?\rand th")
    assert (editor.sent, editor.text) == (["Which port?"], "and th")
