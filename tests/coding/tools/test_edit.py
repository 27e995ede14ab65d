from __future__ import annotations

import stat
from pathlib import Path

from tau_agent.tools import AgentTool

from .conftest import call


async def test_edit_replaces_unique_text_and_returns_a_diff(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    out = await call(tools["edit"], path="a.py", oldText="return 1", newText="return 2")
    assert out.text == "Successfully replaced text in a.py."
    assert (tmp_path / "a.py").read_text() == "def f():\n    return 2\n"
    assert out.result.details["firstChangedLine"] == 2
    assert out.result.details["diff"] == (
        "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"
    )


async def test_edit_applies_several_edits_located_in_the_original(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\ngamma\n")
    edits = [{"oldText": "gamma", "newText": "GAMMA"}, {"oldText": "alpha", "newText": "beta"}]
    out = await call(tools["edit"], path="a.txt", edits=edits)
    assert out.text == "Successfully applied 2 edits in a.txt."
    assert (tmp_path / "a.txt").read_text() == "beta\nbeta\nGAMMA\n"


async def test_edit_ambiguous_match_leaves_the_file_byte_identical(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    original = b"x = 1\ny = 2\nx = 1\n"
    (tmp_path / "a.txt").write_bytes(original)
    out = await call(tools["edit"], path="a.txt", oldText="x = 1", newText="x = 3")
    assert out.is_error
    assert (
        out.text
        == "Found 2 occurrences of oldText of the edit in a.txt (at lines 1, 3); add surrounding lines to make it unique."
    )
    assert (tmp_path / "a.txt").read_bytes() == original


async def test_edit_counts_overlapping_occurrences(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("aaa")
    out = await call(tools["edit"], path="a.txt", oldText="aa", newText="b")
    assert out.is_error and out.text.startswith("Found 2 occurrences")


async def test_edit_missing_text_names_the_nearest_candidate(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.py").write_text("import os\n\ndef compute_total(items):\n    return sum(items)\n")
    out = await call(
        tools["edit"], path="a.py", oldText="def compute_totals(items):\n    return 0", newText="x"
    )
    assert out.is_error
    assert out.text.startswith(
        "Could not find oldText of the edit in a.py (0 matches). The closest text is at line 3:"
    )
    assert "     3| def compute_total(items):\n     4|     return sum(items)" in out.text


async def test_one_failing_edit_writes_nothing(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    edits = [{"oldText": "one", "newText": "1"}, {"oldText": "three", "newText": "3"}]
    out = await call(tools["edit"], path="a.txt", edits=edits)
    assert out.is_error and out.text.startswith("Could not find oldText of edit 2 of 2 in a.txt")
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"


async def test_overlapping_edits_are_rejected(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("abcdef\n")
    edits = [{"oldText": "abcd", "newText": "x"}, {"oldText": "cdef", "newText": "y"}]
    out = await call(tools["edit"], path="a.txt", edits=edits)
    assert out.is_error and out.text == "Edits 1 and 2 overlap in a.txt; merge them into one edit."


async def test_noop_edit_is_an_error(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("same\n")
    out = await call(tools["edit"], path="a.txt", oldText="same", newText="same")
    assert out.is_error and out.text == "oldText and newText of the edit are identical; nothing would change."


async def test_edit_keeps_crlf_line_endings(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "w.txt").write_bytes(b"first\r\nsecond\r\nthird\r\n")
    out = await call(tools["edit"], path="w.txt", oldText="first\nsecond", newText="one\ntwo\nextra")
    assert not out.is_error
    assert (tmp_path / "w.txt").read_bytes() == b"one\r\ntwo\r\nextra\r\nthird\r\n"
    assert "-first\n-second\n+one\n+two\n+extra\n" in out.result.details["diff"]


async def test_edit_of_a_mixed_ending_file_changes_only_the_matched_span(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "m.txt").write_bytes(b"a\r\nb\nc\rd\n")
    await call(tools["edit"], path="m.txt", oldText="b", newText="B1\nB2")
    assert (tmp_path / "m.txt").read_bytes() == b"a\r\nB1\nB2\nc\rd\n"


async def test_edit_keeps_the_bom_and_bytes_that_are_not_utf8(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "b.txt").write_bytes(b"\xef\xbb\xbfname = 'x'\ncaf\xe9\n")
    out = await call(tools["edit"], path="b.txt", oldText="name = 'x'", newText="name = 'y'")
    assert not out.is_error
    assert (tmp_path / "b.txt").read_bytes() == b"\xef\xbb\xbfname = 'y'\ncaf\xe9\n"


async def test_fuzzy_match_changes_only_the_matched_span_and_says_so(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    original = "keep   this  \nprint(\u201chello\u201d)   \nlast line   \n"
    (tmp_path / "f.py").write_text(original)
    out = await call(tools["edit"], path="f.py", oldText='print("hello")', newText='print("bye")')
    assert not out.is_error and "matched only after ignoring differences in whitespace" in out.text
    assert (tmp_path / "f.py").read_text() == 'keep   this  \nprint("bye")   \nlast line   \n'
    assert out.result.details["fuzzyEdits"] == [1]


async def test_fuzzy_match_tolerates_reindented_blocks(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "g.py").write_text("if x:\n\tdo(a,  b)\n\treturn\n")
    out = await call(tools["edit"], path="g.py", oldText="    do(a, b)\n    return", newText="\tdone()")
    assert not out.is_error
    assert (tmp_path / "g.py").read_text() == "if x:\n\tdone()\n"


async def test_fuzzy_matches_must_be_unique_too(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "h.txt").write_text("a  b\na \tb\n")
    out = await call(tools["edit"], path="h.txt", oldText="a b", newText="c")
    assert out.is_error and out.text.startswith("Found 2 similar passages")


async def test_edit_keeps_the_file_mode(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "s.sh").write_text("echo hi\n")
    (tmp_path / "s.sh").chmod(0o700)
    await call(tools["edit"], path="s.sh", oldText="hi", newText="ho")
    assert stat.S_IMODE((tmp_path / "s.sh").stat().st_mode) == 0o700


async def test_edit_argument_forms_are_checked(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    both = await call(
        tools["edit"], path="a.txt", oldText="x", newText="y", edits=[{"oldText": "x", "newText": "z"}]
    )
    assert both.is_error and both.text == "Give either edits or oldText/newText, not both."
    neither = await call(tools["edit"], path="a.txt")
    assert neither.is_error and neither.text.startswith("Give edits:")
    empty = await call(tools["edit"], path="a.txt", oldText="", newText="y")
    assert empty.is_error and empty.text == "oldText of the edit is empty; give the exact text to replace."


async def test_edit_missing_file_and_binary_file(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    missing = await call(tools["edit"], path="none.txt", oldText="a", newText="b")
    assert missing.is_error and missing.text == "File not found: none.txt. Use write to create a new file."
    (tmp_path / "bin").write_bytes(b"\x00\x01abc")
    binary = await call(tools["edit"], path="bin", oldText="abc", newText="x")
    assert binary.is_error and binary.text == "Cannot edit bin: it is a binary file (binary data)."


async def test_edit_through_a_symlink_edits_the_target_and_reports_it(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "real.txt").write_text("v1\n")
    (tmp_path / "link.txt").symlink_to("real.txt")
    out = await call(tools["edit"], path="link.txt", oldText="v1", newText="v2")
    assert out.text == "Successfully replaced text in link.txt (via symlink to real.txt)."
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "v2\n"


async def test_edit_refuses_a_file_over_the_size_limit_without_reading_it_whole(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    import tracemalloc

    from tau_coding.tools.edit import MAX_EDIT_FILE

    big = tmp_path / "big.log"
    line = b"an ordinary log line that goes on for a while\n"
    big.write_bytes(b"needle\n" + line * (40 * 1024 * 1024 // len(line)))
    before = big.stat().st_size
    tracemalloc.start()
    try:
        out = await call(tools["edit"], path="big.log", oldText="needle", newText="thread")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.result.is_error
    assert out.text.startswith("Cannot edit big.log: it is 40.0MB, over the 32.0MB limit of edit.")
    assert big.stat().st_size == before and big.read_bytes()[:6] == b"needle"
    assert peak < 2 * MAX_EDIT_FILE  # one bounded read, not the ~6x a whole edit costs
