from __future__ import annotations

import asyncio
import time
import tracemalloc
from pathlib import Path

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool
from tau_coding.tools import ToolSettings, create_coding_tools

from .conftest import call


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


async def _wait_dead(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        await asyncio.sleep(0.02)
    return False


async def test_bash_runs_in_the_working_directory_with_stderr_merged(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    out = await call(tools["bash"], command="pwd; echo oops >&2")
    assert not out.is_error and out.text == f"{tmp_path}\noops"
    assert out.result.details["exitCode"] == 0


async def test_bash_stdin_is_closed(tools: dict[str, AgentTool]) -> None:
    out = await call(tools["bash"], command="cat; echo done")
    assert out.text == "done"


async def test_bash_nonzero_exit_is_an_error_result(tools: dict[str, AgentTool]) -> None:
    out = await call(tools["bash"], command="echo failing; exit 3")
    assert out.is_error and out.text == "failing\n\nCommand exited with code 3"


async def test_bash_empty_output_says_so(tools: dict[str, AgentTool]) -> None:
    assert (await call(tools["bash"], command="true")).text == "(no output)"


async def test_bash_streams_output_while_running(tools: dict[str, AgentTool]) -> None:
    out = await call(tools["bash"], command="for i in 1 2 3 4; do echo $i; sleep 0.15; done")
    assert out.text == "1\n2\n3\n4"
    texts = [u.content[0].text for u in out.updates]  # type: ignore[union-attr]
    assert len(texts) >= 2 and texts[0].startswith("1") and all(t.startswith("1") for t in texts)
    assert len(texts) < 20  # throttled, not one per chunk


async def test_bash_timeout_kills_background_children(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    start = time.monotonic()
    out = await call(
        tools["bash"], command="sleep 30 & echo $! > child.pid; echo started; sleep 30", timeout=0.5
    )
    assert time.monotonic() - start < 5
    assert out.is_error and out.text == "started\n\nCommand timed out after 0.5 seconds"
    assert out.result.details["timedOut"] is True
    assert await _wait_dead(int((tmp_path / "child.pid").read_text()))


async def test_bash_cancel_kills_the_whole_process_group(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    token = CancellationToken()
    task = asyncio.ensure_future(
        call(tools["bash"], token, command="(sleep 30; echo never) & echo $! > child.pid; wait")
    )
    for _ in range(100):
        if (tmp_path / "child.pid").exists() and (tmp_path / "child.pid").read_text().strip():
            break
        await asyncio.sleep(0.02)
    token.cancel()
    out = await asyncio.wait_for(task, 5)
    assert out.is_error and out.text == "(no output)\n\nCommand aborted"
    assert await _wait_dead(int((tmp_path / "child.pid").read_text()))


async def test_bash_task_cancellation_also_kills_the_group(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    task = asyncio.ensure_future(call(tools["bash"], command="sleep 30 & echo $! > child.pid; wait"))
    for _ in range(100):
        if (tmp_path / "child.pid").exists() and (tmp_path / "child.pid").read_text().strip():
            break
        await asyncio.sleep(0.02)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert await _wait_dead(int((tmp_path / "child.pid").read_text()))


async def test_bash_tail_truncates_and_keeps_the_full_output_in_a_log(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(temp_dir=tmp_path))
    out = await call(tools["bash"], command="seq 1 5000")
    body, notice = out.text.rsplit("\n\n", 1)
    log = Path(out.result.details["fullOutputPath"])
    assert body.splitlines() == [str(i) for i in range(3001, 5001)]
    assert notice == f"[Showing lines 3001-5000 of 5000. Full output: {log}]"
    assert log.read_text() == "".join(f"{i}\n" for i in range(1, 5001))


async def test_bash_byte_budget_notice(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(temp_dir=tmp_path))
    out = await call(tools["bash"], command="for i in $(seq 1 1000); do printf '%099d\\n' $i; done")
    body, notice = out.text.rsplit("\n\n", 1)
    shown = len(body.splitlines())
    assert shown == 512  # 100 bytes a line into 50 KB
    assert notice.startswith(f"[Showing lines {1000 - shown + 1}-1000 of 1000 (50.0KB limit). Full output: ")


async def test_bash_huge_single_line_keeps_its_end(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(temp_dir=tmp_path))
    out = await call(tools["bash"], command="head -c 200000 /dev/zero | tr '\\0' a; echo END")
    body, notice = out.text.rsplit("\n\n", 1)
    assert body.endswith("aEND") and len(body.encode()) == 50 * 1024
    assert notice.startswith("[Showing last 50.0KB of line 1 (line is 195.3KB). Full output: ")


async def test_bash_100mb_of_output_stays_in_bounded_memory_and_spills_up_to_the_cap(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(temp_dir=tmp_path))
    tracemalloc.start()
    try:
        out = await call(tools["bash"], command="yes abcdefghi | head -c 100000000")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    log = Path(out.result.details["fullOutputPath"])
    assert log.stat().st_size == 64 * 1024 * 1024  # the default cap of a log
    assert log.read_bytes()[:20] == b"abcdefghi\n" * 2  # it holds the start; the result, the end
    assert out.text.endswith(
        f"[Showing lines 9998001-10000000 of 10000000. First 64.0MB of the output: {log}]"
    )
    assert peak < 16 * 1024 * 1024


async def test_an_endless_command_cannot_fill_the_disk_with_its_log(tmp_path: Path) -> None:
    settings = ToolSettings(temp_dir=tmp_path, spill_limit=1024 * 1024, bash_timeout=2)
    tools = create_coding_tools(tmp_path, settings=settings)
    out = await call(tools["bash"], command="yes")
    log = Path(out.result.details["fullOutputPath"])
    assert out.result.details["timedOut"]
    assert log.stat().st_size == 1024 * 1024
    assert f"First 1.0MB of the output: {log}" in out.text


async def test_bash_uses_the_configured_shell(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(shell_path="/bin/sh"))
    out = await call(tools["bash"], command='echo "$0"')
    assert out.text == "/bin/sh"
    missing = create_coding_tools(tmp_path, settings=ToolSettings(shell_path="/no/such/shell"))
    bad = await call(missing["bash"], command="true")
    assert bad.is_error and "/no/such/shell does not exist" in bad.text


async def test_bash_default_timeout_comes_from_settings(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(bash_timeout=0.3))
    out = await call(tools["bash"], command="sleep 5")
    assert out.is_error and out.text.endswith("Command timed out after 0.3 seconds")


async def test_bash_rejects_a_non_positive_timeout(tools: dict[str, AgentTool]) -> None:
    out = await call(tools["bash"], command="true", timeout=0)
    assert out.is_error and out.text == "timeout must be a positive number of seconds."


async def test_bash_streamed_updates_are_tail_truncated_with_a_notice(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(max_lines=5, temp_dir=tmp_path))
    out = await call(tools["bash"], command="seq 1 20; sleep 0.3; echo end")
    first = out.updates[0].content[0].text  # type: ignore[union-attr]
    assert first.startswith("16\n17\n18\n19\n20\n\n[Showing lines 16-20 of 20. Full output: ")
    assert out.text.startswith("17\n18\n19\n20\nend\n\n[Showing lines 17-21 of 21. Full output: ")


async def test_write_and_edit_do_nothing_once_cancelled(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    token = CancellationToken()
    token.cancel()
    out = await call(tools["write"], token, path="x.txt", content="data")
    assert out.is_error and not (tmp_path / "x.txt").exists()
    (tmp_path / "y.txt").write_text("a\n")
    edited = await call(tools["edit"], token, path="y.txt", oldText="a", newText="b")
    assert edited.is_error and (tmp_path / "y.txt").read_text() == "a\n"


async def test_run_command_reports_how_the_command_ended_as_data(tmp_path: Path) -> None:
    from tau_coding.tools.bash import run_command

    settings = ToolSettings()
    run = await run_command("echo out; exit 5", tmp_path, settings, None, CancellationToken(), lambda _: None)
    assert (run.output, run.exit_code, run.stopped, run.status) == (
        "out",
        5,
        None,
        "Command exited with code 5",
    )
    result = run.tool_result()
    assert result.is_error and result.content[0].text == "out\n\nCommand exited with code 5"
    slow = await run_command("sleep 5", tmp_path, settings, 0.2, CancellationToken(), lambda _: None)
    assert slow.stopped == "timeout" and slow.status == "Command timed out after 0.2 seconds"
    missing = await run_command(
        "true", tmp_path / "gone", settings, None, CancellationToken(), lambda _: None
    )
    assert not missing.started and missing.status is None and missing.tool_result().is_error
