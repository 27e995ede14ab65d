"""RpcClient: drive ``tau --mode rpc`` from Python (asyncio).

    async with await RpcClient.start(["--model", "anthropic/claude-sonnet-4-5"], cwd=project) as tau:
        await tau.prompt("Explain main.py")
        async for event in tau.events():
            if event["type"] == "message_update":
                print(event["assistantMessageEvent"].get("delta", ""), end="")
            if event["type"] == "agent_settled":
                break
        print(await tau.get_last_assistant_text())

Every command gets a fresh id; ``request`` waits for the response with that id and returns
its ``data`` (None when there is none) or raises RpcError with the server's message. Every
other line (events, extension-UI requests, responses that carry no id) goes to ``events()``
in order. Because a prompt answers at once and a failure may follow later, ``prompt``
returns when the prompt is accepted; ``prompt_and_wait`` also collects its events until the
run has settled.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

_END = object()


class RpcError(RuntimeError):
    """The server answered ``success: false``; ``command`` names the command."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command}: {message}")
        self.command = command
        self.error = message


class RpcClosedError(RpcError):
    """The server process ended before answering."""


class RpcClient:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._events: asyncio.Queue[Any] = asyncio.Queue()
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(
        cls,
        args: Sequence[str] = (),
        *,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        command: Sequence[str] | None = None,
    ) -> RpcClient:
        """Spawn ``tau --mode rpc *args`` (``command`` replaces ``[python, -P, -m, tau_coding]``).

        ``-P`` keeps ``cwd`` off the child's import path, so a ``json.py`` in the project
        cannot run before Tau does.
        """
        program = list(command) if command is not None else [sys.executable, "-P", "-m", "tau_coding"]
        process = await asyncio.create_subprocess_exec(
            *program,
            "--mode",
            "rpc",
            *args,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=1 << 26,
        )
        return cls(process)

    async def __aenter__(self) -> RpcClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the wire -----------------------------------------------------------------------------------

    async def send(self, command: Mapping[str, Any]) -> None:
        """Write one command line as given (no id is added)."""
        await self.send_raw(json.dumps(command, ensure_ascii=False).encode() + b"\n")

    async def send_raw(self, data: bytes) -> None:
        """Write bytes as they are: for tests of framing and bad input."""
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        await stdin.drain()

    async def request(self, kind: str, **fields: Any) -> Any:
        """Send a command with a fresh id and return its response's data (RpcError on failure)."""
        response = await self.request_response(kind, **fields)
        if not response.get("success"):
            raise RpcError(kind, str(response.get("error")))
        return response.get("data")

    async def request_response(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Like ``request`` but returns the whole response object, success or not."""
        request_id = f"req-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        await self.send({"id": request_id, "type": kind, **fields})
        return await future

    async def events(self, timeout: float | None = None) -> AsyncIterator[dict[str, Any]]:
        """Events, extension-UI requests and id-less responses, in order, until the server ends."""
        while True:
            item = await asyncio.wait_for(self._events.get(), timeout)
            if item is _END:
                self._events.put_nowait(_END)
                return
            yield item

    async def next_event(self, timeout: float | None = 30.0) -> dict[str, Any]:
        async for event in self.events(timeout):
            return event
        raise RpcClosedError("events", "the server ended")

    async def wait_for(self, event_type: str, timeout: float | None = 30.0) -> list[dict[str, Any]]:
        """Every event up to and including the first of ``event_type``."""
        seen = []
        async for event in self.events(timeout):
            seen.append(event)
            if event.get("type") == event_type:
                return seen
        raise RpcClosedError("events", f"the server ended before {event_type}")

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while line := await stdout.readline():
                message = json.loads(line)
                request_id = message.get("id") if message.get("type") == "response" else None
                future = self._waiting.pop(request_id, None) if isinstance(request_id, str) else None
                if future is not None:
                    future.set_result(message)
                else:
                    self._events.put_nowait(message)
        finally:
            for request_id, future in self._waiting.items():
                if not future.done():
                    future.set_exception(RpcClosedError(request_id, "the server ended before answering"))
            self._waiting.clear()
            self._events.put_nowait(_END)

    async def close(self, timeout: float = 30.0) -> int:
        """Close stdin (the server aborts any run and exits) and wait; returns the exit code."""
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.close()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                await stdin.wait_closed()
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        with contextlib.suppress(Exception):
            await self._reader
        return self.process.returncode if self.process.returncode is not None else -1

    async def stderr_text(self) -> str:
        """What the server wrote to stderr (after it has ended)."""
        stderr = self.process.stderr
        return (await stderr.read()).decode(errors="replace") if stderr is not None else ""

    # -- typed commands --------------------------------------------------------------------------------

    async def prompt(
        self,
        message: str,
        *,
        images: Sequence[Mapping[str, str]] = (),
        streaming_behavior: Literal["steer", "followUp"] | None = None,
    ) -> None:
        fields: dict[str, Any] = {"message": message}
        if images:
            fields["images"] = [dict(i) for i in images]
        if streaming_behavior is not None:
            fields["streamingBehavior"] = streaming_behavior
        await self.request("prompt", **fields)

    async def prompt_and_wait(self, message: str, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Prompt, then every event until the run has settled."""
        await self.prompt(message)
        return await self.wait_for("agent_settled", timeout)

    async def steer(self, message: str) -> None:
        await self.request("steer", message=message)

    async def follow_up(self, message: str) -> None:
        await self.request("follow_up", message=message)

    async def abort(self) -> None:
        await self.request("abort")

    async def get_state(self) -> dict[str, Any]:
        state: dict[str, Any] = await self.request("get_state")
        return state

    async def get_messages(self) -> list[dict[str, Any]]:
        return list((await self.request("get_messages"))["messages"])

    async def set_model(self, provider: str, model_id: str) -> dict[str, Any]:
        model: dict[str, Any] = await self.request("set_model", provider=provider, modelId=model_id)
        return model

    async def get_available_models(self) -> list[dict[str, Any]]:
        return list((await self.request("get_available_models"))["models"])

    async def set_thinking_level(self, level: str) -> None:
        await self.request("set_thinking_level", level=level)

    async def bash(self, command: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.request("bash", command=command)
        return result

    async def new_session(self, parent_session: str | None = None) -> bool:
        fields = {"parentSession": parent_session} if parent_session else {}
        return not (await self.request("new_session", **fields))["cancelled"]

    async def switch_session(self, path: str | os.PathLike[str]) -> None:
        await self.request("switch_session", sessionPath=os.fspath(path))

    async def fork(self, entry_id: str) -> str:
        return str((await self.request("fork", entryId=entry_id))["text"])

    async def clone(self) -> None:
        """Continue in a copy of the current branch (Pi's ``clone``)."""
        await self.request("clone")

    async def get_fork_messages(self) -> list[dict[str, str]]:
        return list((await self.request("get_fork_messages"))["messages"])

    async def get_last_assistant_text(self) -> str | None:
        text = (await self.request("get_last_assistant_text"))["text"]
        return None if text is None else str(text)

    async def get_session_stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = await self.request("get_session_stats")
        return stats

    async def export_html(self, output_path: str | None = None) -> str:
        fields = {"outputPath": output_path} if output_path else {}
        return str((await self.request("export_html", **fields))["path"])

    async def set_session_name(self, name: str) -> None:
        await self.request("set_session_name", name=name)

    async def get_tree(self) -> dict[str, Any]:
        tree: dict[str, Any] = await self.request("get_tree")
        return tree

    async def navigate_tree(
        self,
        entry_id: str | None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
    ) -> str | None:
        """Move in the tree; with ``summarize`` the branch left behind is summarised first.
        Returns the new leaf's id."""
        fields: dict[str, Any] = {"entryId": entry_id}
        if summarize:
            fields.update(summarize=True, customInstructions=custom_instructions, label=label)
        leaf = (await self.request("navigate_tree", **fields))["leafId"]
        return None if leaf is None else str(leaf)

    async def set_label(self, entry_id: str, label: str | None) -> None:
        await self.request("set_label", entryId=entry_id, label=label)

    async def list_sessions(self, *, everywhere: bool = False) -> list[dict[str, Any]]:
        return list((await self.request("list_sessions", all=everywhere))["sessions"])

    async def list_checkpoints(self) -> list[dict[str, Any]]:
        return list((await self.request("list_checkpoints"))["checkpoints"])

    async def restore_checkpoint(self, checkpoint_id: str, restore: str = "both") -> dict[str, Any]:
        """``restore``: "code", "conversation", "both" or "summarize" (docs/rpc.md)."""
        result: dict[str, Any] = await self.request(
            "restore_checkpoint", checkpointId=checkpoint_id, restore=restore
        )
        return result

    async def answer_ui(self, request_id: str, **answer: Any) -> None:
        """Answer an ``extension_ui_request``: ``value=...``, ``confirmed=...`` or ``cancelled=True``."""
        await self.send({"type": "extension_ui_response", "id": request_id, **answer})


__all__ = ["RpcClient", "RpcClosedError", "RpcError"]
