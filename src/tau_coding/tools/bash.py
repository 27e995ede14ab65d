"""The ``bash`` tool: run one command in the working directory and report its output.

Each call is a fresh ``shell -c`` in its own process group with stdin closed and stderr
merged into stdout. Output streams to ``on_update`` at most every ``UPDATE_INTERVAL``
seconds as a rolling tail; memory stays bounded and a long output is kept whole in a log
file. Timeout and cancellation kill the entire group, background children included.

Given a ``SandboxPolicy`` (``tau_coding.sandbox``), the command runs inside the OS sandbox
(bubblewrap on Linux) unless the model sets ``dangerouslyDisableSandbox``; the flag is offered
only when a sandbox is configured, and the permission engine decides whether it may be used.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.sandbox.hint import DISABLE_FLAG, sandbox_hint
from tau_coding.sandbox.launch import plan_launch
from tau_coding.sandbox.policy import SandboxPolicy
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.output_sink import OutputSink
from tau_coding.tools.results import fail, guarded
from tau_coding.tools.shell import (
    command_env,
    find_shell,
    forget_process_group,
    kill_process_group,
    track_process_group,
)
from tau_coding.tools.truncate import format_size

SANDBOX_NOTE = (
    " Commands run in a sandbox: only the project and temp dirs are writable, the network may be off."
)
UPDATE_INTERVAL = 0.1
DRAIN_AFTER_KILL = 2.0  # a child that left the group may hold the pipe open; stop waiting for it
_READ_SIZE = 64 * 1024

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "description": "Bash command to execute"},
        "timeout": {"type": "number", "description": "Timeout in seconds (optional)"},
    },
    "required": ["command"],
    "additionalProperties": False,
}
SANDBOX_PARAMETERS: dict[str, Any] = {
    **PARAMETERS,
    "properties": {
        **PARAMETERS["properties"],
        DISABLE_FLAG: {
            "type": "boolean",
            "description": (
                "Run this command outside the sandbox (only when it failed because of the sandbox; "
                "the user may be asked first)"
            ),
        },
    },
}
# A fixed policy, or a callable asked before every command (a permission mode may switch it).
SandboxChoice = SandboxPolicy | Callable[[], SandboxPolicy | None] | None


def _notice(sink: OutputSink) -> tuple[str, dict[str, Any]]:
    """The output text within budget plus the notice of what was left out, and details."""
    cut = sink.truncated()
    spilled = sink.spill_path is not None
    text = cut.content if cut.truncated else cut.content.removesuffix("\n")
    details: dict[str, Any] = {"fullOutputPath": str(sink.spill_path) if spilled else None}
    if not (cut.truncated or spilled):
        return text, details
    total = sink.total_lines
    end = total
    start = end - cut.output_lines + 1
    where = f"Full output: {sink.spill_path}" if spilled else "Full output was not kept"
    if sink.spill_full:
        where = f"First {format_size(sink.spill_limit)} of the output: {sink.spill_path}"
    if cut.last_line_partial:
        size = format_size(sink.last_line_bytes)
        notice = f"[Showing last {format_size(cut.output_bytes)} of line {end} (line is {size}). {where}]"
    elif cut.truncated_by == "bytes":
        notice = f"[Showing lines {start}-{end} of {total} ({format_size(sink.max_bytes)} limit). {where}]"
    else:
        notice = f"[Showing lines {start}-{end} of {total}. {where}]"
    details["truncation"] = cut.to_details() | {"totalLines": total, "totalBytes": sink.total_bytes}
    return f"{text}\n\n{notice}", details


async def _spawn(argv: Sequence[str], cwd: Path, env: dict[str, str] | None) -> asyncio.subprocess.Process:
    """Start the command in a new session (its own process group).

    If the caller is cancelled while asyncio is still wiring up the pipes, the process already
    exists: wait for the handle and kill the whole group, so nothing is left running.
    """
    spawning = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
    )
    try:
        process = await asyncio.shield(spawning)
        track_process_group(process.pid)
        return process
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            process = await spawning
            kill_process_group(process.pid)
            await process.wait()
            _close_pipes(process)
        raise


def _close_pipes(process: asyncio.subprocess.Process) -> None:
    """Close the process's pipe transport now rather than at garbage collection.

    A child that escaped the process group may still hold the output pipe; asyncio would
    otherwise keep the transport open and warn about it later. ``Process`` has no public
    close, so the transport asyncio gave it is closed directly (killing nothing that is gone).
    """
    transport = getattr(process, "_transport", None)
    if transport is not None:
        transport.close()


@dataclass(frozen=True, slots=True)
class BashRun:
    """How one command went: its output and how it ended, as data (the tool adds the status line).

    ``output`` is the output within budget with any truncation notice ("(no output)" if none),
    or, when ``started`` is false, why the command did not run. ``details`` holds the tool
    result's details (exitCode, cancelled, timedOut, truncation, fullOutputPath).
    """

    output: str
    timeout: float | None = None
    started: bool = True
    exit_code: int | None = None
    stopped: Literal["aborted", "timeout"] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    hint: str | None = None  # a line saying the sandbox may have caused the failure
    raw: str = ""  # the output within budget as written (trailing newline kept, no notice)

    @property
    def status(self) -> str | None:
        """The line that says the command failed (aborted, timed out, killed, exit code); None if it did not."""
        if self.stopped == "aborted":
            return "Command aborted"
        if self.stopped == "timeout":
            return f"Command timed out after {self.timeout:g} seconds"
        if self.exit_code is not None and self.exit_code < 0:
            return f"Command was killed by signal {-self.exit_code}"
        if self.exit_code:
            return f"Command exited with code {self.exit_code}"
        return None

    def tool_result(self) -> AgentToolResult:
        """What the model reads: the output, then the status line when the command failed."""
        if not self.started:
            return fail(self.output)
        status = self.status
        if status is None:
            return AgentToolResult.text(self.output, self.details)
        hint = f"\n{self.hint}" if self.hint else ""
        return AgentToolResult.text(f"{self.output}\n\n{status}{hint}", self.details, is_error=True)


async def run_command(
    command: str,
    cwd: Path,
    settings: ToolSettings,
    timeout: float | None,
    signal: CancellationToken,
    on_update: ToolUpdate,
    sandbox: SandboxPolicy | None = None,
) -> BashRun:
    """Run ``command`` to completion, timeout or cancellation; never raises for the command's sake.

    With ``sandbox``, the command runs confined by it (or, where the sandbox cannot start,
    as ``sandbox.required`` says: refused, or unconfined after a one-time warning line).
    """
    try:
        shell = find_shell(settings.shell_path)
    except FileNotFoundError as exc:
        return BashRun(f"Cannot run the command: {exc}.", started=False)
    if not cwd.is_dir():
        return BashRun(f"Cannot run the command: the working directory {cwd} does not exist.", started=False)
    if signal.cancelled:
        return BashRun("Command aborted before it started", started=False)
    launch = plan_launch([shell, "-c", command], cwd, sandbox)
    if launch.argv is None:
        return BashRun(launch.notice or "Cannot run the command.", started=False)
    sink = OutputSink(settings.max_lines, settings.max_bytes, settings.temp_dir, settings.spill_limit)
    if launch.notice:
        sink.append(f"{launch.notice}\n".encode())
    process = await _spawn(launch.argv, cwd, command_env(settings.scrub_env))
    assert process.stdout is not None
    stdout = process.stdout
    last_update = 0.0

    async def pump() -> None:
        nonlocal last_update
        while chunk := await stdout.read(_READ_SIZE):
            sink.append(chunk)
            now = time.monotonic()
            if now - last_update >= UPDATE_INTERVAL:
                last_update = now
                text, details = _notice(sink)
                on_update(AgentToolResult.text(text, details))
        await process.wait()

    reading = asyncio.ensure_future(pump())
    cancelled = asyncio.ensure_future(signal.wait())
    stopped: Literal["aborted", "timeout"] | None = None
    try:
        done, _ = await asyncio.wait(
            {reading, cancelled}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if reading not in done:
            stopped = "aborted" if signal.cancelled else "timeout"
            kill_process_group(process.pid)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reading), DRAIN_AFTER_KILL)
        if not reading.done():
            reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        await process.wait()
    finally:
        cancelled.cancel()
        if process.returncode is None or not reading.done():
            kill_process_group(process.pid)
            reading.cancel()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(process.wait(), DRAIN_AFTER_KILL)
        _close_pipes(process)
        forget_process_group(process.pid)
        sink.close()
    text, details = _notice(sink)
    code = process.returncode
    details |= {"exitCode": code, "cancelled": stopped == "aborted", "timedOut": stopped == "timeout"}
    hint = None
    if sandbox is not None:
        details["sandboxed"] = launch.confined
        if launch.confined and stopped is None:
            hint = sandbox_hint(text, code, sandbox)
    return BashRun(
        text or "(no output)",
        timeout,
        exit_code=code,
        stopped=stopped,
        details=details,
        hint=hint,
        raw=sink.truncated().content,
    )


def create_bash_tool(cwd: Path, settings: ToolSettings, sandbox: SandboxChoice = None) -> AgentTool:
    """The bash tool for ``cwd``; with ``sandbox`` its commands run confined (module docstring)."""

    def policy() -> SandboxPolicy | None:
        return sandbox if sandbox is None or isinstance(sandbox, SandboxPolicy) else sandbox()

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        timeout = args.get("timeout", settings.bash_timeout)
        if timeout is not None and timeout <= 0:
            return fail("timeout must be a positive number of seconds.")
        configured = policy()
        outside = configured is not None and args.get(DISABLE_FLAG) is True
        run = await run_command(
            args["command"], cwd, settings, timeout, signal, on_update, None if outside else configured
        )
        if outside:
            run.details["sandboxed"] = False
        return run.tool_result()

    limit = f"{settings.max_lines} lines or {format_size(settings.max_bytes)}"
    default = f" Default timeout: {settings.bash_timeout:g} seconds." if settings.bash_timeout else ""
    confined = "" if sandbox is None else SANDBOX_NOTE
    return AgentTool(
        name="bash",
        label="Bash",
        description=(
            "Execute a bash command in the working directory. Returns stdout and stderr combined; "
            f"output is cut to the last {limit}, and when cut, the full output is saved to a file "
            f"whose path is given. Optionally give a timeout in seconds.{default}{confined}"
        ),
        parameters=PARAMETERS if sandbox is None else SANDBOX_PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("bash", execute),
        prompt_snippet="Execute bash commands (ls, grep, find, etc.)",
    )
