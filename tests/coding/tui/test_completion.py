"""Completion candidates: commands with descriptions, fuzzy files, Tab paths on a real tree."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tau_coding.tui.completion import (
    argument_candidates,
    command_candidates,
    common_prefix,
    file_candidates,
    fuzzy_score,
    path_candidates,
)
from tau_coding.tui.files import project_files
from tau_coding.tui.port import CommandSpec

COMMANDS = [
    CommandSpec("model", "Pick the model", "[name]"),
    CommandSpec("name", "Name this session", "<name>"),
    CommandSpec("new", "Start a new session"),
    CommandSpec("quit", "Quit"),
]


def test_slash_lists_commands_with_descriptions_prefix_matches_first() -> None:
    found = command_candidates("/n", COMMANDS)
    assert [c.label for c in found][:2] == ["/name", "/new"]
    assert found[0].description == "<name>  Name this session"
    assert found[0].insert == "/name " and not found[0].submit
    new = next(c for c in found if c.label == "/new")
    assert new.submit  # no argument: Enter runs it


def test_slash_completion_stops_after_a_space() -> None:
    assert command_candidates("/model x", COMMANDS) == []
    assert command_candidates("hello", COMMANDS) == []


def test_argument_completion_matches_values_fuzzily() -> None:
    found = argument_candidates("/model son", "model", ["openai/gpt-5", "anthropic/claude-sonnet-4"])
    assert [c.insert for c in found] == ["anthropic/claude-sonnet-4"]
    assert (found[0].start, found[0].end) == (len("/model "), len("/model son"))


def test_fuzzy_prefers_file_name_and_word_starts() -> None:
    a = fuzzy_score("app", "src/tau_coding/tui/app.py")
    b = fuzzy_score("app", "src/a/p/p/zzz.py")
    assert a is not None and b is not None and a > b
    assert fuzzy_score("xyz", "abc") is None


def test_at_completion_fuzzy_matches_project_files() -> None:
    files = ["README.md", "src/tau_coding/tui/app.py", "src/tau_coding/cli.py"]
    found = file_candidates("look at @tuiapp", len("look at @tuiapp"), files)
    assert found[0].insert == "@src/tau_coding/tui/app.py "
    assert found[0].start == len("look at ")
    assert file_candidates("no at sign", 10, files) == []


def test_project_files_respect_gitignore(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("build/\n*.log\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.js").write_text("x")
    (tmp_path / "debug.log").write_text("x")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("x")
    assert project_files(tmp_path) == [".gitignore", "src/main.py"]


def test_listing_files_of_a_hostile_repository_runs_none_of_its_programs(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    marker = tmp_path.parent / f"{tmp_path.name}-fsmonitor-ran"
    hook = tmp_path / ".git" / "monitor.sh"
    hook.write_text(f"#!/bin/sh\necho ran > {marker}\n")
    hook.chmod(0o755)
    subprocess.run(["git", "config", "core.fsmonitor", str(hook)], cwd=tmp_path, check=True)
    (tmp_path / "main.py").write_text("x")
    subprocess.run(["git", "add", "main.py"], cwd=tmp_path, check=True, capture_output=True)
    marker.unlink(missing_ok=True)  # git add itself may have run it
    assert project_files(tmp_path) == ["main.py"]
    assert not marker.exists()


def test_project_files_outside_git_skip_hidden_and_build_folders(tmp_path: Path) -> None:
    for rel in ["a.py", ".hidden/x", "node_modules/m.js", "pkg/b.py"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert project_files(tmp_path) == ["a.py", "pkg/b.py"]


def test_tab_path_completion_lists_entries_with_folders_marked(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("")
    (tmp_path / "src" / "make.py").write_text("")
    (tmp_path / "setup.cfg").write_text("")
    found = path_candidates("open s", 6, tmp_path)
    assert [c.insert for c in found] == ["setup.cfg", "src/"]
    inside = path_candidates("open src/ma", 11, tmp_path)
    assert [c.insert for c in inside] == ["src/main.py", "src/make.py"]
    assert common_prefix(inside) == "src/ma"
    home = path_candidates("~/s", 3, Path("/nonexistent"), home=str(tmp_path))
    assert [c.insert for c in home] == ["~/setup.cfg", "~/src/"]
    assert path_candidates("x nothing/", 10, tmp_path) == []
