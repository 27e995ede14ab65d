"""The one Server-Sent Events decoder every adapter shares.

Incremental and byte-oriented: ``feed`` takes whatever the socket delivered (a chunk may end
mid-line, mid-character or between the CR and LF of a CRLF) and returns the events completed
so far. Follows the WHATWG framing: lines end with LF, CR or CRLF; ``:`` lines are comments;
``data`` lines of one event are joined with LF; a blank line dispatches. It never raises on
malformed input; undecodable bytes become U+FFFD.

Hand-written rather than httpx-sse: that package parses lines of an ``aiter_lines`` stream,
which costs a text decode and a str per line on top of this, and it cannot be fed bytes
split at arbitrary offsets by a test; this decoder is one pass over bytes per chunk.
"""

from __future__ import annotations

import codecs
from typing import NamedTuple


class SseEvent(NamedTuple):
    """One dispatched event. ``event`` is "message" when the stream named none.

    Immutable; a NamedTuple because one is made per streamed token and a frozen dataclass
    costs three times as much to build.
    """

    event: str
    data: str
    id: str | None = None
    retry: int | None = None


_new_event = tuple.__new__  # SseEvent's own __new__ is a Python function: a frame per event


class SseDecoder:
    __slots__ = ("_buffer", "_data", "_decoder", "_event", "_id", "_pending_cr", "_retry")

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pending_cr = False
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None
        self._retry: int | None = None

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Decode a chunk; returns the events it completed (often none, often one)."""
        text = self._decoder.decode(chunk)
        return self._feed_text(text) if text else []

    def _feed_text(self, text: str) -> list[SseEvent]:
        if self._pending_cr:
            self._pending_cr = False
            if text.startswith("\n"):
                text = text[1:]
        buffer = self._buffer + text if self._buffer else text
        events: list[SseEvent] = []
        if "\r" in buffer and not buffer.endswith("\r"):
            unified = buffer.replace("\r\n", "\n")
            if "\r" not in unified:
                buffer = unified  # CRLF framing (Gemini): same lines, LF-only
        if "\r" not in buffer:
            if not self._data and not self._event and self._retry is None:
                return self._events_lf(buffer)
            # Mid-event (after a CR-framed piece): lines one by one, the partial one kept.
            lines = buffer.split("\n")
            self._buffer = lines.pop()
            for line in lines:
                self._line(line, events)
            return events
        start = 0
        n = len(buffer)
        while start < n:
            lf = buffer.find("\n", start)
            cr = buffer.find("\r", start, lf if lf != -1 else n)
            if cr != -1:
                end, nxt = cr, cr + 1
                if nxt < n and buffer[nxt] == "\n":
                    nxt += 1
                elif nxt == n:
                    self._pending_cr = True  # a LF may follow in the next chunk
            elif lf != -1:
                end, nxt = lf, lf + 1
            else:
                break
            self._line(buffer[start:end], events)
            start = nxt
        self._buffer = buffer[start:]
        return events

    def flush(self) -> list[SseEvent]:
        """End of stream: dispatch a final event that lacked its blank line."""
        rest = self._decoder.decode(b"", final=True)
        events = self._feed_text(rest) if rest else []
        if self._buffer:
            pending = self._buffer.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self._buffer = ""
            for line in pending:
                self._line(line, events)
        self._line("", events)
        return events

    def _events_lf(self, buffer: str) -> list[SseEvent]:
        """LF-only text from an event boundary, the common case: split into events at blank
        lines, and an event that is one ``data:`` line (or an ``event:`` line and one ``data:``
        line) is made without parsing its fields. The tail, an event not yet ended, is kept
        whole until its blank line arrives."""
        blocks = buffer.split("\n\n")
        self._buffer = blocks.pop()
        events: list[SseEvent] = []
        last_id = self._id
        for block in blocks:
            if block.startswith("data: "):
                if "\n" not in block:
                    events.append(_new_event(SseEvent, ("message", block[6:], last_id, None)))
                    continue
            elif block.startswith("event: "):
                end = block.find("\n")
                if end > 0 and block.startswith("data: ", end + 1) and block.find("\n", end + 1) < 0:
                    name = block[7:end] or "message"
                    events.append(_new_event(SseEvent, (name, block[end + 7 :], last_id, None)))
                    continue
            for line in block.split("\n"):
                self._line(line, events)
            self._line("", events)
            last_id = self._id  # an id: line sets the id of the events after it
        return events

    def _line(self, line: str, events: list[SseEvent]) -> None:
        if not line:
            if self._data:
                events.append(
                    SseEvent(self._event or "message", "\n".join(self._data), self._id, self._retry)
                )
            self._event, self._data, self._retry = "", [], None
            return
        if line[0] == ":":
            return
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\0" not in value:
                self._id = value
        elif field == "retry" and value.isdigit():
            self._retry = int(value)
