"""StoredText: a range of a file, read when sent, the same bytes for as long as it lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tau_ai.stored_text import SpillFile, StoredText, open_file


def test_a_range_reads_its_bytes_in_slices_even_after_the_file_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "f"
    data = bytes(range(256)) * 9000
    path.write_bytes(data)
    with path.open("rb") as source:
        file = open_file(source.fileno())
    text = StoredText(file, 1000, 2_000_000)
    assert len(text) == 2_000_000
    assert [len(s) for s in text.slices(700_000)] == [700_000, 700_000, 600_000]
    (tmp_path / "new").write_bytes(b"other")
    os.replace(tmp_path / "new", path)  # how a checkpoint file is replaced
    assert bytes(text) == data[1000:2_001_000]


def test_a_cut_file_raises_instead_of_sending_other_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 5000)
    with path.open("rb") as source:
        text = StoredText(open_file(source.fileno()), 0, 5000)
    os.truncate(path, 100)
    with pytest.raises(OSError, match="cut short"):
        bytes(text)


def test_the_descriptor_is_closed_with_the_last_range(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    with path.open("rb") as source:
        file = open_file(source.fileno())
    fd = file.fd
    texts = [StoredText(file, 0, 1), StoredText(file, 1, 2)]
    del file
    assert bytes(texts[1]) == b"bc"
    os.fstat(fd)
    del texts
    with pytest.raises(OSError):
        os.fstat(fd)


def test_a_spill_file_keeps_bytes_as_ranges_of_a_file_without_a_name(tmp_path: Path) -> None:
    spill = SpillFile(tmp_path)
    first, second = spill.keep(memoryview(b"first run")), spill.keep(b"second")
    assert isinstance(first, StoredText) and isinstance(second, StoredText)
    assert (bytes(first), bytes(second)) == (b"first run", b"second")
    assert (first.offset, second.offset) == (0, 9)
    assert list(tmp_path.iterdir()) == []  # unlinked at once: nothing is left behind


def test_a_spill_file_that_cannot_be_made_keeps_the_bytes_in_memory(tmp_path: Path) -> None:
    spill = SpillFile(tmp_path / "gone")
    assert spill.keep(memoryview(b"run")) == b"run"


def test_a_spill_file_goes_with_its_last_range_and_a_later_run_starts_a_new_one(tmp_path: Path) -> None:
    spill = SpillFile(tmp_path)
    first = spill.keep(b"old history")
    assert isinstance(first, StoredText)
    fd = first._file.fd
    del first
    with pytest.raises(OSError):
        os.fstat(fd)
    again = spill.keep(b"new")
    assert isinstance(again, StoredText) and again.offset == 0 and bytes(again) == b"new"
