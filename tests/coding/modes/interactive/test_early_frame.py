"""The early frame: what keys typed before the app runs mean (pure), the rows drawn, and the
frame on a real pseudo-terminal, echoing and handing its keys to the app."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

import pytest

from tau_coding.modes.interactive.early_frame import PLACEHOLDER, Echoed, box_row, echo, frame_rows
from tau_coding.modes.interactive.type_ahead import TypeAhead


def _fed(*chunks: bytes) -> Echoed:
    state = Echoed()
    for chunk in chunks:
        state = echo(state, chunk)
    return state


@pytest.mark.parametrize(
    ("chunks", "text", "unread"),
    [
        ((b"",), "", b""),
        ((b"Which", b" port?"), "Which port?", b""),
        ((b"Whcih\x7f\x7f\x7fich",), "Which", b""),
        ((b"\x7fa\x08\x08b",), "b", b""),  # Backspace on nothing deletes nothing
        ((b"port?\rand more",), "port?", b"\rand more"),  # Enter: it and the rest are the app's
        ((b"ab", b"\x1b[A", b"cd"), "ab", b"\x1b[Acd"),  # an escape sequence, then more
        ((b"a\tb",), "a", b"\tb"),  # Tab is a key for the editor's completion
        ((b"na\xc3", b"\xafve \xe2\x98", b"\x83"), "naïve ☃", b""),  # characters split across reads
        ((b"x\xc3",), "x", b"\xc3"),  # a character's start, its rest not read yet
        ((b"x\xff y",), "x", b"\xff y"),  # not text: the app's
    ],
)
def test_printable_keys_and_backspace_are_echoed_and_the_first_other_key_stops_it(
    chunks: tuple[bytes, ...], text: str, unread: bytes
) -> None:
    state = _fed(*chunks)
    assert (state.text, state.unread()) == (text, unread)


def test_after_the_echo_stops_every_byte_is_kept_as_read() -> None:
    state = _fed(b"hi\r", b"more\x7f", b"\xc3")
    assert state.stopped
    assert (state.text, state.unread()) == ("hi", b"\rmore\x7f\xc3")


def test_the_frame_has_the_apps_first_rows_at_its_width() -> None:
    rows = frame_rows(80, "/home/ann/project", "/home/ann")
    plain = [row.replace("\x1b[2m", "").replace("\x1b[0m", "") for row in rows]
    assert plain[0] == " ╭" + "─" * 76 + "╮"
    assert plain[1] == f" │ {PLACEHOLDER}{' ' * (74 - len(PLACEHOLDER))} │"
    assert plain[2] == " ╰" + "─" * 76 + "╯"
    assert plain[3] == "  ~/project"
    assert all(len(row) == 79 for row in plain[:3])  # the last column stays blank, as the app's


def test_text_longer_than_the_box_shows_its_end_and_the_cursor_follows_it() -> None:
    assert box_row("hello", 30) == (" │ hello" + " " * 19 + " │", 8)
    row, column = box_row("x" * 40 + "END", 30)
    assert row == " │ " + "x" * 21 + "END │" and column == 27
    row, column = box_row("日本", 30)  # wide characters take two columns each
    assert row == " │ 日本" + " " * 20 + " │" and column == 7


@contextmanager
def _terminal(term: str = "xterm-256color") -> Iterator[tuple[int, TypeAhead, IO[str]]]:
    """A pseudo-terminal 100 columns wide: its controlling side (what a terminal shows and
    sends), and type-ahead started on its other side, the stream Tau writes to."""
    import fcntl
    import struct
    import termios

    controller, device = os.openpty()
    fcntl.ioctl(device, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    before = os.environ.get("TERM")
    os.environ["TERM"] = term
    stream = os.fdopen(device, "w", encoding="utf-8")
    type_ahead = TypeAhead.start(stream)
    try:
        yield controller, type_ahead, stream
    finally:
        type_ahead.restore()
        stream.close()
        os.close(controller)
        if before is None:
            del os.environ["TERM"]
        else:
            os.environ["TERM"] = before


def _shown(controller: int, until: bytes, timeout: float = 5.0) -> bytes:
    got = b""
    deadline = time.monotonic() + timeout
    while until not in got and time.monotonic() < deadline:
        if select.select([controller], [], [], 0.05)[0]:
            got += os.read(controller, 65536)
    return got


def test_on_a_terminal_keys_are_echoed_in_the_box_and_become_the_type_ahead() -> None:
    with _terminal() as (controller, type_ahead, screen):
        type_ahead.show_frame(screen, "/tmp/project", "/home/ann")
        os.write(controller, b"hel")
        os.write(controller, b"p!\x7f")
        drawn = _shown(controller, b"help")
        assert b"Ask anything" in drawn and b"/tmp/project" in drawn and b" \xe2\x94\x82 help" in drawn
        os.write(controller, b"\rnext")
        time.sleep(0.1)
        assert type_ahead.take() == "help\rnext"
        assert _shown(controller, b"\x1b[?25l").endswith(b"\x1b[1A\r\x1b[?25l")  # to the box's corner


def test_without_a_capable_terminal_nothing_is_drawn_and_keys_wait_as_before() -> None:
    with _terminal(term="dumb") as (controller, type_ahead, screen):
        type_ahead.show_frame(screen, "/tmp/project", "/home/ann")
        os.write(controller, b"typed")
        time.sleep(0.1)
        assert type_ahead.take() == "typed"
        assert not select.select([controller], [], [], 0.1)[0]


def test_the_placeholder_is_the_editors() -> None:
    from tau_coding.tui.widgets.prompt_editor import PLACEHOLDER as EDITORS

    assert PLACEHOLDER == EDITORS  # else the app's first frame would change the early one's text
