"""HTTP/1.1 framing, pure: the request head, the response head, and how a body ends.

``ChunkedDecoder`` undoes the chunked transfer coding incrementally: ``feed`` takes whatever the socket delivered (cut anywhere: inside a size line, inside chunk
data, between the CR and LF) and returns the body bytes it completed, every chunk of the
read joined into one piece. ``done`` turns true after the last chunk and its trailer
section; ``extra`` holds bytes the server sent after that. Malformed framing raises
``ValueError`` with a short reason.
"""

from __future__ import annotations

MAX_LINE = 4096
NO_BODY_STATUSES = frozenset((204, 304))
Headers = list[tuple[bytes, bytes]]


def request_head(method: str, target: bytes, headers: Headers) -> bytes:
    """The request line and header lines, ending with the blank line."""
    lines = [b"%s %s HTTP/1.1" % (method.encode("ascii"), target or b"/")]
    lines += [name + b": " + value for name, value in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def parse_head(raw: bytes) -> tuple[int, bytes, Headers]:
    """(status, reason, headers) of a response head (its final blank line optional).

    Raises ValueError for a malformed status line or header line.
    """
    status_line, *lines = raw.rstrip(b"\r\n").split(b"\r\n")
    parts = status_line.split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1.") or not parts[1].isdigit():
        raise ValueError(f"malformed status line {status_line[:80]!r}")
    headers = []
    for line in lines:
        name, sep, value = line.partition(b":")
        if not sep or not name or name != name.strip():
            raise ValueError(f"malformed header line {line[:80]!r}")
        headers.append((name, value.strip()))
    return int(parts[1]), parts[2] if len(parts) > 2 else b"", headers


def header(headers: Headers, name: bytes) -> bytes | None:
    """The first value of header ``name`` (lower-case), or None."""
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def body_framing(
    method: str, status: int, headers: Headers, *, http10: bool = False
) -> tuple[bool, int | None, bool]:
    """(chunked, length, reusable): how the body of this response ends, per RFC 9112 §6.3.

    ``length`` None with ``chunked`` False means the body runs until the server closes the
    connection, which is then not reusable; neither is one the server said to close, nor an
    HTTP/1.0 server's that did not ask to keep it alive.
    """
    connection = (header(headers, b"connection") or b"").lower()
    reusable = b"keep-alive" in connection if http10 else b"close" not in connection
    if 100 <= status < 200:  # 101 Switching Protocols: the connection is no longer HTTP
        return False, 0, False
    if method == "HEAD" or status in NO_BODY_STATUSES:
        return False, 0, reusable
    if (header(headers, b"transfer-encoding") or b"").lower().endswith(b"chunked"):
        return True, None, reusable
    length = header(headers, b"content-length")
    if length is not None and length.strip().isdigit():
        return False, int(length), reusable
    return False, None, False


class ChunkedDecoder:
    __slots__ = ("_buffer", "_crlf", "_remaining", "_trailers", "done", "extra")

    def __init__(self) -> None:
        self._buffer = b""
        self._remaining = 0  # data bytes still to come of the current chunk
        self._crlf = False  # the CRLF that ends a chunk's data is still to come
        self._trailers = False  # past the last chunk, reading the trailer section
        self.done = False
        self.extra = b""

    def feed(self, data: bytes) -> bytes:
        if self.done:
            self.extra += data
            return b""
        buffer = self._buffer + data if self._buffer else data
        size = len(buffer)
        pos = 0
        parts: list[bytes] = []
        remaining, crlf = self._remaining, self._crlf
        find = buffer.find
        while True:
            if remaining:
                end = pos + remaining
                if end > size:
                    parts.append(buffer[pos:])
                    remaining -= size - pos
                    pos = size
                    break
                parts.append(buffer[pos:end])
                pos, remaining, crlf = end, 0, True
            if crlf:
                if size - pos < 2:
                    break
                if buffer[pos : pos + 2] != b"\r\n":
                    raise ValueError("chunk data not followed by CRLF")
                pos += 2
                crlf = False
            if self._trailers:
                if self._end_trailers(buffer, pos):
                    return b"".join(parts)
                break
            line_end = find(b"\r\n", pos)
            if line_end < 0:
                if size - pos > MAX_LINE:
                    raise ValueError("chunk size line too long")
                break
            text = buffer[pos:line_end]
            if not (
                text.isalnum() and text[1:2] not in (b"x", b"X")
            ):  # anything but bare hex digits: the full look
                text = text.split(b";", 1)[0].strip()
                if text[:1] in (b"+", b"-") or b"_" in text or text[:2].lower() == b"0x":
                    raise ValueError(f"bad chunk size {text[:20]!r}")
            try:
                length = int(text, 16)
            except ValueError:
                raise ValueError(f"bad chunk size {text[:20]!r}") from None
            pos = line_end + 2
            if length == 0:
                self._trailers = True
                if self._end_trailers(buffer, pos):
                    return b"".join(parts)
                break
            remaining = length
        self._remaining, self._crlf = remaining, crlf
        self._buffer = buffer[pos:]
        return b"".join(parts) if len(parts) != 1 else parts[0]

    def _end_trailers(self, buffer: bytes, pos: int) -> bool:
        """True once the trailer section (usually empty) has fully arrived."""
        if buffer[pos : pos + 2] == b"\r\n":
            end = pos + 2
        else:
            found = buffer.find(b"\r\n\r\n", pos)
            if found < 0:
                if len(buffer) - pos > MAX_LINE * 4:
                    raise ValueError("trailer section too long")
                self._buffer = buffer[pos:]
                return False
            end = found + 4
        self.done = True
        self._buffer = b""
        self.extra = buffer[end:]
        return True
