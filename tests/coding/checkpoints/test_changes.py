"""Parsing git's raw+numstat diff output into file changes, and their one-line summaries."""

from __future__ import annotations

from tau_coding.checkpoints.changes import FileChange, describe, parse_diff, summary

RAW = (
    b":000000 100644 0000000 1111111 A\0new file.txt\0"
    b":100644 000000 2222222 0000000 D\0gone.py\0"
    b":100644 100755 3333333 4444444 M\0bin/tool\0"
    b"3\t0\tnew file.txt\0"
    b"0\t12\tgone.py\0"
    b"-\t-\tbin/tool\0"
)


def test_raw_and_numstat_records_become_changes_in_order() -> None:
    assert parse_diff(RAW) == [
        FileChange("new file.txt", "added", 3, 0),
        FileChange("gone.py", "deleted", 0, 12),
        FileChange("bin/tool", "modified", None, None),
    ]
    assert parse_diff(b"") == []


def test_summaries_count_files_and_lines() -> None:
    changes = parse_diff(RAW)
    assert summary(changes) == "3 files, +3 -12"
    assert summary(changes[:1]) == "1 file, +3 -0"
    assert summary([]) == "no changes"
    assert describe(changes[2]).endswith("binary  bin/tool") and describe(changes[0]).startswith("A ")
