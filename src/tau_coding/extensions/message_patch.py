"""``message_end``'s answer: the message to record instead of the one that ended.

A ``message_end`` handler receives the session event itself (``event.message``) and may return
``MessagePatch(message)``. The replacement goes into the context and the session file in place
of the original, and every listener hears ``message_end`` with it (mutate, then announce).
``replacement_problem`` is the check it must pass first (pure).
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_agent.messages import AgentMessage, AssistantMessage, ToolResultMessage


@dataclass(eq=False)
class MessagePatch:
    """Record ``message`` instead (the same kind of message: see ``replacement_problem``)."""

    message: AgentMessage


def replacement_problem(original: AgentMessage, replacement: object) -> str | None:
    """Why ``replacement`` cannot stand in for ``original`` (None: it can).

    It must be the same kind of message (Pi: the same role). A reply keeps its tool calls
    (their ids, in order): the run has already begun acting on them. A tool result answers
    the same call.
    """
    if type(replacement) is not type(original):
        kind = type(replacement).__name__
        return f"replacement is a {kind}, not a {type(original).__name__}"
    if (
        isinstance(original, AssistantMessage)
        and isinstance(replacement, AssistantMessage)
        and [c.id for c in original.tool_calls] != [c.id for c in replacement.tool_calls]
    ):
        return "a reply's replacement must keep its tool calls"
    if (
        isinstance(original, ToolResultMessage)
        and isinstance(replacement, ToolResultMessage)
        and original.tool_call_id != replacement.tool_call_id
    ):
        return "a tool result's replacement must answer the same tool call"
    return None
