"""The first snapshot, written by Tau into a pack and an index, is what git itself would store:
the same tree, a store git checks clean, and an index git finds up to date."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tau_coding.checkpoints.git import safe_environ
from tau_coding.checkpoints.store import CheckpointStore
from tests.coding.checkpoints.tree_files import git


def _awkward_project(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    (root / ".gitignore").write_text("build/\n")
    (root / "build").mkdir()
    (root / "build" / "out.o").write_bytes(b"\0ignored")
    (root / "src" / "deep" / "er").mkdir(parents=True)
    (root / "src" / "deep" / "er" / "mod.py").write_text("x = 1\n")
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "deep" / "__init__.py").write_text("")  # the same blob twice
    (root / "name with spaces [1].txt").write_text("spaces\n")
    (root / "ünïcödé.md").write_text("é\n")
    (root / "a-b").write_text("sorts before a/ in git's byte order\n")
    (root / "a").mkdir()
    (root / "a" / "b").write_text("in a folder\n")
    (root / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(root / "run.sh", 0o755)
    os.symlink("src/deep/er/mod.py", root / "link")
    os.symlink("missing-target", root / "dangling")
    (root / "big.bin").write_bytes(os.urandom(70_000))  # more than one stored deflate block
    (root / "huge.bin").write_bytes(b"x" * 150_000)  # over the limit below: left out
    os.mkfifo(root / "pipe")  # not a file: left out, never opened for long
    nested = root / "vendor" / "lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q")
    (nested / "code.c").write_text("int x;\n")
    return root


def _store_git(store: CheckpointStore, *args: str, index: Path | None = None) -> str:
    env = safe_environ(os.environ, store.git_dir, store.project, index or store.git_dir / "tau-index")
    done = subprocess.run(
        ["git", *args], cwd=store.project, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout + done.stderr


def test_the_first_snapshot_stores_the_tree_git_add_would(tmp_path: Path) -> None:
    project = _awkward_project(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data", max_file_bytes=100_000)
    first = store.take()
    assert {s.path for s in first.skipped} == {"huge.bin", "vendor/lib"}

    fresh_index = tmp_path / "git-index"
    _store_git(store, "add", "-A", "--", ".", index=fresh_index)
    assert _store_git(store, "write-tree", index=fresh_index).strip() == first.tree
    listed = _store_git(store, "ls-tree", "-r", "--name-only", first.tree).splitlines()
    assert "build/out.o" not in listed and "pipe" not in listed and "link" in listed
    assert "error" not in _store_git(store, "fsck", "--strict", "--no-dangling")


def test_after_the_first_snapshot_git_sees_every_file_unchanged(tmp_path: Path) -> None:
    project = _awkward_project(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data", max_file_bytes=100_000)
    first = store.take()
    assert _store_git(store, "diff-files", "--name-only") == ""
    (project / "src" / "deep" / "er" / "mod.py").write_text("x = 2\n")
    assert _store_git(store, "diff-files", "--name-only").split() == ["src/deep/er/mod.py"]
    second = store.take()
    assert second.tree != first.tree
    store.restore(first.id)
    assert (project / "src" / "deep" / "er" / "mod.py").read_text() == "x = 1\n"


def test_a_lost_index_makes_the_next_snapshot_a_first_one_again(tmp_path: Path) -> None:
    project = _awkward_project(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data", max_file_bytes=100_000)
    first = store.take()
    (store.git_dir / "tau-index").unlink()
    again = store.take()
    assert again.tree == first.tree
    assert "error" not in _store_git(store, "fsck", "--strict", "--no-dangling")
