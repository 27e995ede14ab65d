from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tau_coding.tools.diff import first_changed_line, unified_diff


def test_unified_diff_has_headers_and_hunks() -> None:
    diff = unified_diff("a\nb\nc\n", "a\nB\nc\n", "f.txt")
    assert diff == "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"


def test_first_changed_line() -> None:
    assert first_changed_line("a\nb\nc", "a\nx\nc") == 2
    assert first_changed_line("a", "a\nb") == 2
    assert first_changed_line("a", "a") is None


def _apply(old: str, diff: str) -> str:
    """Apply a unified diff the way patch does, checking every context and removed line."""
    source = old.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    previous = ""
    for line in diff.splitlines(keepends=True)[2:]:
        if line.startswith("@@"):
            start = int(line.split()[1][1:].split(",")[0])
            count = int(line.split()[1].split(",")[1]) if "," in line.split()[1] else 1
            target = start - 1 if count else start
            out.extend(source[at:target])
            at = target
        elif line.startswith("\\"):
            if previous in " +":  # the marker belongs to the line before it
                out[-1] = out[-1].removesuffix("\n")
        elif line[0] in " -":
            assert source[at].removesuffix("\n") == line[1:].removesuffix("\n")
            at += 1
            if line[0] == " ":
                out.append(line[1:])
        else:
            out.append(line[1:])
        previous = line[0]
    out.extend(source[at:])
    return "".join(out)


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e"]), max_size=40)


@given(lines, lines)
def test_unified_diff_turns_old_into_new_when_applied(old: list[str], new: list[str]) -> None:
    a, b = "".join(old), "".join(new)
    diff = unified_diff(a, b, "p")
    assert (diff == "") == (a == b)
    if diff:
        assert _apply(a, diff) == b


def _naive_first_changed(old: str, new: str) -> int | None:
    a, b = old.split("\n"), new.split("\n")
    for number, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return number
    return None if len(a) == len(b) else min(len(a), len(b)) + 1


@given(lines, lines)
def test_first_changed_line_matches_a_line_by_line_comparison(old: list[str], new: list[str]) -> None:
    assert first_changed_line("".join(old), "".join(new)) == _naive_first_changed("".join(old), "".join(new))


def test_diff_of_a_large_file_only_shows_the_change() -> None:
    old = "".join(f"line {i}\n" for i in range(200_000))
    new = old.replace("line 150000\n", "changed\n")
    diff = unified_diff(old, new, "big")
    assert "@@ -149998,7 +149998,7 @@" in diff and diff.count("\n") == 11
