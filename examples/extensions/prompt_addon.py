"""``before_agent_start``: a house rule in the system prompt, and a reminder when tests are mentioned.

The system prompt change holds for this one prompt; the reminder is a custom message kept in
the session (the model sees it before the user's message).
"""

from __future__ import annotations

from tau_agent.messages import CustomMessage
from tau_coding.extensions import AgentStartEvent, AgentStartPatch, ExtensionAPI

RULE = "House rule: answer in British English."


def activate(tau: ExtensionAPI) -> None:
    @tau.on("before_agent_start")
    def add_rule(event: AgentStartEvent) -> AgentStartPatch:
        reminder = None
        if "test" in event.prompt.lower():
            reminder = CustomMessage("reminder", "Run the test suite before saying you are done.", True, None)
        return AgentStartPatch(system_prompt=f"{event.system_prompt}\n\n{RULE}", message=reminder)
