from __future__ import annotations

import pytest

from tau_coding.tools.globs import compile_glob, is_ignored, parse_gitignore


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("*.py", "a.py", True),
        ("*.py", "src/deep/a.py", True),
        ("*.py", "a.pyc", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/x/a.py", False),
        ("src/**/*.py", "src/x/y/a.py", True),
        ("src/**/*.py", "src/a.py", True),
        ("**/*.json", "a.json", True),
        ("**/*.json", "x/y/a.json", True),
        ("*.{ts,tsx}", "c/d.tsx", True),
        ("file?.txt", "file1.txt", True),
        ("[ab].txt", "b.txt", True),
        ("[!ab].txt", "b.txt", False),
    ],
)
def test_glob_matching(pattern: str, path: str, expected: bool) -> None:
    assert compile_glob(pattern).matches(path) is expected


def test_gitignore_rules_last_match_wins_and_negation_reincludes() -> None:
    rules = parse_gitignore("# comment\n*.log\n!keep.log\nbuild/\n/top.txt\n", "")
    assert is_ignored(rules, "x/a.log", False)
    assert not is_ignored(rules, "x/keep.log", False)
    assert is_ignored(rules, "build", True)
    assert not is_ignored(rules, "build", False)  # directory-only rule
    assert is_ignored(rules, "top.txt", False)
    assert not is_ignored(rules, "sub/top.txt", False)  # anchored to the .gitignore's directory


def test_nested_gitignore_applies_below_its_directory_only() -> None:
    rules = parse_gitignore("*.tmp\n", "sub")
    assert is_ignored(rules, "sub/x/a.tmp", False)
    assert not is_ignored(rules, "a.tmp", False)
