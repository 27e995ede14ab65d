"""grep and find, each run once with ripgrep and once with the Python fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool

from .conftest import call


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    files = {
        "src/app.py": "import os\n\ndef main():\n    print('hello')\n",
        "src/util.py": "def helper():\n    return 'Hello'\n",
        "src/web/page.ts": "const hello = 1;\n",
        "README.md": "# hello project\n",
        ".hidden/secret.txt": "hello from hidden\n",
        "build/out.py": "hello = 'ignored'\n",
        "logs/a.log": "hello log\n",
        "logs/keep.log": "hello kept\n",
        ".git/config": "hello git\n",
        "data.bin": "hello\x00binary",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / ".gitignore").write_text("build/\n*.log\n!keep.log\n")
    return tmp_path


async def test_grep_finds_matches_respecting_gitignore_and_hidden_files(
    tree: Path, search_tools: dict[str, AgentTool]
) -> None:
    out = await call(search_tools["grep"], pattern="hello")
    assert out.text.splitlines() == [
        ".hidden/secret.txt:1: hello from hidden",
        "README.md:1: # hello project",
        "logs/keep.log:1: hello kept",
        "src/app.py:4:     print('hello')",
        "src/web/page.ts:1: const hello = 1;",
    ]


async def test_grep_ignore_case_literal_and_glob(tree: Path, search_tools: dict[str, AgentTool]) -> None:
    out = await call(search_tools["grep"], pattern="hello", ignoreCase=True, glob="*.py")
    assert out.text.splitlines() == ["src/app.py:4:     print('hello')", "src/util.py:2:     return 'Hello'"]
    literal = await call(search_tools["grep"], pattern="print('hello')", literal=True)
    assert literal.text == "src/app.py:4:     print('hello')"
    anchored = await call(search_tools["grep"], pattern="hello", glob="src/web/*.ts")
    assert anchored.text == "src/web/page.ts:1: const hello = 1;"


async def test_grep_in_a_subdirectory_or_file_shows_cwd_relative_paths(
    tree: Path, search_tools: dict[str, AgentTool]
) -> None:
    out = await call(search_tools["grep"], pattern="def", path="src")
    assert out.text.splitlines() == ["src/app.py:3: def main():", "src/util.py:1: def helper():"]
    single = await call(search_tools["grep"], pattern="def", path="src/util.py")
    assert single.text == "src/util.py:1: def helper():"


async def test_grep_context_lines(tree: Path, search_tools: dict[str, AgentTool]) -> None:
    out = await call(search_tools["grep"], pattern="def main", context=1)
    assert out.text.splitlines() == [
        "src/app.py-2- ",
        "src/app.py:3: def main():",
        "src/app.py-4-     print('hello')",
    ]


async def test_grep_limit_notice(tmp_path: Path, search_tools: dict[str, AgentTool]) -> None:
    (tmp_path / "many.txt").write_text("".join(f"match {i}\n" for i in range(50)))
    out = await call(search_tools["grep"], pattern="match", limit=10)
    body, notice = out.text.rsplit("\n\n", 1)
    assert body.splitlines() == [f"many.txt:{i + 1}: match {i}" for i in range(10)]
    assert notice == "[10 matches limit reached. Use limit=20 for more, or refine pattern]"


async def test_grep_cuts_long_lines(tmp_path: Path, search_tools: dict[str, AgentTool]) -> None:
    (tmp_path / "long.txt").write_text("needle" + "x" * 1000 + "\n")
    out = await call(search_tools["grep"], pattern="needle")
    body, notice = out.text.rsplit("\n\n", 1)
    assert body == "long.txt:1: needle" + "x" * 494 + "... [truncated]"
    assert notice == "[Some lines truncated to 500 chars. Use read to see full lines]"


async def test_grep_no_matches_and_bad_pattern(tree: Path, search_tools: dict[str, AgentTool]) -> None:
    none = await call(search_tools["grep"], pattern="zzz_nothing")
    assert not none.is_error and none.text == "No matches found"
    bad = await call(search_tools["grep"], pattern="(unclosed")
    assert bad.is_error and bad.text.startswith("grep failed:")
    missing = await call(search_tools["grep"], pattern="x", path="nowhere")
    assert missing.is_error and missing.text == "Path not found: nowhere"


async def test_find_lists_sorted_files_respecting_gitignore(
    tree: Path, search_tools: dict[str, AgentTool]
) -> None:
    out = await call(search_tools["find"], pattern="*.py")
    assert out.text == "src/app.py\nsrc/util.py"
    everything = await call(search_tools["find"], pattern="*")
    assert ".git/config" not in everything.text.splitlines()
    assert ".hidden/secret.txt" in everything.text.splitlines()
    assert "logs/keep.log" in everything.text.splitlines() and "logs/a.log" not in everything.text


async def test_find_path_patterns_and_subdirectories(tree: Path, search_tools: dict[str, AgentTool]) -> None:
    assert (await call(search_tools["find"], pattern="src/**/*.ts")).text == "src/web/page.ts"
    assert (await call(search_tools["find"], pattern="**/*.ts")).text == "src/web/page.ts"
    assert (await call(search_tools["find"], pattern="*.ts", path="src")).text == "src/web/page.ts"


async def test_find_limit_and_no_results(tmp_path: Path, search_tools: dict[str, AgentTool]) -> None:
    for i in range(12):
        (tmp_path / f"f{i:02}.txt").write_text("")
    out = await call(search_tools["find"], pattern="*.txt", limit=5)
    body, notice = out.text.rsplit("\n\n", 1)
    assert body.splitlines() == [f"f{i:02}.txt" for i in range(5)]
    assert notice == "[5 results limit reached (12 found). Use limit=10 for more, or refine pattern]"
    none = await call(search_tools["find"], pattern="*.rs")
    assert not none.is_error and none.text == "No files found matching pattern '*.rs'"


async def test_ls_sorts_marks_directories_and_symlinks(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "b.txt").write_text("")
    (tmp_path / "A.md").write_text("")
    (tmp_path / ".env").write_text("")
    (tmp_path / "src").mkdir()
    (tmp_path / "link").symlink_to("src")
    out = await call(tools["ls"])
    assert out.text == ".env\nA.md\nb.txt\nlink/ -> src\nsrc/"


async def test_ls_limit_empty_and_errors(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "d").mkdir()
    assert (await call(tools["ls"], path="d")).text == "(empty directory)"
    for i in range(5):
        (tmp_path / "d" / f"{i}.txt").write_text("")
    out = await call(tools["ls"], path="d", limit=2)
    assert out.text == "0.txt\n1.txt\n\n[2 entries limit reached (5 entries). Use limit=4 for more]"
    missing = await call(tools["ls"], path="nope")
    assert missing.is_error and missing.text == "Path not found: nope"
    file = await call(tools["ls"], path="d/0.txt")
    assert file.is_error and file.text == "d/0.txt is a file, not a directory; use read to see its contents."


async def test_cancelled_searches_stop_with_an_error(tree: Path, search_tools: dict[str, AgentTool]) -> None:
    token = CancellationToken()
    token.cancel()
    grep = await call(search_tools["grep"], token, pattern="hello")
    assert grep.is_error and grep.text == "grep was cancelled."
    find = await call(search_tools["find"], token, pattern="*")
    assert find.is_error and find.text == "find was cancelled."
