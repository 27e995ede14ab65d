"""CheckpointStore on real projects: restore to any checkpoint gives the tree back byte for
byte; the user's repository, ignored files and their own edits are never lost."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tau_coding.checkpoints.git import CheckpointError
from tau_coding.checkpoints.skips import NESTED_REPOSITORY
from tau_coding.checkpoints.store import CheckpointStore
from tests.coding.checkpoints.tree_files import dot_git_digest, git, sh, tree_state


def _repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def main():\n    return 1\n")
    (root / "README.md").write_text("# demo\n")
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    os.chmod(root / "run.sh", 0o755)
    os.symlink("src/app.py", root / "app-link")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    return root


def test_restoring_every_checkpoint_gives_its_tree_back_byte_for_byte(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data")
    states: list[tuple[str, dict[str, tuple[str, bytes]]]] = []

    def checkpoint() -> None:
        states.append((store.take(session="s").id, tree_state(project)))

    checkpoint()
    (project / "src" / "app.py").write_text("def main():\n    return 2\n")  # like the edit tool
    (project / "src" / "new.py").write_text("X = 1\n")  # like the write tool
    checkpoint()
    sh(project, "sed -i 's/return 2/return 3/' src/app.py && rm README.md && mv src/new.py src/moved.py")
    checkpoint()
    sh(
        project,
        "mkdir -p gen && seq 1 500 > gen/numbers.txt && chmod -x run.sh && ln -sfn README.md app-link",
    )
    checkpoint()
    sh(project, "rm -rf src && printf 'bin\\0ary' > blob.bin")
    final = tree_state(project)
    for checkpoint_id, expected in [*states, *reversed(states)]:
        store.restore(checkpoint_id, session="s")
        assert tree_state(project) == expected
    assert (project / "app-link").is_symlink()
    assert os.stat(project / "run.sh").st_mode & 0o111
    # the first restore kept the final files as a "before rewind" checkpoint
    first_before = store.restore(states[-1][0]).before
    assert first_before is not None
    assert tree_state(project) == states[-1][1]
    assert final != states[-1][1]


def test_a_users_own_change_survives_in_the_before_rewind_checkpoint(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data")
    first = store.take()
    (project / "src" / "app.py").write_text("agent edit\n")
    store.take()
    (project / "notes.txt").write_text("my own notes, never committed\n")  # the user, by hand
    mine = tree_state(project)
    preview = store.preview(first.id)
    assert {(c.path, c.kind) for c in preview} == {("src/app.py", "modified"), ("notes.txt", "deleted")}
    restored = store.restore(first.id)
    assert not (project / "notes.txt").exists()
    assert restored.before is not None and {c.path for c in restored.changes} == {"src/app.py", "notes.txt"}
    store.restore(restored.before.id)  # undo the rewind
    assert tree_state(project) == mine


def test_ignored_build_output_and_the_users_git_are_untouched(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    (project / "build").mkdir()
    (project / "build" / "out.o").write_bytes(b"\x7fELF old")
    (project / "debug.log").write_text("log 1\n")
    (project / "README.md").write_text("stashed change\n")
    git(project, "stash", "-q")
    (project / "staged.txt").write_text("staged\n")
    git(project, "add", "staged.txt")
    git(project, "tag", "v1")
    before = dot_git_digest(project)
    store = CheckpointStore(project, tmp_path / "data")
    first = store.take()
    (project / "build" / "out.o").write_bytes(b"\x7fELF new")
    (project / "debug.log").write_text("log 2\n")
    (project / "src" / "app.py").write_text("changed\n")
    store.take()
    store.restore(first.id)
    assert (project / "build" / "out.o").read_bytes() == b"\x7fELF new"
    assert (project / "debug.log").read_text() == "log 2\n"
    assert (project / "src" / "app.py").read_text() == "def main():\n    return 1\n"
    assert dot_git_digest(project) == before
    assert git(project, "stash", "list").count("\n") == 1
    assert git(project, "diff", "--cached", "--name-only") == "staged.txt\n"


def test_a_folder_that_is_not_a_git_repository(tmp_path: Path) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    (project / "a.txt").write_text("one\n")
    store = CheckpointStore(project, tmp_path / "data")
    first = store.take()
    (project / "a.txt").write_text("two\n")
    (project / "b.txt").write_text("new\n")
    changes = store.changes_since([first.id])[first.id]
    assert [(c.path, c.kind, c.added, c.removed) for c in changes] == [
        ("a.txt", "modified", 1, 1),
        ("b.txt", "added", 1, 0),
    ]
    store.restore(first.id)
    assert tree_state(project) == {"a.txt": ("file-", b"one\n")}
    assert not (project / ".git").exists()


def test_large_files_and_nested_repositories_are_left_out_and_named(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    (project / "big.bin").write_bytes(b"\0" * 5000)
    nested = project / "vendor" / "lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q")
    (nested / "lib.c").write_text("int x;\n")
    store = CheckpointStore(project, tmp_path / "data", max_file_bytes=4096)
    first = store.take()
    skipped = {s.path: s.reason for s in first.skipped}
    assert skipped["vendor/lib"] == NESTED_REPOSITORY and "larger than 4096 bytes" in skipped["big.bin"]
    (project / "big.bin").write_bytes(b"\1" * 6000)
    (nested / "lib.c").write_text("int y;\n")
    (project / "src" / "app.py").write_text("edited\n")
    store.restore(first.id)
    assert (project / "big.bin").read_bytes() == b"\1" * 6000  # not in the checkpoint: left alone
    assert (nested / "lib.c").read_text() == "int y;\n"
    assert (project / "src" / "app.py").read_text() == "def main():\n    return 1\n"
    (project / "big.bin").write_bytes(b"small now")
    assert "big.bin" not in {s.path for s in store.take().skipped}


def test_an_unchanged_tree_reuses_the_previous_tree_under_a_new_id(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data")
    first, second = store.take(), store.take()
    assert second.reused and second.tree == first.tree and second.id != first.id


def test_an_unknown_checkpoint_is_one_clear_error(tmp_path: Path) -> None:
    project = _repo(tmp_path / "p")
    store = CheckpointStore(project, tmp_path / "data")
    store.take()
    with pytest.raises(CheckpointError, match="no checkpoint 'deadbeef'"):
        store.restore("deadbeef")
    with pytest.raises(CheckpointError, match="no checkpoint"):
        store.preview("--help")


def test_a_deletion_or_a_mode_change_alone_makes_a_new_tree(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "a.sh").write_text("echo a\n")
    (project / "b.txt").write_text("b\n")
    store = CheckpointStore(project, tmp_path / "data")
    first = store.take()
    (project / "b.txt").unlink()
    deleted = store.take()
    os.chmod(project / "a.sh", 0o755)
    executable = store.take()
    unchanged = store.take()
    assert len({first.tree, deleted.tree, executable.tree}) == 3
    assert unchanged.tree == executable.tree and unchanged.reused
    store.restore(first.id)
    assert (project / "b.txt").read_text() == "b\n" and not os.stat(project / "a.sh").st_mode & 0o100
