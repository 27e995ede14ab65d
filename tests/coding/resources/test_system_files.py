"""SYSTEM.md / APPEND_SYSTEM.md precedence, and --system-prompt / --append-system-prompt values."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.resources.system_files import load_system_prompt_parts, resolve_prompt_arg

# Each case: files (relative to tmp_path: "tau/" is TAU_HOME, "proj/" the working directory),
# the --system-prompt value, the --append-system-prompt values, expected override and appends.
CASES: list[tuple[str, dict[str, str], str | None, list[str], str | None, list[str]]] = [
    ("nothing", {}, None, [], None, []),
    ("user SYSTEM.md", {"tau/SYSTEM.md": "user sys"}, None, [], "user sys", []),
    ("project over user", {"tau/SYSTEM.md": "user sys", "proj/.tau/SYSTEM.md": "proj sys"}, None, [], "proj sys", []),
    ("flag text over files", {"proj/.tau/SYSTEM.md": "proj sys"}, "from flag", [], "from flag", []),
    ("flag names a file", {"prompts/mine.md": "from file"}, "../prompts/mine.md", [], "from file", []),
    ("user append", {"tau/APPEND_SYSTEM.md": "user app"}, None, [], None, ["user app"]),
    ("project append over user", {"tau/APPEND_SYSTEM.md": "u", "proj/.tau/APPEND_SYSTEM.md": "p"}, None, [], None, ["p"]),
    ("append flags replace files", {"proj/.tau/APPEND_SYSTEM.md": "p", "a.md": "file a"}, None, ["../a.md", "text b"], None, ["file a", "text b"]),
    ("blank append dropped", {"tau/APPEND_SYSTEM.md": "  \n"}, None, [], None, []),
    ("SYSTEM.md and append together", {"tau/SYSTEM.md": "s", "tau/APPEND_SYSTEM.md": "a"}, None, [], "s", ["a"]),
    ("SYSTEM.md only in cwd's .tau", {"AGENTS.md": "x", ".tau/SYSTEM.md": "parent"}, None, [], None, []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("label", "files", "system_arg", "append_args", "override", "append"), CASES, ids=[c[0] for c in CASES]
)
def test_precedence(
    tmp_path: Path,
    label: str,
    files: dict[str, str],
    system_arg: str | None,
    append_args: list[str],
    override: str | None,
    append: list[str],
) -> None:
    cwd = tmp_path / "proj"
    cwd.mkdir()
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    parts, diagnostics = load_system_prompt_parts(
        cwd,
        tmp_path / "tau",
        tmp_path / "home",
        system_prompt_arg=system_arg,
        append_system_prompt_args=append_args,
    )
    assert diagnostics == []
    assert parts.base_override == override
    assert list(parts.append) == append


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Be terse.", "Be terse."),
        ("notes.md", "file in cwd\n"),
        ("~/home.md", "file in home\n"),
        ("~/missing.md", "~/missing.md"),
        ("two\nlines", "two\nlines"),
        ("x" * 5000, "x" * 5000),
        ("", ""),
    ],
)
def test_prompt_arg_is_a_file_when_it_names_one(tmp_path: Path, value: str, expected: str) -> None:
    (tmp_path / "cwd").mkdir()
    (tmp_path / "home").mkdir()
    (tmp_path / "cwd" / "notes.md").write_text("file in cwd\n")
    (tmp_path / "home" / "home.md").write_text("file in home\n")
    assert resolve_prompt_arg(value, tmp_path / "cwd", tmp_path / "home") == (expected, [])


def test_absolute_path_arg(tmp_path: Path) -> None:
    (tmp_path / "abs.md").write_text("absolute\n")
    assert resolve_prompt_arg(str(tmp_path / "abs.md"), Path("/nonexistent"), tmp_path) == ("absolute\n", [])


def test_unreadable_prompt_file_is_an_error_not_the_path_as_text(tmp_path: Path) -> None:
    (tmp_path / "bin.md").write_bytes(b"\x00\x00")
    (tmp_path / "tau").mkdir()
    (tmp_path / "tau" / "SYSTEM.md").mkdir()  # a directory where a file should be
    parts, diagnostics = load_system_prompt_parts(
        tmp_path, tmp_path / "tau", tmp_path, append_system_prompt_args=["bin.md"]
    )
    assert parts.base_override is None and parts.append == ()
    assert [(d.severity, Path(d.source).name) for d in diagnostics] == [
        ("error", "SYSTEM.md"),
        ("error", "bin.md"),
    ]
