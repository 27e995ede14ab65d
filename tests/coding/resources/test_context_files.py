"""Context files: AGENTS.md over CLAUDE.md, TAU_HOME first, then root down to the working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.resources.context_files import context_directories, load_context_files


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def under(tmp_path: Path, files: list[Path]) -> list[str]:
    """Paths relative to tmp_path; files above it (the real filesystem) are not the test's."""
    return [str(path.relative_to(tmp_path)) for path in files if path.is_relative_to(tmp_path)]


# Each case: files to create (relative to tmp_path), and the context files expected, in order.
CASES = [
    ("nothing", [], []),
    ("home only", ["tau/AGENTS.md"], ["tau/AGENTS.md"]),
    (
        "home then root-down",
        ["tau/AGENTS.md", "proj/AGENTS.md", "proj/app/src/CLAUDE.md", "proj/app/AGENTS.md"],
        ["tau/AGENTS.md", "proj/AGENTS.md", "proj/app/AGENTS.md", "proj/app/src/CLAUDE.md"],
    ),
    ("AGENTS.md preferred", ["proj/AGENTS.md", "proj/CLAUDE.md"], ["proj/AGENTS.md"]),
    ("CLAUDE.md as fallback", ["proj/CLAUDE.md", "tau/CLAUDE.md"], ["tau/CLAUDE.md", "proj/CLAUDE.md"]),
    (
        "not stopped at a git root",
        [".git/HEAD", "AGENTS.md", "proj/AGENTS.md"],
        ["AGENTS.md", "proj/AGENTS.md"],
    ),
    ("below cwd ignored", ["proj/app/src/deeper/AGENTS.md"], []),
    ("siblings ignored", ["other/AGENTS.md", "proj/app/src/AGENTS.md"], ["proj/app/src/AGENTS.md"]),
    ("lowercase name ignored", ["proj/agents.md"], []),
]


@pytest.mark.parametrize(("label", "files", "expected"), CASES, ids=[case[0] for case in CASES])
def test_discovery(tmp_path: Path, label: str, files: list[str], expected: list[str]) -> None:
    cwd = tmp_path / "proj" / "app" / "src"
    cwd.mkdir(parents=True)
    for name in files:
        write(tmp_path / name, f"from {name}\n")
    found, diagnostics = load_context_files(cwd, tmp_path / "tau")
    assert diagnostics == []
    assert under(tmp_path, [file.path for file in found]) == expected
    assert [file.text for file in found if file.path.is_relative_to(tmp_path)] == [
        f"from {name}\n" for name in expected
    ]


def test_directories_run_from_home_then_root_to_cwd(tmp_path: Path) -> None:
    cwd = tmp_path / "a" / "b"
    dirs = context_directories(cwd, tmp_path / "home")
    assert dirs[0] == tmp_path / "home" and dirs[1] == Path("/") and dirs[-1] == cwd
    assert dirs[-3:] == [tmp_path, tmp_path / "a", cwd]


def test_tau_home_inside_the_project_is_read_once(tmp_path: Path) -> None:
    write(tmp_path / "AGENTS.md", "once\n")
    found, _ = load_context_files(tmp_path, tmp_path)
    assert under(tmp_path, [file.path for file in found]) == ["AGENTS.md"]


def test_a_directory_named_agents_md_falls_back_to_claude_md(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").mkdir()
    write(tmp_path / "CLAUDE.md", "claude\n")
    found, diagnostics = load_context_files(tmp_path, tmp_path / "tau")
    assert under(tmp_path, [file.path for file in found]) == ["CLAUDE.md"] and diagnostics == []


def test_malformed_files_give_diagnostics_and_the_rest_still_loads(tmp_path: Path) -> None:
    cwd = tmp_path / "proj" / "app"
    write(tmp_path / "tau" / "AGENTS.md", b"\x00\x01binary")
    write(tmp_path / "proj" / "AGENTS.md", b"caf\xe9\n")
    write(cwd / "AGENTS.md", "fine\n")
    found, diagnostics = load_context_files(cwd, tmp_path / "tau")
    assert under(tmp_path, [file.path for file in found]) == ["proj/AGENTS.md", "proj/app/AGENTS.md"]
    assert found[-2].text == "caf\ufffd\n"
    assert [(d.severity, Path(d.source).relative_to(tmp_path).as_posix()) for d in diagnostics] == [
        ("error", "tau/AGENTS.md"),
        ("warning", "proj/AGENTS.md"),
    ]
