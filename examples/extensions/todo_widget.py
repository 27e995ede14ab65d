"""A to-do list the model keeps, shown in a widget below the editor.

The ``todo`` tool adds items and ticks them off; the list is drawn with
``tau.set_widget(..., placement="below")`` and saved in the session file
(``append_entry``), so a resumed session shows it again.
"""

from __future__ import annotations

from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.session.entries import CustomEntry
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.extensions import ExtensionAPI, SessionStartEvent

SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["add", "done", "list"]},
        "text": {"type": "string", "description": "the item (add) or its number (done)"},
    },
    "required": ["action"],
}


def activate(tau: ExtensionAPI) -> None:
    items: list[dict[str, Any]] = []

    def draw() -> None:
        lines = [f"{'[x]' if i['done'] else '[ ]'} {n}. {i['text']}" for n, i in enumerate(items, 1)]
        tau.set_widget("todo", lines or None, "below")

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        action, text = args.get("action"), str(args.get("text", ""))
        if action == "add" and text:
            items.append({"text": text, "done": False})
        elif action == "done":
            try:
                items[int(text) - 1]["done"] = True
            except (ValueError, IndexError):
                return AgentToolResult.text(f"no item {text!r}", is_error=True)
        tau.append_entry("todo", {"items": items})
        draw()
        listing = "\n".join(
            f"{n}. {'done' if i['done'] else 'open'}: {i['text']}" for n, i in enumerate(items, 1)
        )
        return AgentToolResult.text(listing or "(empty)", {"items": list(items)})

    tau.register_tool(
        AgentTool("todo", "Keep a to-do list: add an item, mark one done, list them.", SCHEMA, execute)
    )

    @tau.on("session_start")
    def restore(event: SessionStartEvent) -> None:
        saved = [e for e in tau.session.log.entries if isinstance(e, CustomEntry) and e.custom_type == "todo"]
        if saved and isinstance(saved[-1].data, dict):
            items[:] = list(saved[-1].data.get("items", []))
        draw()
