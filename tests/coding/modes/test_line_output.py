"""LineOutput: lines of one loop turn leave in one write; in order; dropped once the reader is gone."""

from __future__ import annotations

import asyncio
import io
import os

from tau_coding.modes.line_output import LineOutput


class CountingStream(io.BytesIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, data: object) -> int:  # type: ignore[override]
        self.writes += 1
        return super().write(data)  # type: ignore[arg-type]


def test_the_lines_of_one_loop_turn_leave_in_one_write() -> None:
    stream = CountingStream()
    output = LineOutput(stream)

    async def run() -> None:
        for i in range(1000):
            output.write_line(b"%d\n" % i)
        assert stream.getvalue() == b""  # not yet: at the end of this turn
        await asyncio.sleep(0)
        output.write_line(b"last\n")
        await asyncio.sleep(0)

    asyncio.run(run())
    assert stream.getvalue() == b"".join(b"%d\n" % i for i in range(1000)) + b"last\n"
    assert stream.writes == 2


def test_without_a_loop_a_line_is_written_at_once() -> None:
    stream = io.BytesIO()
    LineOutput(stream).write_line(b"x\n")
    assert stream.getvalue() == b"x\n"


def test_an_unbuffered_pipe_gets_every_byte() -> None:
    read_end, write_end = os.pipe()
    with open(write_end, "wb", buffering=0) as raw, open(read_end, "rb") as reader:
        output = LineOutput(raw)
        output.write_line(b"a" * 1000 + b"\n")
        raw.close()
        assert reader.read() == b"a" * 1000 + b"\n"


def test_a_reader_that_went_away_closes_the_output_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "wb", buffering=0) as stream:
        output = LineOutput(stream)
        output.write_line(b"lost\n")
        assert output.closed
        output.write_line(b"also lost\n")  # no error
