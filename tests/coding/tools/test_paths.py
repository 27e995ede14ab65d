from __future__ import annotations

import os
from pathlib import Path

from tau_coding.tools.paths import display_path, resolve_path, symlink_note, symlink_target


def test_relative_paths_join_the_working_directory(tmp_path: Path) -> None:
    assert resolve_path(tmp_path, "src/a.py") == tmp_path / "src" / "a.py"
    assert resolve_path(tmp_path, "./x/../y") == tmp_path / "y"


def test_leading_at_and_unicode_spaces_are_undone(tmp_path: Path) -> None:
    assert resolve_path(tmp_path, "@src/a.py") == tmp_path / "src" / "a.py"
    assert resolve_path(tmp_path, "my\u00a0file.txt") == tmp_path / "my file.txt"


def test_home_is_expanded(tmp_path: Path) -> None:
    assert resolve_path(tmp_path, "~/notes.md") == Path(os.path.expanduser("~")) / "notes.md"


def test_absolute_paths_stay(tmp_path: Path) -> None:
    assert resolve_path(tmp_path, "/etc/hosts") == Path("/etc/hosts")


def test_display_path_is_relative_inside_the_working_directory(tmp_path: Path) -> None:
    assert display_path(tmp_path, tmp_path / "a" / "b.txt") == "a/b.txt"
    assert display_path(tmp_path, tmp_path) == "."
    assert display_path(tmp_path / "a", tmp_path / "b") == str(tmp_path / "b")


def test_symlinks_below_the_working_directory_are_reported(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f.txt").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert symlink_target(tmp_path, tmp_path / "real" / "f.txt") is None
    assert symlink_note(tmp_path, tmp_path / "link" / "f.txt") == " (via symlink to real/f.txt)"


def test_a_symlinked_working_directory_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "cwd").symlink_to(tmp_path / "real")
    cwd = tmp_path / "cwd"
    assert symlink_target(cwd, cwd / "new.txt") is None
