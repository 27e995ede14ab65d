"""HTTP/1.1 framing: chunked bodies decoded at every split, heads parsed, body ends decided."""

from __future__ import annotations

import pytest

from tau_ai.http1_framing import ChunkedDecoder, body_framing, parse_head, request_head

BODY = b"5\r\nhello\r\n1;name=value\r\n \r\n10\r\n0123456789abcdef\r\n0\r\n\r\n"


def decode_in_pieces(data: bytes, cuts: list[int]) -> tuple[bytes, ChunkedDecoder]:
    decoder = ChunkedDecoder()
    out = b""
    for start, end in zip([0, *cuts], [*cuts, len(data)], strict=True):
        out += decoder.feed(data[start:end])
    return out, decoder


def test_a_chunked_body_decodes_the_same_at_every_split() -> None:
    for a in range(len(BODY) + 1):
        for b in range(a, len(BODY) + 1):
            out, decoder = decode_in_pieces(BODY, [a, b])
            assert out == b"hello 0123456789abcdef", (a, b)
            assert decoder.done and decoder.extra == b""


def test_every_complete_chunk_of_a_read_comes_out_as_one_piece() -> None:
    decoder = ChunkedDecoder()
    events = b"".join(b"%x\r\n%s\r\n" % (len(e), e) for e in [b"data: a\n\n", b"data: b\n\n", b"data: c\n\n"])
    assert decoder.feed(events + b"9\r\ndata") == b"data: a\n\ndata: b\n\ndata: c\n\ndata"
    assert not decoder.done


def test_trailers_and_bytes_after_the_body_are_kept_apart() -> None:
    out, decoder = decode_in_pieces(b"3\r\nabc\r\n0\r\nx-checksum: 1\r\n\r\nHTTP/1.1", [7, 14])
    assert out == b"abc" and decoder.done and decoder.extra == b"HTTP/1.1"
    assert decoder.feed(b" 200") == b"" and decoder.extra == b"HTTP/1.1 200"


@pytest.mark.parametrize(
    "body",
    [
        b"zz\r\nab\r\n",
        b"-1\r\n",
        b"+5\r\nhello\r\n",
        b"0x5\r\nhello\r\n",
        b"0X5\r\nhello\r\n",
        b"x\r\n",
        b"1_0\r\n",
        b"3\r\nabcXY",
        b"\r\n",
        b"7" * 5000,
    ],
)
def test_malformed_chunk_framing_is_an_error_not_a_guess(body: bytes) -> None:
    with pytest.raises(ValueError):
        ChunkedDecoder().feed(body)


def test_a_response_head_is_parsed_and_a_broken_one_refused() -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Empty:\r\n\r\n"
    assert parse_head(head) == (200, b"OK", [(b"Content-Type", b"text/event-stream"), (b"X-Empty", b"")])
    assert parse_head(b"HTTP/1.1 204\r\n\r\n") == (204, b"", [])
    for bad in (b"SPDY/3 200 OK\r\n\r\n", b"HTTP/1.1 abc\r\n\r\n", b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n"):
        with pytest.raises(ValueError):
            parse_head(bad)


def test_the_request_head_carries_method_target_and_headers_in_order() -> None:
    head = request_head("POST", b"/v1/chat?x=1", [(b"Host", b"h"), (b"Content-Length", b"2")])
    assert head == b"POST /v1/chat?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"


def test_how_a_body_ends_follows_the_headers_and_the_status() -> None:
    assert body_framing("POST", 200, [(b"Transfer-Encoding", b"chunked")]) == (True, None, True)
    assert body_framing("POST", 200, [(b"content-length", b"12")]) == (False, 12, True)
    assert body_framing("POST", 200, [(b"Connection", b"close"), (b"Content-Length", b"1")]) == (
        False,
        1,
        False,
    )
    assert body_framing("POST", 200, []) == (False, None, False)  # until the server closes
    assert body_framing("HEAD", 200, [(b"content-length", b"12")]) == (False, 0, True)
    assert body_framing("GET", 304, []) == (False, 0, True)
    assert body_framing("GET", 101, []) == (False, 0, False)
    assert body_framing("GET", 200, [(b"content-length", b"1")], http10=True) == (False, 1, False)
    keep = [(b"content-length", b"1"), (b"Connection", b"Keep-Alive")]
    assert body_framing("GET", 200, keep, http10=True) == (False, 1, True)
