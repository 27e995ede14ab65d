"""The key guard: keys typed for the editor do not answer a question that appeared under them."""

from __future__ import annotations

from tau_coding.tui.key_guard import HOLD_SECONDS, KeyGuard


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_question_shown_while_nobody_types_takes_keys_at_once() -> None:
    clock = _Clock()
    guard = KeyGuard(clock)
    guard.typed()
    clock.now += HOLD_SECONDS + 0.1
    guard.asking()
    assert not guard.holds("enter")


def test_keys_are_held_until_the_typing_pauses() -> None:
    clock = _Clock()
    guard = KeyGuard(clock)
    guard.typed()
    clock.now += 0.1
    guard.asking()  # it appeared mid-word
    for _ in range(10):  # a typist going on, a key every 0.3 s: each held, each extending the hold
        clock.now += 0.3
        assert guard.holds("a")
    clock.now += 0.3
    assert guard.holds("enter")  # the Enter meant for the editor does not answer
    clock.now += HOLD_SECONDS  # a pause: the person has seen the question
    assert not guard.holds("enter")


def test_escape_and_ctrl_c_are_never_held() -> None:
    clock = _Clock()
    guard = KeyGuard(clock)
    guard.typed()
    guard.asking()
    assert not guard.holds("escape") and not guard.holds("ctrl+c") and guard.holds("y")
