"""Parsing package sources and applying Pi's filters: pure functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.packages.filters import select
from tau_coding.packages.source import SourceError, parse_source


def test_sources_are_told_apart_by_their_form(tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    assert parse_source("tau-jokes", tmp_path).key == "pypi:tau-jokes"
    assert parse_source("pypi:tau-jokes==1.2", tmp_path).spec == "tau-jokes==1.2"
    git = parse_source("git:https://example.org/a/tools.git@v2", tmp_path)
    assert (git.kind, git.spec, git.ref, git.slug) == (
        "git",
        "https://example.org/a/tools.git",
        "v2",
        "tools",
    )
    assert parse_source("https://example.org/a/tools.git", tmp_path).ref is None
    assert parse_source("git@example.org:a/tools.git", tmp_path).kind == "git"
    local = parse_source("./here", tmp_path)
    assert (local.kind, local.spec) == ("local", str((tmp_path / "here").resolve()))
    assert parse_source("here", tmp_path).kind == "local"  # an existing directory beats a PyPI name


@pytest.mark.parametrize("bad", ["", "./missing", "https://example.org/page", "not a name!"])
def test_a_bad_source_is_one_clear_error(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SourceError):
        parse_source(bad, tmp_path)


def test_filters_follow_pi_rules() -> None:
    offered = ["extensions/a.py", "extensions/b.py", "extensions/legacy.py"]
    assert select(offered, None) == offered
    assert select(offered, []) == []
    assert select(offered, ["extensions/*.py", "!extensions/legacy.py"]) == offered[:2]
    assert select(offered, ["extensions/a.py", "+extensions/legacy.py"]) == [
        "extensions/a.py",
        "extensions/legacy.py",
    ]
    assert select(offered, ["extensions/*.py", "-extensions/b.py"]) == [
        "extensions/a.py",
        "extensions/legacy.py",
    ]
