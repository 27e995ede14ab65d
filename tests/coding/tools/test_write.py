from __future__ import annotations

import asyncio
import os
import stat
import threading
from pathlib import Path

import pytest

from tau_agent.atomic_write import atomic_write_bytes
from tau_agent.tools import AgentTool
from tau_coding.tools.file_locks import FileLocks

from .conftest import call


async def test_write_creates_parents_and_reports_real_bytes(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    out = await call(tools["write"], path="a/b/c.txt", content="héllo 😀")
    assert out.text == "Successfully wrote 11 bytes to a/b/c.txt"
    assert (tmp_path / "a" / "b" / "c.txt").read_text() == "héllo 😀"
    assert out.result.details["created"] is True


async def test_write_overwrites_and_keeps_the_mode(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    target = tmp_path / "run.sh"
    target.write_text("old")
    target.chmod(0o751)
    await call(tools["write"], path="run.sh", content="new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751


async def test_write_leaves_no_temporary_files(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    await call(tools["write"], path="x.txt", content="1")
    await call(tools["write"], path="x.txt", content="2")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


async def test_write_to_a_directory_is_an_error(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "d").mkdir()
    out = await call(tools["write"], path="d", content="x")
    assert out.is_error and out.text == "d is a directory; give the path of a file to write."


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
async def test_write_into_a_read_only_directory_fails_cleanly(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    (locked / "f.txt").write_text("keep")
    locked.chmod(0o500)
    try:
        out = await call(tools["write"], path="ro/f.txt", content="new")
    finally:
        locked.chmod(0o700)
    assert out.is_error and "Permission denied" in out.text
    assert [p.name for p in locked.iterdir()] == ["f.txt"] and (locked / "f.txt").read_text() == "keep"


async def test_write_through_a_symlink_writes_the_target_and_says_so(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "conf.txt").write_text("old")
    (tmp_path / "conf.txt").symlink_to(tmp_path / "real" / "conf.txt")
    out = await call(tools["write"], path="conf.txt", content="new")
    assert out.text == "Successfully wrote 3 bytes to conf.txt (via symlink to real/conf.txt)"
    assert (tmp_path / "conf.txt").is_symlink()
    assert (tmp_path / "real" / "conf.txt").read_text() == "new"


def test_atomic_write_never_shows_a_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "big.bin"
    versions = [bytes([65 + i]) * 2_000_000 for i in range(6)]
    target.write_bytes(versions[0])
    seen: set[bytes] = set()
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            seen.add(target.read_bytes())

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for _ in range(3):
            for version in versions:
                atomic_write_bytes(target, version)
    finally:
        stop.set()
        thread.join()
    assert seen <= set(versions) and len(seen) > 1


async def test_parallel_writes_and_edits_to_one_file_are_serialised(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    target = tmp_path / "shared.txt"
    # Large enough that unserialised read-modify-write cycles would overlap and lose edits.
    padding = "filler line\n" * 200_000
    target.write_text("".join(f"slot {i}: empty\n" for i in range(30)) + padding)
    edits = [
        call(tools["edit"], path="shared.txt", oldText=f"slot {i}: empty", newText=f"slot {i}: filled")
        for i in range(30)
    ]
    results = await asyncio.gather(*edits)
    assert all(not r.is_error for r in results), [r.text for r in results if r.is_error]
    assert target.read_text() == "".join(f"slot {i}: filled\n" for i in range(30)) + padding


async def test_file_locks_forget_files_nobody_holds(tmp_path: Path) -> None:
    locks = FileLocks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks.hold(tmp_path / "f"):
            order.append(f"{name}+")
            await asyncio.sleep(0.01)
            order.append(f"{name}-")

    await asyncio.gather(hold("a"), hold("b"))
    assert order == ["a+", "a-", "b+", "b-"] and len(locks) == 0
