"""The change an edit or write would make, shown before it runs (the permission question)."""

from __future__ import annotations

from pathlib import Path

from tau_coding.tools.change_preview import change_preview


def test_an_edit_previews_the_diff_it_would_make_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    diff = change_preview(tmp_path, "edit", {"path": "calc.py", "oldText": "a - b", "newText": "a + b"})
    assert diff is not None
    assert "--- a/calc.py" in diff and "-    return a - b" in diff and "+    return a + b" in diff
    assert (tmp_path / "calc.py").read_text() == "def add(a, b):\n    return a - b\n"


def test_several_edits_and_a_byte_order_mark_preview_like_the_tool(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("\ufeffone\r\ntwo\r\nthree\r\n")
    edits = [{"oldText": "one", "newText": "1"}, {"oldText": "three", "newText": "3"}]
    diff = change_preview(tmp_path, "edit", {"path": "a.txt", "edits": edits})
    assert (
        diff is not None and "+1\n" in diff and "+3\n" in diff and "\r" not in diff and "\ufeff" not in diff
    )


def test_a_write_previews_a_new_file_or_its_changes(tmp_path: Path) -> None:
    new = change_preview(tmp_path, "write", {"path": "new.txt", "content": "hello\n"})
    assert new is not None and "+hello" in new
    (tmp_path / "old.txt").write_text("a\nb\n")
    changed = change_preview(tmp_path, "write", {"path": "old.txt", "content": "a\nc\n"})
    assert changed is not None and "-b" in changed and "+c" in changed
    assert change_preview(tmp_path, "write", {"path": "old.txt", "content": "a\nb\n"}) is None


def test_calls_the_tool_would_refuse_have_no_preview(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("text\n")
    (tmp_path / "bin").write_bytes(b"\x00\x01binary")
    refused = [
        ("edit", {"path": "f.txt", "oldText": "missing", "newText": "x"}),
        ("edit", {"path": "nope.txt", "oldText": "a", "newText": "b"}),
        ("edit", {"path": "bin", "oldText": "binary", "newText": "x"}),
        ("edit", {"path": "f.txt", "edits": "not a list"}),
        ("edit", {"path": "f.txt"}),
        ("write", {"path": "f.txt"}),
        ("bash", {"command": "ls"}),
        ("read", {"path": "f.txt"}),
    ]
    assert [change_preview(tmp_path, tool, args) for tool, args in refused] == [None] * len(refused)
