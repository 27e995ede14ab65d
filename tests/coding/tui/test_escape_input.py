"""Trailing ESC bytes are held back from the parser: alone they are Esc keys, followed they
go to the parser with what follows; inside a bracketed paste nothing is held."""

from __future__ import annotations

from tau_coding.tui.shell.escape_input import HeldEscapes, escape_delay


def test_a_lone_esc_is_held_and_becomes_one_esc_key_when_nothing_follows() -> None:
    held = HeldEscapes()
    assert held.take("\x1b") == ""
    assert held.held == "\x1b"
    assert held.expire() == 1
    assert held.held == ""


def test_text_before_a_trailing_esc_goes_on_and_two_escs_are_two_keys() -> None:
    held = HeldEscapes()
    assert held.take("ab\x1b\x1b") == "ab"
    assert held.expire() == 2


def test_a_sequence_split_after_its_esc_reaches_the_parser_whole() -> None:
    held = HeldEscapes()
    assert held.take("x\x1b") == "x"
    assert held.take("[A") == "\x1b[A"
    assert held.held == ""


def test_nothing_is_held_inside_a_bracketed_paste_even_with_its_end_marker_split() -> None:
    held = HeldEscapes()
    assert held.take("\x1b[200~pasted text with an escape \x1b") == "\x1b[200~pasted text with an escape \x1b"
    assert held.take("more\x1b") == "more\x1b"  # still pasting: the ESC starts the end marker
    assert held.take("[201~") == "[201~"
    assert held.take("\x1b") == ""  # the paste ended: a lone ESC is a key again
    assert held.expire() == 1


def test_escape_delay_reads_escdelay_in_milliseconds_and_ignores_nonsense() -> None:
    assert escape_delay({}) == 0.01
    assert escape_delay({"ESCDELAY": "60"}) == 0.06
    assert escape_delay({"ESCDELAY": "soon"}) == 0.01
    assert escape_delay({"ESCDELAY": "0"}) == 0.01
