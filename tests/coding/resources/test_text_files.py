"""Reading resource files: malformed input becomes a diagnostic, never an exception."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tau_coding.resources.text_files import LARGE_FILE_BYTES, MAX_FILE_BYTES, read_resource_text


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"plain\n", "plain\n"),
        (b"\xef\xbb\xbfwith bom\n", "with bom\n"),
        (b"crlf\r\nlines\r\n", "crlf\nlines\n"),
        (b"old\rmac\r", "old\nmac\n"),
        ("unicode é ✓\n".encode(), "unicode é ✓\n"),
        (b"", ""),
    ],
)
def test_text_is_decoded_and_line_endings_normalised(tmp_path: Path, data: bytes, text: str) -> None:
    path = tmp_path / "f.md"
    path.write_bytes(data)
    assert read_resource_text(path) == (text, [])


def test_invalid_utf8_is_replaced_and_warned(tmp_path: Path) -> None:
    path = tmp_path / "f.md"
    path.write_bytes(b"caf\xe9 ok\n")
    text, diagnostics = read_resource_text(path)
    assert text == "caf\ufffd ok\n"
    assert [(d.severity, d.source) for d in diagnostics] == [("warning", str(path))]
    assert "invalid UTF-8 at byte 3" in diagnostics[0].message


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    text, diagnostics = read_resource_text(path)
    assert text is None and [d.severity for d in diagnostics] == ["error"]
    assert "binary" in diagnostics[0].message


def test_large_file_is_loaded_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "f.md"
    path.write_text("x" * (LARGE_FILE_BYTES + 1))
    text, diagnostics = read_resource_text(path)
    assert text is not None and len(text) == LARGE_FILE_BYTES + 1
    assert [d.severity for d in diagnostics] == ["warning"] and "large file" in diagnostics[0].message


def test_huge_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "f.md"
    with open(path, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: costs no disk
    text, diagnostics = read_resource_text(path)
    assert text is None and "over the" in diagnostics[0].message


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo", "dangling symlink"])
def test_unusable_paths_are_errors(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "f.md"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling symlink":
        path.symlink_to(tmp_path / "gone")
    text, diagnostics = read_resource_text(path)
    assert text is None
    assert [(d.severity, d.source) for d in diagnostics] == [("error", str(path))]
