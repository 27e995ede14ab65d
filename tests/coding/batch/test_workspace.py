"""Working copies: a copy or a clone at a ref, and the agent's changes as one git diff."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tau_coding.batch.workspace import WorkspaceError, diff, prepare


def _git(cwd: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def test_a_copied_folder_gets_a_throwaway_repo_and_its_changes_come_back_as_a_diff(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "keep.txt").write_text("same\n")
    (source / "edit.txt").write_text("old\n")
    space = prepare(tmp_path / "work" / "t1", cwd="src", repo=None, ref=None, base=tmp_path)
    (space.path / "edit.txt").write_text("new\n")
    (space.path / "added.txt").write_text("hello\n")
    changes = diff(space)
    assert "+new" in changes and "-old" in changes and "b/added.txt" in changes
    assert "keep.txt" not in changes
    assert not (source / ".git").exists() and (source / "edit.txt").read_text() == "old\n"


def test_a_repo_is_checked_out_at_its_ref_and_uncommitted_files_of_a_copy_are_the_start(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "v.txt").write_text("one\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    first = _git(repo, "rev-parse", "HEAD").strip()
    (repo / "v.txt").write_text("two\n")
    _git(repo, "commit", "-qam", "two")
    space = prepare(tmp_path / "w" / "a", cwd=None, repo=str(repo), ref=first, base=tmp_path)
    assert (space.path / "v.txt").read_text() == "one\n"
    assert diff(space) == ""
    (repo / "dirty.txt").write_text("uncommitted\n")
    copied = prepare(tmp_path / "w" / "b", cwd="repo", repo=None, ref=None, base=tmp_path)
    (copied.path / "v.txt").write_text("three\n")
    changes = diff(copied)
    assert "+three" in changes and "dirty.txt" not in changes


def test_preparing_again_starts_from_scratch(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    space = prepare(tmp_path / "w", cwd="src", repo=None, ref=None, base=tmp_path)
    (space.path / "leftover.txt").write_text("from a killed attempt\n")
    again = prepare(tmp_path / "w", cwd="src", repo=None, ref=None, base=tmp_path)
    assert not (again.path / "leftover.txt").exists() and diff(again) == ""


def test_a_missing_folder_or_ref_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="is not a folder"):
        prepare(tmp_path / "w", cwd="nope", repo=None, ref=None, base=tmp_path)
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "f").write_text("x")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "x")
    with pytest.raises(WorkspaceError) as error:
        prepare(tmp_path / "w2", cwd=None, repo="r", ref="no-such-ref", base=tmp_path)
    assert "\n" not in str(error.value) and str(error.value).startswith("git checkout")


def test_seeds_make_a_source_once_and_copies_still_diff_on_their_own(tmp_path: Path) -> None:
    from tau_coding.batch.workspace import Seeds

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("a\n")
    seeds = Seeds(tmp_path / "seeds")
    one = seeds.prepare(tmp_path / "w1", cwd="src", repo=None, ref=None, base=tmp_path)
    two = seeds.prepare(tmp_path / "w2", cwd="src", repo=None, ref=None, base=tmp_path)
    assert one.baseline == two.baseline and len(list((tmp_path / "seeds").iterdir())) == 1
    (one.path / "a.txt").write_text("changed\n")
    assert "+changed" in diff(one) and diff(two) == ""
    import shutil

    shutil.rmtree(tmp_path / "seeds")  # a finished batch removes its seeds; the next one remakes them
    three = seeds.prepare(tmp_path / "w3", cwd="src", repo=None, ref=None, base=tmp_path)
    assert (three.path / "a.txt").read_text() == "a\n" and diff(three) == ""
