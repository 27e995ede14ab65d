"""The ``todo`` tool, registered by a built-in extension on the public ``ExtensionAPI``.

The model sends the whole list on every call; the result's ``details`` is that list
(``{"items": [...]}``), which is what RPC and JSON clients read from ``tool_execution_end``
and what ``todos_on_path`` finds again after a resume or a move in the tree. The panel above
the editor is the extension widget ``todo`` and the footer count the status ``todo``
(``show_todos``), so every frontend that shows extension widgets shows the list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.extensions.ui import UIBridge
from tau_coding.todo.items import (
    ENTRY_TYPE,
    STATUSES,
    TOOL_NAME,
    TodoError,
    TodoItem,
    count_text,
    from_claude_code,
    parse_items,
    render_lines,
)

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI

WIDGET = "todo"

DESCRIPTION = "Set the task list the user sees: the whole list each time, replacing the last."

PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string"},
                    "status": {"type": "string", "enum": list(STATUSES)},
                },
                "required": ["text", "status"],
            },
        }
    },
    "required": ["items"],
}


# What each frontend was last told, so one that already shows a list is not told it again
# (a move in the tree to a point with the same list says nothing to an RPC client).
_shown: WeakKeyDictionary[UIBridge, tuple[TodoItem, ...]] = WeakKeyDictionary()


def show_todos(ui: UIBridge, items: Sequence[TodoItem]) -> None:
    """Show ``items`` in the panel and the footer count (an empty list hides both); nothing
    is sent when ``ui`` already shows this list."""
    current = tuple(items)
    if _shown.get(ui, ()) == current:
        return
    _shown[ui] = current
    ui.set_widget(WIDGET, render_lines(items) if items else None)
    ui.set_status(WIDGET, count_text(items))


def todo_call_line(args: Mapping[str, Any]) -> str:
    """A todo row's line in the TUI: how far the list is and what is under way, not its JSON."""
    try:
        items = parse_items(from_claude_code(args).get("items"))
    except TodoError:
        return "(a list that is not valid)"
    if not items:
        return "clear the list"
    done = sum(1 for item in items if item.status == "done")
    current = next((item.text for item in items if item.status == "in_progress"), None)
    return f"{done}/{len(items)} done" + (f" · {current}" if current else "")


def create_todo_tool(on_change: Callable[[list[TodoItem]], None]) -> AgentTool:
    """The ``todo`` tool; ``on_change`` hears every list it accepts."""

    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        del tool_call_id, signal, on_update
        try:
            items = parse_items(args.get("items"))
        except TodoError as exc:
            return AgentToolResult.text(str(exc), is_error=True)
        on_change(items)
        details = {"items": [item.to_dict() for item in items]}
        if not items:
            return AgentToolResult.text("The task list is empty.", details)
        return AgentToolResult.text("Task list updated:\n" + "\n".join(render_lines(items)), details)

    return AgentTool(
        name=TOOL_NAME,
        label="todo",
        description=DESCRIPTION,
        parameters=PARAMETERS,
        execute=execute,
        prepare_arguments=from_claude_code,
        prompt_snippet="Keep a task list the user can see",
        prompt_guidelines=(
            "For work of three or more steps keep a todo list: one item in_progress, done at once.",
        ),
    )


def todo_extension() -> Callable[[ExtensionAPI], None]:
    """The built-in extension's part for the task list: registers the ``todo`` tool."""

    def activate(tau: ExtensionAPI) -> None:
        tau.register_tool(
            create_todo_tool(lambda items: show_todos(tau.ui, items)), render_call=todo_call_line
        )

    return activate


def set_todos(tau: ExtensionAPI, items: Sequence[TodoItem]) -> None:
    """Make ``items`` the session's list from outside a tool call (e.g. an approved plan):
    recorded as a ``tau.todo`` entry on the path, then shown."""
    tau.append_entry(ENTRY_TYPE, {"items": [item.to_dict() for item in items]})
    show_todos(tau.ui, items)


def todos_from_plan(steps: Sequence[str]) -> list[TodoItem]:
    """A plan's steps as a fresh list, every item pending (blank steps dropped)."""
    return [TodoItem(step.strip()) for step in steps if step.strip()]
