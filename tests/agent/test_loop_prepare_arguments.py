"""A tool's ``prepare_arguments`` shim runs on the raw arguments before validation."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from tau_agent.content import text_of
from tau_agent.loop import LoopConfig
from tau_agent.messages import ToolResultMessage
from tau_agent.testing import FakeProvider, call, reply
from tests.agent.helpers import read_tool, run


def _results(messages: list[Any]) -> list[ToolResultMessage]:
    return [m for m in messages if isinstance(m, ToolResultMessage)]


async def test_the_shims_arguments_are_validated_and_run(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha")
    ran: list[str] = []

    def shim(args: dict[str, Any]) -> dict[str, Any]:
        return {"path": args.pop("file_path")} if "file_path" in args else args

    tool = dataclasses.replace(read_tool(tmp_path, ran), prepare_arguments=shim)
    provider = FakeProvider([reply(call("read", {"file_path": "a.txt"})), reply("done")])
    _, messages = await run(LoopConfig(provider=provider, tools=[tool]))
    result = _results(messages)[0]
    assert not result.is_error and text_of(result.content) == "alpha" and ran == ["a.txt"]


async def test_a_failing_shim_becomes_an_error_result_and_nothing_runs(tmp_path: Path) -> None:
    ran: list[str] = []

    def shim(args: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("edits must be a list")

    tool = dataclasses.replace(read_tool(tmp_path, ran), prepare_arguments=shim)
    provider = FakeProvider([reply(call("read", {"path": "a.txt"})), reply("done")])
    _, messages = await run(LoopConfig(provider=provider, tools=[tool]))
    result = _results(messages)[0]
    assert result.is_error and text_of(result.content) == "edits must be a list" and ran == []
