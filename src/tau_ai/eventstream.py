"""AWS event stream framing (``application/vnd.amazon.eventstream``), both ways, pure.

Amazon Bedrock's ConverseStream answers with binary messages instead of Server-Sent Events.
Each message is: a 12-byte prelude (total length and headers length, big-endian 32-bit, then
the CRC32 of those 8 bytes), the headers (name length byte, name, value type byte, value), the
payload, and the CRC32 of everything before it.

``EventStreamDecoder`` has the shape of ``tau_ai.sse.SseDecoder`` so that the shared HTTP path
and the parsers need no second kind of event: ``feed`` takes bytes split anywhere and returns
the messages it completed as ``SseEvent(event, data, id)``, where ``event`` is the message's
``:event-type`` (``:exception-type`` for an exception, ``:error-code`` for an error), ``data``
its payload as text (``:error-message`` for an error) and ``id`` its ``:message-type``
(``event``, ``exception`` or ``error``). Bytes that are not a valid message (a CRC mismatch, an
impossible length, an unknown header type) end the stream with one ``error`` message whose
data is a one-line reason; after it, ``feed`` returns nothing. ``flush`` reports a message cut
short the same way.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping

from tau_ai.sse import SseEvent

PRELUDE = 12
MAX_MESSAGE = 16 * 1024 * 1024 + 128 * 1024  # AWS's limit on a message: 16 MiB payload, 128 KiB headers
MALFORMED = "malformed"
_U32 = struct.Struct(">I")
_PRELUDE = struct.Struct(">III")
# Fixed-size header value types: bool true/false, byte, short, int, long, timestamp, uuid.
_FIXED = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16}


# What a header block says of its message, by the block's bytes: (event, id) for an event or an
# exception message, whose SseEvent is that and the payload. A stream repeats a handful of
# blocks (one per event type), so a message's headers are decoded once per type, not per delta.
_named: dict[bytes, tuple[str, str]] = {}
_new_event = tuple.__new__  # SseEvent's own __new__ is a Python function: one frame per message


class FramingError(ValueError):
    """Bytes that are not an event stream message; the message is one line."""


def decode_headers(raw: bytes) -> dict[str, str]:
    """The string-valued headers of one message (others are checked and skipped)."""
    headers: dict[str, str] = {}
    at, end = 0, len(raw)
    while at < end:
        size = raw[at]
        name = raw[at + 1 : at + 1 + size].decode("utf-8", "replace")
        at += 1 + size
        if at >= end:
            raise FramingError("event stream header cut short")
        kind = raw[at]
        at += 1
        if kind in (6, 7):  # bytes, string: a 16-bit length, then the value
            if at + 2 > end:
                raise FramingError("event stream header cut short")
            length = int.from_bytes(raw[at : at + 2], "big")
            value = raw[at + 2 : at + 2 + length]
            at += 2 + length
            if kind == 7:
                headers[name] = value.decode("utf-8", "replace")
        elif kind in _FIXED:
            at += _FIXED[kind]
        else:
            raise FramingError(f"event stream header {name!r} has unknown value type {kind}")
        if at > end:
            raise FramingError("event stream header cut short")
    return headers


def event_of(headers: Mapping[str, str], payload: bytes) -> SseEvent:
    """One decoded message as the SseEvent described in the module docstring."""
    kind = headers.get(":message-type", "event")
    if kind == "exception":
        name = headers.get(":exception-type", "exception")
    elif kind == "error":
        code = headers.get(":error-code", "error")
        return SseEvent(
            code, headers.get(":error-message", "") or payload.decode("utf-8", "replace"), "error"
        )
    else:
        name = headers.get(":event-type", "")
    return SseEvent(name, payload.decode("utf-8", "replace"), kind)


class EventStreamDecoder:
    """Incremental decoder of an event stream body (see the module docstring)."""

    __slots__ = ("_broken", "_buffer")

    def __init__(self) -> None:
        self._buffer = b""
        self._broken = False

    def feed(self, chunk: bytes) -> list[SseEvent]:
        if self._broken:
            return []
        buffer = self._buffer + chunk if self._buffer else chunk
        events: list[SseEvent] = []
        at, size = 0, len(buffer)
        try:
            while size - at >= PRELUDE:
                total, headers_length, prelude_crc = _PRELUDE.unpack_from(buffer, at)
                if zlib.crc32(buffer[at : at + 8]) != prelude_crc:
                    raise FramingError(
                        f"event stream prelude CRC mismatch (expected {prelude_crc:08x}, "
                        f"computed {zlib.crc32(buffer[at : at + 8]):08x})"
                    )
                if total < PRELUDE + 4 + headers_length or total > MAX_MESSAGE:
                    raise FramingError(
                        f"event stream message length {total} is impossible (headers {headers_length})"
                    )
                if size - at < total:
                    break
                (message_crc,) = _U32.unpack_from(buffer, at + total - 4)
                computed = zlib.crc32(buffer[at : at + total - 4])
                if computed != message_crc:
                    raise FramingError(
                        f"event stream message CRC mismatch (expected {message_crc:08x}, computed {computed:08x})"
                    )
                start = at + PRELUDE
                raw = buffer[start : start + headers_length]
                payload = buffer[start + headers_length : at + total - 4]
                named = _named.get(raw)
                if named is not None:
                    data = payload.decode("utf-8", "replace")
                    events.append(_new_event(SseEvent, (named[0], data, named[1], None)))
                else:
                    event = event_of(decode_headers(raw), payload)
                    if event.id != "error" and len(_named) < 64:  # an error's text is in its headers
                        _named[raw] = (event.event, event.id or "")
                    events.append(event)
                at += total
        except FramingError as error:
            self._broken, self._buffer = True, b""
            events.append(SseEvent(MALFORMED, str(error), "error"))
            return events
        self._buffer = buffer[at:]
        return events

    def flush(self) -> list[SseEvent]:
        """End of body: a message cut short is reported as an ``error`` message."""
        rest, self._buffer = self._buffer, b""
        if rest and not self._broken:
            self._broken = True
            return [SseEvent(MALFORMED, f"event stream ended inside a message ({len(rest)} bytes)", "error")]
        return []


def _header(name: str, value: str) -> bytes:
    key, data = name.encode(), value.encode()
    return bytes([len(key)]) + key + b"\x07" + len(data).to_bytes(2, "big") + data


def encode_message(headers: Mapping[str, str], payload: bytes) -> bytes:
    """One message with string ``headers`` and ``payload``, as AWS frames it (for test servers)."""
    raw_headers = b"".join(_header(name, value) for name, value in headers.items())
    total = PRELUDE + len(raw_headers) + len(payload) + 4
    prelude = struct.pack(">II", total, len(raw_headers))
    prelude += _U32.pack(zlib.crc32(prelude))
    body = prelude + raw_headers + payload
    return body + _U32.pack(zlib.crc32(body))


def encode_event(event_type: str, payload: bytes) -> bytes:
    """An ``event`` message of type ``event_type`` carrying a JSON ``payload``."""
    headers = {":event-type": event_type, ":content-type": "application/json", ":message-type": "event"}
    return encode_message(headers, payload)


def encode_exception(exception_type: str, payload: bytes) -> bytes:
    """An ``exception`` message (throttlingException, validationException, ...)."""
    headers = {
        ":exception-type": exception_type,
        ":content-type": "application/json",
        ":message-type": "exception",
    }
    return encode_message(headers, payload)
