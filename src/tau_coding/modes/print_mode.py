"""Print mode: one prompt, then the final answer (text) or every event (JSON lines).

A frontend is a fold over events: ``render`` each one, then ``finish`` says whether the run
went well, which becomes the exit code.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import TextIO

from tau_agent.events import AgentEvent, MessageEndEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import AssistantMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.testing import FunctionProvider
from tau_agent.wire import event_to_dict


class FinalTextRenderer:
    """Prints nothing while the run goes on; ``finish`` prints the last answer or the error."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self._out, self._err = out, err
        self._last: AssistantMessage | None = None

    def render(self, event: AgentEvent) -> None:
        if isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            self._last = event.message

    def finish(self) -> bool:
        last = self._last
        if last is None:
            self._err.write("Error: the run produced no reply\n")
            return False
        if last.stop_reason in ("error", "aborted"):
            self._err.write(f"Error: {last.error_message or last.stop_reason}\n")
            return False
        text = last.text
        self._out.write(text if text.endswith("\n") else text + "\n")
        self._out.flush()
        return True


class JsonLinesRenderer:
    """Every event as one JSON line; fails when the final reply failed."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._ok = True

    def render(self, event: AgentEvent) -> None:
        self._out.write(json.dumps(event_to_dict(event), ensure_ascii=False, separators=(",", ":")) + "\n")
        if isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            self._ok = event.message.stop_reason not in ("error", "aborted")

    def finish(self) -> bool:
        self._out.flush()
        return self._ok


def scripted_reply(context: Context, options: StreamOptions) -> str:
    """Until provider adapters land: answer by restating the prompt, so the pipeline runs end to end."""
    del options
    last = context.messages[-1] if context.messages else None
    said = last.content if last is not None and isinstance(last.content, str) else ""
    return f"(scripted provider) You asked: {said.strip()}"


def run_print_mode(prompt: str, *, json_output: bool, max_turns: int | None) -> int:
    sys.stderr.write("tau: no model provider is configured yet; using the built-in scripted provider\n")
    harness = AgentHarness(FunctionProvider(scripted_reply, provider="scripted"), max_turns=max_turns)
    renderer: FinalTextRenderer | JsonLinesRenderer = (
        JsonLinesRenderer(sys.stdout) if json_output else FinalTextRenderer(sys.stdout, sys.stderr)
    )

    async def drive() -> bool:
        async for event in harness.prompt(prompt):
            renderer.render(event)
        return renderer.finish()

    return 0 if asyncio.run(drive()) else 1
