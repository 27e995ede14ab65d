from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tau_coding.tools.truncate import (
    cut_line,
    format_size,
    tail_bytes,
    truncate_head,
    truncate_tail,
    utf8_len,
)


def test_truncate_head_keeps_everything_within_budget() -> None:
    out = truncate_head("a\nb\nc\n", 10, 100)
    assert (out.content, out.truncated, out.total_lines) == ("a\nb\nc\n", False, 3)


def test_truncate_head_stops_at_the_line_budget() -> None:
    out = truncate_head("\n".join(str(i) for i in range(10)), 3, 1000)
    assert out.content == "0\n1\n2"
    assert (out.truncated, out.truncated_by, out.output_lines, out.total_lines) == (True, "lines", 3, 10)


def test_truncate_head_measures_utf8_bytes_and_never_returns_half_a_line() -> None:
    text = "é" * 10 + "\n" + "é" * 10  # 20 bytes per line
    out = truncate_head(text, 100, 30)
    assert out.content == "é" * 10
    assert (out.truncated_by, out.output_bytes, out.total_bytes) == ("bytes", 20, 41)


def test_truncate_head_flags_a_first_line_over_the_budget() -> None:
    out = truncate_head("x" * 100 + "\nshort", 10, 50)
    assert out.content == "" and out.first_line_exceeds_limit


def test_truncate_tail_keeps_the_end_of_one_huge_line() -> None:
    out = truncate_tail("start\n" + "x" * 40 + "END", 10, 20)
    assert out.content.endswith("END") and utf8_len(out.content) == 20
    assert out.last_line_partial and out.truncated_by == "bytes"


def test_truncate_tail_keeps_last_lines() -> None:
    out = truncate_tail("\n".join(str(i) for i in range(10)) + "\n", 3, 1000)
    assert out.content == "7\n8\n9" and out.total_lines == 10


def test_tail_bytes_never_splits_a_character() -> None:
    assert tail_bytes("aé", 2) == "é"
    assert tail_bytes("éé", 3) == "é"


def test_cut_line_marks_the_cut() -> None:
    assert cut_line("abcdef", 3) == ("abc... [truncated]", True)
    assert cut_line("abc", 3) == ("abc", False)


def test_format_size() -> None:
    assert [format_size(n) for n in (10, 51200, 1536 * 1024, 2 * 1024**3)] == [
        "10B",
        "50.0KB",
        "1.5MB",
        "2.0GB",
    ]


@given(st.text(alphabet=st.sampled_from("ab\né😀"), max_size=300), st.integers(1, 20), st.integers(1, 80))
def test_truncations_respect_both_budgets_and_are_a_prefix_or_suffix(
    text: str, lines: int, size: int
) -> None:
    head = truncate_head(text, lines, size)
    assert text.startswith(head.content)
    assert utf8_len(head.content) <= size and head.output_lines <= lines
    tail = truncate_tail(text, lines, size)
    assert text.endswith(tail.content) or text.endswith(
        tail.content + "\n"
    )  # the text may end with a newline
    assert utf8_len(tail.content) <= size and tail.output_lines <= lines
