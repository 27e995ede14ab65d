"""A footer status and a widget: turns and tool calls of this session, updated as they happen."""

from __future__ import annotations

from collections import Counter

from tau_agent.events import AgentEvent, ToolExecutionStartEvent
from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    turns = 0
    tools: Counter[str] = Counter()

    def show() -> None:
        tau.set_status("activity", f"turns {turns} · tool calls {sum(tools.values())}")
        tau.set_widget("tools", [f"{name}: {count}" for name, count in sorted(tools.items())])

    @tau.on("turn_end")
    def on_turn(event: AgentEvent) -> None:
        nonlocal turns
        turns += 1
        show()

    @tau.on("tool_execution_start")
    def on_tool(event: ToolExecutionStartEvent) -> None:
        tools[event.tool_name] += 1
        show()
