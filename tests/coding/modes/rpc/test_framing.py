"""RPC framing: LF-only lines, one CR dropped, U+2028/2029 kept, bounded long lines."""

from __future__ import annotations

import itertools
import json

from hypothesis import given
from hypothesis import strategies as st

from tau_coding.modes.rpc.framing import BadLine, LineSplitter, decode_line, encode_line


def _split(data: bytes, cuts: list[int], max_bytes: int = 1 << 20) -> list[bytes | BadLine]:
    splitter = LineSplitter(max_bytes)
    out: list[bytes | BadLine] = []
    edges = [0, *sorted(c % (len(data) + 1) for c in cuts), len(data)]
    for a, b in itertools.pairwise(edges):
        out.extend(splitter.feed(data[a:b]))
    return out + splitter.finish()


def test_lines_split_on_lf_only_and_keep_unicode_separators() -> None:
    payload = json.dumps({"type": "prompt", "message": "a\u2028b\u2029c"}, ensure_ascii=False).encode()
    lines = _split(payload + b"\r\n" + b'{"type":"abort"}\n', [])
    assert len(lines) == 2
    first = decode_line(lines[0])  # type: ignore[arg-type]
    assert first == {"type": "prompt", "message": "a\u2028b\u2029c"}
    assert decode_line(lines[1]) == {"type": "abort"}  # type: ignore[arg-type]


def test_a_lone_cr_does_not_end_a_line() -> None:
    lines = _split(b'{"type":"abort"}\r{"type":"get_state"}\r\n', [])
    assert lines == [b'{"type":"abort"}\r{"type":"get_state"}\r']
    assert isinstance(decode_line(lines[0]), BadLine)  # type: ignore[arg-type]
    assert decode_line(b'{"type":"abort"}\r') == {"type": "abort"}


def test_a_last_line_without_lf_still_counts() -> None:
    assert _split(b'{"type":"abort"}\n{"type":"get_state"}', []) == [
        b'{"type":"abort"}',
        b'{"type":"get_state"}',
    ]


def test_an_over_long_line_is_one_bad_line_and_the_next_line_survives() -> None:
    data = b"x" * 5000 + b"\n" + b'{"type":"abort"}\n'
    for cuts in ([], [10, 2000, 4999, 5000, 5001], list(range(0, 5020, 7))):
        lines = _split(data, cuts, max_bytes=1000)
        assert len(lines) == 2
        assert isinstance(lines[0], BadLine) and "longer than 1000 bytes" in lines[0].error
        assert lines[1] == b'{"type":"abort"}'


def test_non_objects_and_broken_json_are_bad_lines_with_a_reason() -> None:
    for raw, reason in ((b"[1,2]", "an array"), (b"42", "a number"), (b"null", "null"), (b"{", "Failed")):
        result = decode_line(raw)
        assert isinstance(result, BadLine) and reason in result.error
    assert isinstance(decode_line(b"\xff\xfe"), BadLine)


def test_encoded_lines_end_with_lf_and_contain_no_other() -> None:
    line = encode_line({"text": "a\nb\u2028c"})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"text": "a\nb\u2028c"}


@given(
    st.lists(st.binary(max_size=40).filter(lambda b: b"\n" not in b), max_size=8),
    st.lists(st.integers(0, 400)),
)
def test_any_chunking_gives_the_same_lines(lines: list[bytes], cuts: list[int]) -> None:
    data = b"".join(line + b"\n" for line in lines)
    assert _split(data, cuts) == [*lines]


@given(st.binary(max_size=200))
def test_decoding_arbitrary_bytes_never_raises(raw: bytes) -> None:
    result = decode_line(raw)
    assert isinstance(result, BadLine | dict)
