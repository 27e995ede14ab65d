"""Coding-tool costs on real files and processes: read of a huge file, grep vs bare rg, bash overhead.

Targets (issue 4): the first page of a 1 GB file in under 50 ms; grep over a 100k-file tree
within 1.5x of running ``rg`` directly; bash round trip under 20 ms over the bare subprocess.
Smoke sizes are small and checked against nothing.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult
from tau_coding.tools import ToolSettings, create_coding_tools
from tau_coding.tools.ripgrep import COMMON_FLAGS, find_rg

Case = tuple[str, Callable[[], float], str, float | None]


def _run(tool: AgentTool, **args: Any) -> AgentToolResult:
    return asyncio.run(tool.execute("bench", args, CancellationToken(), lambda _: None))


def _best(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _text_file(path: Path, size: int) -> None:
    line = b"".join(b"%07d some text of a log line, long enough to look real\n" % i for i in range(10_000))
    with open(path, "wb") as handle:
        written = 0
        while written < size:
            handle.write(line)
            written += len(line)


def read_first_page_ms(size: int, offset: int | None = None) -> float:
    """Milliseconds for ``read`` of one page of a ``size``-byte text file (at ``offset`` if given)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _text_file(root / "big.log", size)
        tool = create_coding_tools(root)["read"]
        args: dict[str, Any] = {"path": "big.log"} | ({"offset": offset} if offset else {})
        result = _run(tool, **args)
        assert not result.is_error
        return _best(lambda: _run(tool, **args), 5) * 1e3


def _tree(root: Path, files: int) -> None:
    for i in range(files):
        directory = root / f"pkg{i % 100:03}" / f"mod{i % 7}"
        directory.mkdir(parents=True, exist_ok=True)
        body = "".join(f"def function_{i}_{j}(x):\n    return x * {j}\n" for j in range(20))
        if i % 997 == 0:
            body += "NEEDLE_TOKEN = True\n"
        (directory / f"file{i}.py").write_text(body)


def grep_vs_rg(files: int) -> tuple[float, float, float]:
    """(tool ms with rg, bare rg ms, tool ms with the Python walker) for a search of a whole tree."""
    rg = find_rg()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _tree(root, files)
        with_rg = create_coding_tools(root)["grep"]
        python = create_coding_tools(root, settings=ToolSettings(use_ripgrep=False))["grep"]

        def search() -> object:
            return _run(with_rg, pattern="NEEDLE_TOKEN")

        def bare() -> object:
            if rg is None:
                return None
            command = [rg, *COMMON_FLAGS, "NEEDLE_TOKEN", "."]
            return subprocess.run(command, cwd=root, capture_output=True, check=False)

        # Warm the page cache first, then alternate, so both see the same disk state.
        search(), bare()
        tool_ms = bare_ms = float("inf")
        for _ in range(3):
            tool_ms = min(tool_ms, _best(search, 1) * 1e3)
            bare_ms = min(bare_ms, _best(bare, 1) * 1e3)
        if rg is None:
            bare_ms = float("nan")
        python_ms = _best(lambda: _run(python, pattern="NEEDLE_TOKEN"), 1) * 1e3
        return tool_ms, bare_ms, python_ms


def bash_overhead_ms(repeats: int) -> float:
    """Milliseconds the bash tool adds to a bare ``bash -c true`` subprocess."""
    with tempfile.TemporaryDirectory() as tmp:
        tool = create_coding_tools(Path(tmp))["bash"]
        shell = shutil.which("bash") or "/bin/sh"
        bare = _best(lambda: subprocess.run([shell, "-c", "true"], cwd=tmp, check=True), repeats)
        tool_time = _best(lambda: _run(tool, command="true"), repeats)
        return max(tool_time - bare, 0.0) * 1e3


def cases(smoke: bool) -> list[Case]:
    big = 10 * 1024 * 1024 if smoke else 1024**3
    files = 500 if smoke else 100_000
    results: dict[str, tuple[float, float, float]] = {}

    def grep_numbers() -> tuple[float, float, float]:
        if "grep" not in results:
            results["grep"] = grep_vs_rg(files)
        return results["grep"]

    return [
        (
            f"tools: read first page, {big // 1024**2} MB file",
            lambda: read_first_page_ms(big),
            "ms",
            None if smoke else 50.0,
        ),
        (
            "tools: read at offset 100000, 10 MB file",
            lambda: read_first_page_ms(10 * 1024**2, 100_000),
            "ms",
            None,
        ),
        (f"tools: grep, {files} files (rg backend)", lambda: grep_numbers()[0], "ms", None),
        (f"tools: bare rg, {files} files", lambda: grep_numbers()[1], "ms", None),
        (
            f"tools: grep / bare rg, {files} files",
            lambda: grep_numbers()[0] / grep_numbers()[1],
            "ratio",
            1.5,
        ),
        (f"tools: grep, {files} files (Python walker)", lambda: grep_numbers()[2], "ms", None),
        (
            "tools: bash round trip overhead",
            lambda: bash_overhead_ms(5 if smoke else 20),
            "ms",
            None if smoke else 20.0,
        ),
    ]
